package openconfig

import (
	"encoding/json"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/ygot/ygot"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// Fuzz tests of the gNMI JSON parsers: ParseQoS (the /qos tree) and ParseCounters (the
// updates of a counters read). Seeds are the samples under testdata plus the corpus under
// testdata/fuzz/<FuzzName>/. Neither may panic or accept bytes that are not JSON values (no
// silent acceptance of garbage); on a tree ParseQoS accepts, Policy, Bindings and the
// SetRequests built from them must not panic, and the counters read are never negative.
// `make fuzz` runs each target for FUZZTIME.

func FuzzParseQoS(f *testing.F) {
	for _, b := range platformtest.Files(f, "testdata/openconfig-qos-canonical-1.json", "testdata/lemming-readback.json.golden") {
		f.Add([]byte(b))
	}
	f.Add([]byte(`{"openconfig-qos:qos": {"openconfig-qos:queues": {"queue": [{"name": "ROCE-roce", "config": {"queue-id": "3"}}]}}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tree, ok := platformtest.ParseJSON(t, "a tree", ParseQoS, b)
		if !ok {
			return
		}
		restore := map[string]Binding{}
		for name := range tree.Interfaces {
			restore[name] = tree.Bindings(name)
		}
		ex := examplePolicy()
		for name := range tree.Classifiers {
			p, ok := tree.Policy(name)
			if !ok {
				continue
			}
			if _, hasSP := tree.SchedulerPolicies[name]; !hasSP || p.Name != name || len(p.Classes) == 0 {
				t.Fatalf("Policy(%q) = %+v without its scheduler policy or an input", name, p)
			}
			for cn, c := range p.Classes {
				if c.TrafficClass < Unknown || c.TrafficClass > 255 {
					t.Errorf("policy %q class %q: traffic class %d", name, cn, c.TrafficClass)
				}
				for _, d := range c.DSCP {
					if d < 0 || d > 255 {
						t.Errorf("policy %q class %q: DSCP %d", name, cn, d)
					}
				}
			}
			for _, port := range p.Interfaces {
				if _, ok := tree.Interfaces[port]; !ok {
					t.Errorf("policy %q bound to unknown interface %q", name, port)
				}
			}
			if len(p.Validate()) == 0 && len(CheckSupported(*p)) == 0 {
				for _, step := range []struct{ prior, next *fabric.QoSPolicy }{{nil, p}, {p, p}, {p, nil}, {p, ex}} {
					if _, err := BuildSet(step.prior, step.next, restore); err != nil {
						t.Fatalf("BuildSet of policy %q read back: %v", name, err)
					}
				}
			}
		}
		for name := range tree.Interfaces {
			if len(fabric.PFCInterface{Interface: name, Mode: fabric.PFCModeOff}.Validate()) == 0 {
				ex.Interfaces = append(ex.Interfaces, name)
			}
		}
		for _, step := range []struct{ prior, next *fabric.QoSPolicy }{{nil, ex}, {ex, nil}} {
			if _, err := BuildSet(step.prior, step.next, restore); err != nil {
				t.Fatalf("BuildSet of the example: %v", err)
			}
		}
	})
}

// FuzzParseCounters takes the updates as the fixtures hold them: one "PATH<TAB>JSON" a line.
func FuzzParseCounters(f *testing.F) {
	for _, b := range platformtest.Files(f, "testdata/counters-lab.txt", "testdata/counters-leaves.txt",
		"testdata/counters-subscribe-lab.txt", "testdata/counters-subscribe-numbered.txt") {
		for _, ifname := range []string{"Ethernet2", "Ethernet1/1", "swp1", ""} { // "": every port
			f.Add(ifname, []byte(b))
		}
	}
	f.Add("Ethernet2", []byte("/interfaces/interface[name=Ethernet2]/state/counters\t{\"in-discards\":\"7\"}\n"))
	f.Fuzz(func(t *testing.T, ifname string, fixture []byte) {
		var ups []Update
		for _, l := range strings.Split(string(fixture), "\n") {
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			p, v, _ := strings.Cut(l, "\t")
			path, err := ygot.StringToStructuredPath(p)
			if err != nil {
				path = &gpb.Path{}
			}
			ups = append(ups, Update{Path: path, JSON: []byte(v)})
		}
		got, err := ParseCounters(platformtest.Ports(ifname), ups)
		if platformtest.Refused(t, "counters", got, err) {
			return
		}
		platformtest.CheckPorts(t, ifname, got)
		for _, u := range ups {
			if !json.Valid(u.JSON) {
				t.Fatalf("accepted an update that is not one JSON value: %q", u.JSON)
			}
		}
		for _, c := range got {
			if c.PFCRxPause != nil || c.PFCTxPause != nil || c.CNPSent != nil || c.CNPHandled != nil || c.OutOfSequence != nil {
				t.Errorf("counters OpenConfig does not have: %+v", c)
			}
			for name, v := range map[string]*int64{"ecn_marked": c.ECNMarked, "dropped": c.Dropped} {
				if v != nil && *v < 0 {
					t.Errorf("%s = %d: a counter is never negative", name, *v)
				}
			}
			for _, m := range []map[int]int64{c.QueueECNMarked, c.QueueDropped, c.QueueWatermarkBytes} {
				for q, v := range m {
					if q < 0 || q > 255 || v < 0 {
						t.Errorf("queue %d = %d", q, v)
					}
				}
			}
		}
	})
}
