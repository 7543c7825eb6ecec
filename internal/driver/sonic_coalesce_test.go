package driver

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/devices/devicestest"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/sonic"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/gnmi"
)

// gatedConfigDB is the fake SONiC switch with a Set the test holds in flight (HoldNext) and a
// refusal rule (refuse: the whole request refused, nothing applied, as sonic-gnmi does).
type gatedConfigDB struct {
	*fakeConfigDB
	mu sync.Mutex
	devicestest.Gate
	refuse func(*gpb.SetRequest) error
}

func (g *gatedConfigDB) GetAll(ctx context.Context, paths ...*gpb.Path) ([]gnmi.Update, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.fakeConfigDB.GetAll(ctx, paths...)
}

func (g *gatedConfigDB) Set(ctx context.Context, req *gpb.SetRequest) error {
	g.Pass()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.refuse != nil {
		if err := g.refuse(req); err != nil {
			g.sets = append(g.sets, req)
			return err
		}
	}
	return g.fakeConfigDB.Set(ctx, req)
}

// coalesceSwitch is a dynamic-model switch with the policy on ports ports, behind the drivers
// the provider uses.
func coalesceSwitch(t *testing.T, ports int) (*gatedConfigDB, *devices.Registry, exclusivePFC) {
	t.Helper()
	g := &gatedConfigDB{fakeConfigDB: sonicSwitchOf("dynamic", ports)}
	reg := testRegistry("sonic", devices.Device{})
	s := sonicDB{g, newReads(reg, "sw")}
	turn := exclusive{reg, "sw", awaitGrace, true}
	if _, err := (exclusiveQoS{&sonicQoS{s}, turn}).Create(context.Background(), rocePolicy(portNames(ports)...)); err != nil {
		t.Fatal(err)
	}
	return g, reg, exclusivePFC{sonicPFC{s}, turn}
}

func portNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Ethernet%d", 4*i)
	}
	return out
}

func pfcOn(port string, detectMs int) fabric.PFCInterface {
	return fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOn,
		Watchdog: &fabric.PFCWatchdog{Action: "drop", DetectionTimeMs: detectMs, RestorationTimeMs: 400}}
}

type writeResult struct {
	prior Prior
	err   error
}

// start runs write in its own goroutine, as Terraform runs resources.
func start(write func() (Prior, error)) <-chan writeResult {
	ch := make(chan writeResult, 1)
	go func() {
		p, err := write()
		ch <- writeResult{p, err}
	}()
	return ch
}

// queued starts write and returns once it waits in the device's queue behind the Set in
// flight, so the order of arrival is the test's.
func queued(t *testing.T, reg *devices.Registry, write func() (Prior, error)) <-chan writeResult {
	t.Helper()
	n := reg.QueuedWrites("sw")
	ch := start(write)
	deadline := time.Now().Add(10 * time.Second)
	for reg.QueuedWrites("sw") <= n {
		if time.Now().After(deadline) {
			t.Fatal("the write never queued behind the Set in flight")
		}
		runtime.Gosched()
	}
	return ch
}

