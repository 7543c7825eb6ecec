package driver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/sonic"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/gnmi"
)

// sonicBase is a SONiC switch before the provider: Ethernet0 uses the AZURE maps and a
// scheduler on queue 3; Ethernet4 and Ethernet8 have nothing.
func sonicBase() *fakeConfigDB {
	return &fakeConfigDB{tables: map[string]map[string]map[string]string{
		"DEVICE_METADATA": {"localhost": {"hostname": "sonic-1"}},
		"PORT":            {"Ethernet0": {"speed": "100000"}, "Ethernet4": {"speed": "100000"}, "Ethernet8": {"speed": "100000"}},
		"DSCP_TO_TC_MAP":  {"AZURE": {"0": "0", "46": "5"}},
		"SCHEDULER":       {"scheduler.0": {"type": "DWRR", "weight": "14"}},
		"PORT_QOS_MAP":    {"Ethernet0": {"dscp_to_tc_map": "AZURE"}},
		"QUEUE":           {"Ethernet0|3": {"scheduler": "scheduler.0"}},
	}}
}

func sonicTest(db *fakeConfigDB, dev devices.Device) (*sonicQoS, sonicPFC) {
	s := sonicDB{db, newReads(testRegistry("sonic", dev), "sw")}
	return &sonicQoS{s}, sonicPFC{s}
}

