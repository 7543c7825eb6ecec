package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/protobuf/proto"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

func TestInventoryFile(t *testing.T) {
	l := sharedLab(t)
	file := filepath.Join(shared.dir, InventoryFile)
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("inventory.json mode %o, want 600 (it holds passwords)", perm)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}

	// The exact member sets of the contract, and the lab's cables (issue 19: the lab is cabled).
	var top map[string]json.RawMessage
	labtest.MustUnmarshal(t, string(raw), &top)
	if got := slices.Sorted(maps.Keys(top)); !slices.Equal(got, []string{"devices", "interfaces", "links"}) {
		t.Fatalf("top-level members %v", got)
	}
	var links []map[string]string
	labtest.MustUnmarshal(t, string(top["links"]), &links)
	wantLinks := []map[string]string{{"a_device": "openconfig-1", "a_interface": "Ethernet8", "b_device": "openconfig-2", "b_interface": "Ethernet8"}}
	if !reflect.DeepEqual(links, wantLinks) {
		t.Errorf("links %v, want the two switches' uplink %v", links, wantLinks)
	}
	delete(top, "links")
	var doc map[string]map[string]json.RawMessage
	rest, err := json.Marshal(top)
	if err != nil {
		t.Fatal(err)
	}
	labtest.MustUnmarshal(t, string(rest), &doc)
	names := []string{"openconfig-1", "openconfig-2"}
	if got := slices.Sorted(maps.Keys(doc["devices"])); !slices.Equal(got, names) {
		t.Fatalf("devices %v, want %v", got, names)
	}
	addrRE := regexp.MustCompile(`^127\.0\.0\.1:[0-9]+$`)
	seen := map[string]bool{}
	var password string
	for _, name := range names {
		var dev map[string]any
		labtest.MustUnmarshal(t, string(doc["devices"][name]), &dev)
		if got := slices.Sorted(maps.Keys(dev)); !slices.Equal(got, []string{"address", "ca_certificate", "password", "platform", "username"}) {
			t.Errorf("%s members %v", name, got)
		}
		addr, _ := dev["address"].(string)
		if !addrRE.MatchString(addr) || seen[addr] {
			t.Errorf("%s address %q: want a distinct 127.0.0.1:port", name, addr)
		}
		seen[addr] = true
		if dev["platform"] != "openconfig" || dev["username"] != "admin" {
			t.Errorf("%s platform/username %v/%v", name, dev["platform"], dev["username"])
		}
		password, _ = dev["password"].(string)
		if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(password) {
			t.Errorf("%s password %q: want 16 random hex digits", name, password)
		}
		if dev["ca_certificate"] != string(l.CAPEM()) || !strings.HasPrefix(string(l.CAPEM()), "-----BEGIN CERTIFICATE-----") {
			t.Errorf("%s ca_certificate is not the lab CA PEM", name)
		}
		var ifaces []string
		labtest.MustUnmarshal(t, string(doc["interfaces"][name]), &ifaces)
		if want := device.EthernetNames(DefaultPorts); !slices.Equal(ifaces, want) || want[7] != "Ethernet8" {
			t.Errorf("%s interfaces %v", name, ifaces)
		}
	}
	if ca, err := os.ReadFile(filepath.Join(shared.dir, CAFile)); err != nil || string(ca) != string(l.CAPEM()) {
		t.Errorf("ca.pem: %v, equal to CAPEM: %v", err, string(ca) == string(l.CAPEM()))
	}
	fromAPI, _ := json.Marshal(l.Inventory())
	var a, b any
	labtest.MustUnmarshal(t, string(fromAPI), &a)
	labtest.MustUnmarshal(t, string(raw), &b)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("inventory.json differs from Lab.Inventory()")
	}
}

func TestSwitchLookup(t *testing.T) {
	l := sharedLab(t)
	sw := l.Switch("openconfig-2")
	if sw == nil || sw.Name() != "openconfig-2" || sw.Address() != l.Inventory().Devices["openconfig-2"].Address {
		t.Fatalf("Switch(openconfig-2) = %+v", sw)
	}
	if l.Switch("openconfig-3") != nil || l.Switch("mlx5-1") != nil {
		t.Error("Switch of an absent device is not nil")
	}
	if got := l.Devices(); !slices.Equal(got, []string{"openconfig-1", "openconfig-2"}) {
		t.Errorf("Devices() = %v", got)
	}
}