// keysOf are the CONFIG_DB TABLE|KEY a SetRequest touches.
func keysOf(req *gpb.SetRequest) []string {
	var out []string
	add := func(p *gpb.Path) {
		el := dbElems(p)
		if len(el) > 1 {
			el = el[:2]
		}
		k := strings.Join(el, "|")
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	for _, p := range req.GetDelete() {
		add(p)
	}
	for _, u := range append(slices.Clone(req.GetReplace()), req.GetUpdate()...) {
		add(u.GetPath())
	}
	slices.Sort(out)
	return out
}

// oneAtATime is CONFIG_DB after the same writes sent one after the other, each on a fresh read.
func oneAtATime(t *testing.T, ports int, writes func(pfc exclusivePFC)) map[string]map[string]map[string]string {
	t.Helper()
	db := sonicSwitchOf("dynamic", ports)
	reg := testRegistry("sonic", devices.Device{PerResourceReads: true})
	s := sonicDB{db, newReads(reg, "sw")}
	turn := exclusive{reg, "sw", awaitGrace, true}
	if _, err := (exclusiveQoS{&sonicQoS{s}, turn}).Create(context.Background(), rocePolicy(portNames(ports)...)); err != nil {
		t.Fatal(err)
	}
	writes(exclusivePFC{sonicPFC{s}, turn})
	return db.tables
}

// Writes that arrive while a Set is in flight go together in one SetRequest when it is
// answered; each gets its own result and its own prior state, and CONFIG_DB ends as with the
// writes sent one at a time; what the process keeps is what the switch holds.
func TestSONiCConcurrentWritesShareASetRequest(t *testing.T) {
	ctx := context.Background()
	const ports = 8
	g, reg, pfc := coalesceSwitch(t, ports)
	names := portNames(ports)
	before := len(g.sets)

	results := burst(t, g, reg, pfc, names)
	for port, ch := range results {
		r := <-ch
		if r.err != nil {
			t.Fatalf("%s: %v", port, r.err)
		}
		prior, err := decodeAs[sonic.PFCPrior](r.prior)
		if err != nil {
			t.Fatal(err)
		}
		if len(prior.Fields) == 0 {
			t.Errorf("%s: no prior state recorded", port)
		}
		for _, f := range prior.Fields {
			if f.Key != port && !strings.HasPrefix(f.Key, port+"|") {
				t.Errorf("%s: its prior state holds %s|%s of another port", port, f.Table, f.Key)
			}
		}
	}

	sets := g.sets[before:]
	if len(sets) != 2 {
		t.Fatalf("%d PFC writes went in %d SetRequests, want 2 (the first, then the %d queued behind it together)", ports, len(sets), ports-1)
	}
	for _, port := range names[1:] {
		if !slices.Contains(keysOf(sets[1]), "PFC_WD|"+port) {
			t.Errorf("the combined SetRequest lacks %s's PFC_WD (keys %v)", port, keysOf(sets[1]))
		}
	}
	if g.gets != 1 {
		t.Errorf("the writes read CONFIG_DB %d times, want once", g.gets)
	}
	want := oneAtATime(t, ports, func(pfc exclusivePFC) {
		for _, port := range names {
			if _, err := pfc.Create(ctx, pfcOn(port, 200)); err != nil {
				t.Fatal(err)
			}
		}
	})
	if diff := cmp.Diff(want, g.tables); diff != "" {
		t.Errorf("CONFIG_DB differs from the writes sent one at a time (-one at a time +combined):\n%s", diff)
	}
	s := sonicDB{g, newReads(reg, "sw")}
	kept, err := s.snap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	read, err := s.read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(read, kept, cmp.AllowUnexported(sonic.DB{})); diff != "" {
		t.Errorf("CONFIG_DB kept after the combined Set differs from the switch's (-switch +kept):\n%s", diff)
	}
}

// A combined SetRequest the switch refuses applied nothing: each of its writes is sent again
// alone, built on a fresh read, so the refusal reaches the write at fault and the others are
// applied. A combined Set with no answer fails every write in it, retrying none (it may have
// been applied).
func TestSONiCRefusedCombinedSetRetriedAlone(t *testing.T) {
	const ports = 6
	bad := "PFC_WD|Ethernet12"
	for name, refusal := range map[string]error{
		"refused":    &gnmi.Error{Device: "sw", Op: "set", Err: status.Error(codes.Unknown, "Error: Failed to apply patch on the following scopes:")},
		"unanswered": &gnmi.Error{Device: "sw", Op: "set", Err: status.Error(codes.DeadlineExceeded, "context deadline exceeded")},
	} {
		t.Run(name, func(t *testing.T) {
			g, reg, pfc := coalesceSwitch(t, ports)
			names := portNames(ports)
			before := len(g.sets)
			g.mu.Lock()
			g.refuse = func(req *gpb.SetRequest) error {
				if slices.Contains(keysOf(req), bad) {
					return refusal
				}
				return nil
			}
			g.mu.Unlock()

			results := burst(t, g, reg, pfc, names)
			for _, port := range names[1:] {
				r := <-results[port]
				switch {
				case name == "unanswered" || port == "Ethernet12":
					if !errors.Is(r.err, refusal) {
						t.Errorf("%s: %v, want the switch's answer to the Set", port, r.err)
					}
				case r.err != nil:
					t.Errorf("%s: %v, want applied (only Ethernet12 was refused)", port, r.err)
				}
			}

			sets := g.sets[before:]
			wantSets := 2 + (ports - 1) // the first, the combined, then each queued write alone
			if name == "unanswered" {
				wantSets = 2
			}
			if len(sets) != wantSets {
				t.Errorf("%d SetRequests, want %d", len(sets), wantSets)
			}
			if len(sets) > 2 && len(keysOf(sets[1])) <= len(keysOf(sets[2])) {
				t.Errorf("the refused Set (%v) was not the combined one", keysOf(sets[1]))
			}
			for i, s := range sets[min(2, len(sets)):] {
				if n := len(portsIn(keysOf(s))); n != 1 {
					t.Errorf("retry %d touches %d ports (%v), want one", i, n, keysOf(s))
				}
			}
			for _, port := range names {
				_, has := g.tables["PFC_WD"][port]
				want := name == "refused" && port != "Ethernet12" || port == names[0]
				if has != want {
					t.Errorf("PFC_WD|%s on the switch: %v, want %v", port, has, want)
				}
			}
		})
	}
}

// portsIn are the ports named by CONFIG_DB keys (TABLE|PORT or TABLE|PORT|...).
func portsIn(keys []string) []string {
	var out []string
	for _, k := range keys {
		parts := strings.Split(k, "|")
		if len(parts) > 1 && strings.HasPrefix(parts[1], "Ethernet") && !slices.Contains(out, parts[1]) {
			out = append(out, parts[1])
		}
	}
	return out
}

// Two writes to one CONFIG_DB key never share a SetRequest (sonic-gnmi runs a request's deletes
// before its updates, not write by write): the second goes in the next request, in the order
// they came, with the writes that queued after it.
func TestSONiCSameKeyWritesNotCombined(t *testing.T) {
	ctx := context.Background()
	const ports = 3
	g, reg, pfc := coalesceSwitch(t, ports)
	before := len(g.sets)
	release := g.HoldNext()
	first := start(func() (Prior, error) { return pfc.Create(ctx, pfcOn("Ethernet0", 200)) })
	<-g.Entered()
	created := queued(t, reg, func() (Prior, error) { return pfc.Create(ctx, pfcOn("Ethernet4", 200)) })
	updated := queued(t, reg, func() (Prior, error) {
		return pfc.Update(ctx, pfcOn("Ethernet4", 200), pfcOn("Ethernet4", 300), nil)
	})
	other := queued(t, reg, func() (Prior, error) { return pfc.Create(ctx, pfcOn("Ethernet8", 200)) })
	release()
	for _, ch := range []<-chan writeResult{first, created, updated, other} {
		if r := <-ch; r.err != nil {
			t.Fatal(r.err)
		}
	}
	var got [][]string
	for _, s := range g.sets[before:] {
		got = append(got, portsIn(keysOf(s)))
	}
	want := [][]string{{"Ethernet0"}, {"Ethernet4"}, {"Ethernet4", "Ethernet8"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ports per SetRequest (-want +got):\n%s", diff)
	}
	if d := g.tables["PFC_WD"]["Ethernet4"]["detection_time"]; d != "300" {
		t.Errorf("PFC_WD|Ethernet4 detection_time = %q, want the update's 300", d)
	}
	wantDB := oneAtATime(t, ports, func(pfc exclusivePFC) {
		for _, w := range []func() (Prior, error){
			func() (Prior, error) { return pfc.Create(ctx, pfcOn("Ethernet0", 200)) },
			func() (Prior, error) { return pfc.Create(ctx, pfcOn("Ethernet4", 200)) },
			func() (Prior, error) { return pfc.Update(ctx, pfcOn("Ethernet4", 200), pfcOn("Ethernet4", 300), nil) },
			func() (Prior, error) { return pfc.Create(ctx, pfcOn("Ethernet8", 200)) },
		} {
			if _, err := w(); err != nil {
				t.Fatal(err)
			}
		}
	})
	if diff := cmp.Diff(wantDB, g.tables); diff != "" {
		t.Errorf("CONFIG_DB differs from the writes sent one at a time (-one at a time +combined):\n%s", diff)
	}
}

// burst writes PFC on names[0] while holding its SetRequest in flight, queues a write for each
// other name behind it, then lets the first through; it returns the queued writes' results.
func burst(t *testing.T, g *gatedConfigDB, reg *devices.Registry, pfc exclusivePFC, names []string) map[string]<-chan writeResult {
	t.Helper()
	ctx := context.Background()
	release := g.HoldNext()
	first := start(func() (Prior, error) { return pfc.Create(ctx, pfcOn(names[0], 200)) })
	<-g.Entered()
	results := map[string]<-chan writeResult{}
	for _, port := range names[1:] {
		results[port] = queued(t, reg, func() (Prior, error) { return pfc.Create(ctx, pfcOn(port, 200)) })
	}
	release()
	if r := <-first; r.err != nil {
		t.Fatal(r.err)
	}
	return results
}