func decodeSONiC(t *testing.T, raw Prior) sonicPrior {
	t.Helper()
	p, err := decodeSONiCPrior(raw)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A policy's whole life on SONiC, against a CONFIG_DB that applies what it is sent: the
// policy reads back as written, each port's own maps and queues are recorded and come back
// when the policy lets the port go or is destroyed.
func TestSONiCPolicyLifecycle(t *testing.T) {
	ctx := context.Background()
	db := sonicBase()
	qos, _ := sonicTest(db, devices.Device{})
	v1 := rocePolicy("Ethernet0", "Ethernet4")
	raw, err := qos.Create(ctx, v1)
	if err != nil {
		t.Fatal(err)
	}
	if len(db.sets) != 1 {
		t.Fatalf("create sent %d SetRequests, want one", len(db.sets))
	}
	prior := decodeSONiC(t, raw)
	if got := prior.Ports["Ethernet0"]; got.QoSMap["dscp_to_tc_map"] != "AZURE" || got.Queues["3"]["scheduler"] != "scheduler.0" {
		t.Errorf("Ethernet0's record %+v lacks its AZURE map or queue 3 scheduler", got)
	}
	got, err := qos.Read(ctx, "ROCE", nil)
	if err != nil || got == nil {
		t.Fatalf("read after create: %v %v", got, err)
	}
	if diff := cmp.Diff([]string{"Ethernet0", "Ethernet4"}, got.Interfaces); diff != "" {
		t.Errorf("bound ports (-want +got):\n%s", diff)
	}
	if again, err := qos.Read(ctx, "ROCE", &v1); err != nil || again == nil || !again.Equal(v1) {
		t.Errorf("the recorded policy reads back in its own form: %+v %v", again, err)
	}
	if _, err := qos.Create(ctx, v1); !errors.Is(err, ErrExists) {
		t.Errorf("a second create: %v, want ErrExists", err)
	}

	v2 := rocePolicy("Ethernet4", "Ethernet8")
	if raw, err = qos.Update(ctx, v1, v2, raw); err != nil {
		t.Fatal(err)
	}
	if m := db.tables["PORT_QOS_MAP"]["Ethernet0"]["dscp_to_tc_map"]; m != "AZURE" {
		t.Errorf("the port the update let go has map %q, want its AZURE back", m)
	}
	prior = decodeSONiC(t, raw)
	if _, ok := prior.Ports["Ethernet0"]; ok || len(prior.Ports) != 2 {
		t.Errorf("update's record %v: want Ethernet4 and Ethernet8 only", prior.Ports)
	}

	if err := qos.Delete(ctx, v2, raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := db.tables["DSCP_TO_TC_MAP"]["ROCE"]; ok {
		t.Error("delete left the policy's DSCP map")
	}
	for _, port := range []string{"Ethernet4", "Ethernet8"} {
		if m := db.tables["PORT_QOS_MAP"][port]["dscp_to_tc_map"]; m != "" {
			t.Errorf("delete left %s with map %q", port, m)
		}
	}
	if gone, err := qos.Read(ctx, "ROCE", nil); err != nil || gone != nil {
		t.Errorf("read after delete: %v %v", gone, err)
	}
}

// A refused Set records nothing and the next refresh reads the switch again.
func TestSONiCRefusedSet(t *testing.T) {
	ctx := context.Background()
	db := sonicBase()
	qos, _ := sonicTest(db, devices.Device{})
	if _, err := qos.Read(ctx, "ROCE", nil); err != nil {
		t.Fatal(err)
	}
	db.setErr = errors.New("set refused: invalid value")
	if raw, err := qos.Create(ctx, rocePolicy("Ethernet0")); !errors.Is(err, db.setErr) || raw != nil {
		t.Fatalf("refused create: %s %v", raw, err)
	}
	gets := db.gets
	if _, err := qos.Read(ctx, "ROCE", nil); err != nil {
		t.Fatal(err)
	}
	if db.gets != gets+1 {
		t.Error("the refresh after a write did not read the switch again")
	}
}

// An update that changes nothing sends nothing.
func TestSONiCNoOpUpdateSendsNothing(t *testing.T) {
	ctx := context.Background()
	db := sonicBase()
	qos, _ := sonicTest(db, devices.Device{})
	p := rocePolicy("Ethernet0")
	raw, err := qos.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := qos.Update(ctx, p, p, raw); err != nil {
		t.Fatal(err)
	}
	if len(db.sets) != 1 {
		t.Errorf("a no-op update sent %d more SetRequests", len(db.sets)-1)
	}
}

// PFC on a SONiC port: create records the port's fields and writes the mode; delete puts them
// back.
func TestSONiCPFCLifecycle(t *testing.T) {
	ctx := context.Background()
	db := sonicBase()
	qos, pfc := sonicTest(db, devices.Device{})
	if _, err := qos.Create(ctx, rocePolicy("Ethernet0")); err != nil {
		t.Fatal(err)
	}
	on := fabric.PFCInterface{Interface: "Ethernet0", Mode: fabric.PFCModeOn, Watchdog: &fabric.PFCWatchdog{Action: "drop", DetectionTimeMs: 200, RestorationTimeMs: 400}}
	raw, err := pfc.Create(ctx, on)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pfc.Read(ctx, "Ethernet0", nil)
	if err != nil || got == nil || got.Watchdog == nil || got.Watchdog.Action != "drop" {
		t.Fatalf("read after create: %+v %v", got, err)
	}
	if _, err := decodeAs[sonic.PFCPrior](raw); err != nil || len(raw) == 0 {
		t.Fatalf("create recorded %s (%v)", raw, err)
	}
	if err := pfc.Delete(ctx, on, raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := db.tables["PFC_WD"]["Ethernet0"]; ok {
		t.Errorf("delete left the port's watchdog: %v", db.tables["PFC_WD"])
	}
	if gone, err := pfc.Read(ctx, "Ethernet9", nil); err != nil || gone != nil {
		t.Errorf("a port the switch lacks: %+v %v", gone, err)
	}
	if err := pfc.CheckIntent(ctx, on); err != nil {
		t.Errorf("no headroom: nothing to check, got %v", err)
	}
}

// sonicSwitchOf is a SONiC switch of the given buffer model with ports Ethernet0, Ethernet4, ...
func sonicSwitchOf(model string, ports int) *fakeConfigDB {
	db := sonicBase()
	db.tables["DEVICE_METADATA"]["localhost"]["buffer_model"] = model
	for i := range ports {
		db.tables["PORT"][fmt.Sprintf("Ethernet%d", 4*i)] = map[string]string{"speed": "100000"}
	}
	return db
}

// applyPolicyAndPFC writes what an apply from empty writes on one switch: the policy on every
// port, then one PFC interface per port, the PFC writes all at once (Terraform runs resources
// in parallel), through the drivers the provider uses (each write in the device's turn, the
// PFC writes coalesced where they arrive while a Set is in flight).
func applyPolicyAndPFC(t *testing.T, db *fakeConfigDB, dev devices.Device, ports int) {
	t.Helper()
	ctx := context.Background()
	reg := testRegistry("sonic", dev)
	s := sonicDB{db, newReads(reg, "sw")}
	turn := exclusive{reg, "sw", awaitGrace, true}
	qos, pfc := exclusiveQoS{&sonicQoS{s}, turn}, exclusivePFC{sonicPFC{s}, turn}
	names := make([]string, ports)
	for i := range names {
		names[i] = fmt.Sprintf("Ethernet%d", 4*i)
	}
	if _, err := qos.Create(ctx, rocePolicy(names...)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, ports)
	for _, port := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := pfc.Create(ctx, fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOn,
				Watchdog: &fabric.PFCWatchdog{Action: "drop", DetectionTimeMs: 200, RestorationTimeMs: 400}})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(db.sets) < 2 || len(db.sets) > 1+ports {
		t.Fatalf("%d SetRequests for %d resources, want 2 to %d", len(db.sets), 1+ports, 1+ports)
	}
}

// An apply's writes to one switch share one read of CONFIG_DB: each write is built on what the
// process knows, which every accepted Set brings up to date, and the switch ends up exactly as
// with a fresh read before every write (per_resource_reads, and this driver before).
func TestSONiCWritesShareOneRead(t *testing.T) {
	const ports = 8
	db := sonicSwitchOf("dynamic", ports)
	applyPolicyAndPFC(t, db, devices.Device{}, ports)
	if db.gets != 1 {
		t.Errorf("%d writes read CONFIG_DB %d times, want once", 1+ports, db.gets)
	}

	fresh := sonicSwitchOf("dynamic", ports)
	applyPolicyAndPFC(t, fresh, devices.Device{PerResourceReads: true}, ports)
	if len(fresh.sets) != 1+ports {
		t.Errorf("per_resource_reads: %d SetRequests for %d writes, want one each", len(fresh.sets), 1+ports)
	}
	if fresh.gets != 1+ports {
		t.Errorf("per_resource_reads: %d writes read CONFIG_DB %d times, want once each", 1+ports, fresh.gets)
	}
	if diff := cmp.Diff(fresh.tables, db.tables); diff != "" {
		t.Errorf("CONFIG_DB differs from writes built on fresh reads (-fresh +shared):\n%s", diff)
	}
}

// What the process keeps after its writes is what the switch holds: a refresh served from it
// reads the same as a fresh Get.
func TestSONiCKeptConfigDBIsTheSwitchs(t *testing.T) {
	ctx := context.Background()
	db := sonicSwitchOf("dynamic", 2)
	reg := testRegistry("sonic", devices.Device{})
	s := sonicDB{db, newReads(reg, "sw")}
	qos, pfc := &sonicQoS{s}, sonicPFC{s}
	v1 := rocePolicy("Ethernet0", "Ethernet4")
	raw, err := qos.Create(ctx, v1)
	if err != nil {
		t.Fatal(err)
	}
	on := fabric.PFCInterface{Interface: "Ethernet0", Mode: fabric.PFCModeOn, Watchdog: &fabric.PFCWatchdog{Action: "alert", DetectionTimeMs: 200, RestorationTimeMs: 400}}
	if _, err := pfc.Create(ctx, on); err != nil {
		t.Fatal(err)
	}
	if _, err := qos.Update(ctx, v1, rocePolicy("Ethernet4"), raw); err != nil {
		t.Fatal(err)
	}
	kept, err := s.snap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	gets := db.gets
	read, err := s.read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if gets != 1 {
		t.Errorf("three writes read CONFIG_DB %d times, want once", gets)
	}
	if diff := cmp.Diff(read, kept, cmp.AllowUnexported(sonic.DB{})); diff != "" {
		t.Errorf("CONFIG_DB kept by the process differs from the switch's (-switch +kept):\n%s", diff)
	}
}

// A Set the switch refused, or whose outcome is unknown (no answer in time), may have changed
// anything or nothing: the next write reads CONFIG_DB again.
func TestSONiCFailedSetRereads(t *testing.T) {
	for name, setErr := range map[string]error{
		"refused": &gnmi.Error{Device: "sw", Op: "set", Err: status.Error(codes.Unknown, "Error: Failed to apply patch on the following scopes:")},
		"timeout": &gnmi.Error{Device: "sw", Op: "set", Err: context.DeadlineExceeded},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db := sonicSwitchOf("dynamic", 2)
			qos, pfc := sonicTest(db, devices.Device{})
			if _, err := qos.Create(ctx, rocePolicy("Ethernet0", "Ethernet4")); err != nil {
				t.Fatal(err)
			}
			on := func(port string) fabric.PFCInterface {
				return fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOn, Watchdog: &fabric.PFCWatchdog{Action: "drop", DetectionTimeMs: 200, RestorationTimeMs: 400}}
			}
			db.setErr = setErr
			if _, err := pfc.Create(ctx, on("Ethernet0")); !errors.Is(err, setErr) {
				t.Fatalf("failed Set: %v", err)
			}
			db.setErr = nil
			gets := db.gets
			if _, err := pfc.Create(ctx, on("Ethernet4")); err != nil {
				t.Fatal(err)
			}
			if db.gets != gets+1 {
				t.Errorf("the write after a failed Set read CONFIG_DB %d times, want once", db.gets-gets)
			}
			gets = db.gets
			if _, err := pfc.Create(ctx, on("Ethernet0")); err != nil {
				t.Fatal(err)
			}
			if db.gets != gets {
				t.Errorf("the write after an accepted Set read CONFIG_DB again (%d Gets)", db.gets-gets)
			}
		})
	}
}

// On the traditional buffer model buffermgrd rewrites BUFFER_PG and BUFFER_PROFILE after a
// change of pfc_enable or a cable length, which only a read shows: each such write is followed
// by a fresh read.
func TestSONiCTraditionalModelRereadsAfterBufferTriggers(t *testing.T) {
	const ports = 3
	db := sonicSwitchOf("traditional", ports)
	applyPolicyAndPFC(t, db, devices.Device{}, ports)
	if db.gets != 1+ports {
		t.Errorf("%d writes that change PORT_QOS_MAP read CONFIG_DB %d times, want once each", 1+ports, db.gets)
	}
	// Each such write is sent alone: the next is built on what buffermgrd left.
	if len(db.sets) != 1+ports {
		t.Errorf("%d writes that change PORT_QOS_MAP went in %d SetRequests, want one each", 1+ports, len(db.sets))
	}
}
