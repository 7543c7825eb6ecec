package openconfig

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
)

var restoreEthernet1 = map[string]Binding{
	"Ethernet1": {Classifier: "LEGACY", SchedulerPolicy: "LEGACY", QueueProfiles: map[string]string{"legacy-q": ""}},
}

func TestBuildSetGolden(t *testing.T) {
	for _, tc := range []fabrictest.GoldenStep{
		{"create.golden", nil, examplePolicy()},
		{"update.golden", examplePolicy(), updatedPolicy()},
		{"delete.golden", updatedPolicy(), nil},
		{"noop.golden", examplePolicy(), examplePolicy()},
	} {
		t.Run(tc.Golden, func(t *testing.T) {
			req, err := BuildSet(tc.Old, tc.Next, restoreEthernet1)
			if err != nil {
				t.Fatal(err)
			}
			got := renderSet(t, req)
			golden(t, tc.Golden, got)
			again, _ := BuildSet(tc.Old, tc.Next, restoreEthernet1)
			if renderSet(t, again) != got {
				t.Error("BuildSet is not deterministic")
			}
		})
	}
}

// Structural checks that do not depend on golden files.
func TestBuildSetShape(t *testing.T) {
	req, err := BuildSet(nil, examplePolicy(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if req.GetPrefix().GetOrigin() != "openconfig" || len(req.Delete) != 0 {
		t.Errorf("create: prefix %v, %d deletes", req.GetPrefix(), len(req.Delete))
	}
	for _, u := range append(append(req.Replace, req.Update...), req.Update...) {
		if last := u.Path.Elem[len(u.Path.Elem)-1].Name; last == "config" {
			t.Errorf("%s: lemming rejects a Set of a config container", pathKey(u.Path))
		}
	}

	// Update with a rename deletes every ROCE object in the same request that creates AI's.
	req, err = BuildSet(examplePolicy(), updatedPolicy(), nil)
	if err != nil {
		t.Fatal(err)
	}
	dels := map[string]bool{}
	for _, p := range req.Delete {
		dels[pathKey(p)] = true
	}
	for _, want := range []string{
		"/qos/classifiers/classifier[name=ROCE]", "/qos/scheduler-policies/scheduler-policy[name=ROCE]",
		"/qos/queues/queue[name=ROCE-roce]", "/qos/forwarding-groups/forwarding-group[name=ROCE-cnp]",
		"/qos/queue-management-profiles/queue-management-profile[name=ROCE-roce]",
		"/qos/interfaces/interface[interface-id=Ethernet1]/output/queues/queue[name=ROCE-default]",
		"/qos/interfaces/interface[interface-id=Ethernet2]/input/classifiers/classifier[type=IPV4]",
		"/qos/interfaces/interface[interface-id=Ethernet2]/output/scheduler-policy/config/name",
	} {
		if !dels[want] {
			t.Errorf("update does not delete %s", want)
		}
	}
	for p := range dels {
		if strings.Contains(p, "AI") {
			t.Errorf("update deletes %s, an object it writes", p)
		}
	}
}

func TestBuildSetFallbackQueue(t *testing.T) {
	p := examplePolicy()
	p.DefaultTrafficClass = 1 // no class has TC 1
	req, err := BuildSet(nil, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "create-fallback.golden", renderSet(t, req))
	out := renderSet(t, req)
	for _, want := range []string{"replace /qos/queues/queue[name=ROCE-tc1]", `"target-group": "ROCE-tc1"`} {
		if !strings.Contains(out, want) {
			t.Errorf("fallback create lacks %s", want)
		}
	}
	if strings.Contains(out, "output/queues/queue[name=ROCE-tc1]") {
		t.Error("the fallback queue is bound on ports; only class queues are")
	}
}

func TestBuildSetRejects(t *testing.T) {
	build := func(old, next *fabric.QoSPolicy) error { _, err := BuildSet(old, next, nil); return err }
	mod, class := fabrictest.PolicyEdits(examplePolicy)
	fabrictest.CheckRejects(t, build, map[string]fabrictest.RejectCase{
		"lossless":     {mod(func(p *fabric.QoSPolicy) { class(p, "roce", func(c *fabric.Class) { c.Lossless = true }) }), `classes["roce"].lossless: OpenConfig has no PFC`},
		"trust pcp":    {mod(func(p *fabric.QoSPolicy) { p.Trust = fabric.TrustPCP }), "trust: "},
		"dscp overlap": {mod(func(p *fabric.QoSPolicy) { class(p, "cnp", func(c *fabric.Class) { c.DSCP = []int{26, 48} }) }), "DSCP 26 is listed by classes"},
		"tc 8":         {mod(func(p *fabric.QoSPolicy) { class(p, "cnp", func(c *fabric.Class) { c.TrafficClass = 8 }) }), "outside 0-7"},
		"prob 101": {mod(func(p *fabric.QoSPolicy) {
			class(p, "roce", func(c *fabric.Class) { c.ECN = &fabric.ECN{MarkProbabilityPercent: 101} })
		}), "outside 0-100"},
		"negative threshold": {mod(func(p *fabric.QoSPolicy) {
			class(p, "roce", func(c *fabric.Class) { c.ECN = &fabric.ECN{MinThresholdBytes: -1, MarkProbabilityPercent: 1} })
		}), "must not be negative"},
		"both strict and bw": {mod(func(p *fabric.QoSPolicy) {
			class(p, "cnp", func(c *fabric.Class) { c.BandwidthPercent = fabric.Ptr(5) })
		}), "exactly one"},
		"reserved term id": {mod(func(p *fabric.QoSPolicy) {
			p.Classes["ROCE-default"] = fabric.Class{TrafficClass: 1, BandwidthPercent: fabric.Ptr(0)}
		}), "reserved"},
		"empty name": {mod(func(p *fabric.QoSPolicy) { p.Name = "" }), "policy name is empty"},
	})
}

func TestCheckSupported(t *testing.T) {
	if got := CheckSupported(*examplePolicy()); len(got) != 0 {
		t.Errorf("example policy: %+v", got)
	}
	p := examplePolicy()
	p.Trust = fabric.TrustDSCPPCP
	roce := p.Classes["roce"]
	roce.Lossless, roce.PCP, roce.MTU = true, []int{3}, fabric.Ptr(9216)
	p.Classes["roce"] = roce
	p.Classes["tc5"] = fabric.Class{TrafficClass: 2, BandwidthPercent: fabric.Ptr(0)}
	p.DefaultTrafficClass = 5 // no class has TC 5: queue ROCE-tc5 is created, so class tc5 collides
	got := CheckSupported(*p)
	var attrs []string
	for _, u := range got {
		attrs = append(attrs, fabric.AttrString(u.Attr))
		if u.Reason == "" {
			t.Errorf("%v: empty reason", u.Attr)
		}
	}
	want := []string{"trust", `classes["roce"].lossless`, `classes["roce"].mtu`, `classes["roce"].pcp`, `classes["tc5"]`}
	if diff := cmp.Diff(want, attrs); diff != "" {
		t.Errorf("attributes (-want +got):\n%s", diff)
	}
	if got[1].Attr[2] != "lossless" || !strings.Contains(got[1].Reason, "sonic, eos and nxos") {
		t.Errorf("lossless: %+v", got[1])
	}
}

func TestReadPaths(t *testing.T) {
	got := ReadPaths()
	if len(got) != 1 || got[0].Origin != "openconfig" || pathKey(got[0]) != "/qos" {
		t.Errorf("ReadPaths() = %v", got)
	}
}