func TestStartRefusesWhatItCannotRun(t *testing.T) {
	cases := []struct {
		opts Options
		want string
	}{
		{Options{Switches: map[string]int{"openconfig": 1, "junos": 1}}, `unknown platform "junos"`},
		{Options{Hosts: map[string]int{"mlx5": 2}, NICPorts: -1}, "ports must be positive"},
		{Options{Switches: map[string]int{"mlx5": 1}}, "platform mlx5 is a host platform"},
		{Options{Hosts: map[string]int{"openconfig": 1}}, "platform openconfig is a switch platform"},
		{Options{Switches: map[string]int{"junos": 1}}, `unknown platform "junos"`},
		{Options{Switches: map[string]int{"openconfig": -1}}, "count must not be negative"},
		{Options{Switches: map[string]int{"openconfig": 1}, Ports: -2}, "ports must be positive"},
		{Options{}, "no devices requested"},
		{Options{Switches: map[string]int{"openconfig": 0}}, "no devices requested"},
		{Options{Switches: map[string]int{"sonic": 1}, Models: map[string]string{"sonic": "Force10-S6000"}},
			`platform sonic has no model "Force10-S6000" (models: ACS-MSN2700, Arista-7060CX-32S-C32)`},
		{Options{Switches: map[string]int{"eos": 1}, Models: map[string]string{"eos": "DCS-7050SX3"}},
			`platform eos has no model "DCS-7050SX3" (models: DCS-7280SR3-48YC8, DCS-7060CX-32S, vEOS-lab)`},
		{Options{Switches: map[string]int{"openconfig": 1}, Models: map[string]string{"openconfig": "x"}},
			"platform openconfig simulates one kind of device"},
		{Options{Switches: map[string]int{"eos": 1}, Models: map[string]string{"sonic": "ACS-MSN2700"}},
			"a model is given for platform sonic, but no sonic device is requested"},
	}
	for _, tc := range cases {
		l, err := Start(context.Background(), tc.opts)
		if err == nil {
			l.Stop()
			t.Errorf("Start(%+v) succeeded, want %q", tc.opts, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Start(%+v) = %v, want %q", tc.opts, err, tc.want)
		}
	}
}

func TestCounters(t *testing.T) {
	l := sharedLab(t)
	sw, other := l.Switch("openconfig-1"), l.Switch("openconfig-2")
	sw.ResetCounters()
	other.ResetCounters()
	if got := sw.Counters(); got != (Counters{}) {
		t.Fatalf("after reset: %+v", got)
	}
	c := labtest.Dial(t, entry(t, l, "openconfig-1"))
	ctx := labtest.Ctx(t)
	if _, err := c.Capabilities(ctx, &gpb.CapabilityRequest{}); err != nil {
		t.Fatal(err)
	}
	labtest.MustGet(t, c, "/interfaces/interface[name=Ethernet1]")
	labtest.MustGet(t, c, "/interfaces/interface[name=Ethernet2]")
	seed(t, c)
	labtest.SubscribeOnce(t, c, "/interfaces/interface[name=Ethernet1]/config")
	want := Counters{Get: 2, Set: 1, Subscribe: 1, Capabilities: 1, Connections: 1}
	if got := sw.Counters(); got != want {
		t.Errorf("counters %+v, want %+v", got, want)
	}
	if got := other.Counters(); got != (Counters{}) {
		t.Errorf("openconfig-2 counted openconfig-1's traffic: %+v", got)
	}
}

func TestLatency(t *testing.T) {
	const latency = 300 * time.Millisecond
	l := startLab(t, Options{Switches: map[string]int{"openconfig": 1}, Ports: 2, Latency: latency})
	if got := l.Inventory().Interfaces["openconfig-1"]; !slices.Equal(got, []string{"Ethernet1", "Ethernet2"}) {
		t.Errorf("Ports: 2 gave interfaces %v", got)
	}
	timeCapabilities := func(c gpb.GNMIClient) time.Duration {
		t.Helper()
		if _, err := c.Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{}); err != nil { // connect
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := c.Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{}); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	if d := timeCapabilities(labtest.Dial(t, entry(t, l, "openconfig-1"))); d < latency {
		t.Errorf("Capabilities took %s with Latency %s", d, latency)
	}
	if d := timeCapabilities(labtest.Dial(t, entry(t, sharedLab(t), "openconfig-1"))); d >= latency {
		t.Errorf("Capabilities took %s without latency", d)
	}
}

// Concurrent readers and writers on two switches: run with -race.
func TestConcurrentClients(t *testing.T) {
	l := sharedLab(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 8 {
		name := []string{"openconfig-1", "openconfig-2"}[i%2]
		c := labtest.Dial(t, entry(t, l, name))
		q := fmt.Sprintf("/qos/queues/queue[name=q-conc-%d]", i)
		body := fmt.Sprintf(`{"name":"q-conc-%d","config":{"name":"q-conc-%d"}}`, i, i)
		req, qpath := labtest.SetReq(labtest.Update(t, q, body)), labtest.Path(t, q)
		// Leave openconfig-2 as TestSetThenGetAndSubscribe expects it.
		t.Cleanup(func() {
			_, err := c.Set(context.Background(), &gpb.SetRequest{Prefix: &gpb.Path{Origin: "openconfig"}, Delete: []*gpb.Path{qpath}})
			if err != nil {
				t.Error(err)
			}
		})
		wg.Go(func() {
			ctx := context.Background()
			for range 5 {
				if _, err := c.Set(ctx, req); err != nil {
					errs <- err
				}
				if _, err := labtest.Get(ctx, c, proto.Clone(qpath).(*gpb.Path)); err != nil {
					errs <- fmt.Errorf("%s: %w", q, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// The inventory names each SONiC switch's model, the default one included.
func TestInventoryModel(t *testing.T) {
	l := startLab(t, Options{Switches: map[string]int{"sonic": 1, "openconfig": 1}})
	inv := l.Inventory()
	if got := inv.Devices["sonic-1"].Model; got != "ACS-MSN2700" {
		t.Errorf("sonic-1 model %q, want the default ACS-MSN2700", got)
	}
	if got := inv.Devices["openconfig-1"].Model; got != "" {
		t.Errorf("openconfig-1 model %q, want none", got)
	}
}
