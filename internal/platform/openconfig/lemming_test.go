package openconfig

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// legacyConfig is what an operator configured before the provider: Ethernet1 classified by
// LEGACY and scheduled by LEGACY. Create takes Ethernet1 over; delete must give it back.
const legacyConfig = `{
  "classifiers": {"classifier": [{"name": "LEGACY", "config": {"name": "LEGACY", "type": "IPV4"},
    "terms": {"term": [{"id": "all", "config": {"id": "all"},
      "conditions": {"ipv4": {"config": {"dscp-set": [0, 8, 16, 24, 32, 40, 48, 56]}}},
      "actions": {"config": {"target-group": "legacy-fg"}}}]}}]},
  "forwarding-groups": {"forwarding-group": [{"name": "legacy-fg", "config": {"name": "legacy-fg", "output-queue": "legacy-q"}}]},
  "queues": {"queue": [{"name": "legacy-q", "config": {"name": "legacy-q"}}]},
  "scheduler-policies": {"scheduler-policy": [{"name": "LEGACY", "config": {"name": "LEGACY"},
    "schedulers": {"scheduler": [{"sequence": 0, "config": {"sequence": 0},
      "inputs": {"input": [{"id": "legacy", "config": {"id": "legacy", "input-type": "QUEUE", "queue": "legacy-q", "weight": "100"}}]}}]}}]},
  "interfaces": {"interface": [{"interface-id": "Ethernet1", "config": {"interface-id": "Ethernet1"},
    "input": {"classifiers": {"classifier": [{"type": "IPV4", "config": {"type": "IPV4", "name": "LEGACY"}}]}},
    "output": {"scheduler-policy": {"config": {"name": "LEGACY"}},
      "queues": {"queue": [{"name": "legacy-q", "config": {"name": "legacy-q"}}]}}}]}
}`

func TestLemmingLifecycle(t *testing.T) {
	d := newDevice(t, 8)
	err := d.set(&gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin}, Update: []*gpb.Update{{
		Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "qos"}}},
		Val:  &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(legacyConfig)}},
	}}})
	if err != nil {
		t.Fatalf("legacy config: %v", err)
	}
	before := d.tree()
	restore := map[string]Binding{}
	for _, ifname := range []string{"Ethernet1", "Ethernet2", "Ethernet3"} {
		restore[ifname] = before.Bindings(ifname)
	}
	want := Binding{Classifier: "LEGACY", SchedulerPolicy: "LEGACY", QueueProfiles: map[string]string{"legacy-q": ""}}
	if diff := cmp.Diff(want, restore["Ethernet1"]); diff != "" {
		t.Fatalf("Bindings(Ethernet1) before create (-want +got):\n%s", diff)
	}

	// Create, then read back the policy.
	created := examplePolicy()
	apply(t, d, nil, created, restore)
	readBack := d.readQoS()
	golden(t, "lemming-readback.json.golden", string(readBack)+"\n")
	tr := d.tree()
	expectPolicy(t, tr, created)
	if _, ok := tr.Policy("LEGACY"); ok {
		t.Error("Policy(LEGACY): found, but LEGACY's objects do not follow our naming")
	}

	// Update: rename ROCE -> AI, change the roce ECN and weight, add a class, move Ethernet2
	// to Ethernet3: one SetRequest.
	updated := updatedPolicy()
	apply(t, d, created, updated, restore)
	tr = d.tree()
	expectPolicy(t, tr, updated)
	if _, ok := tr.Policy("ROCE"); ok {
		t.Error("Policy(ROCE) still found after the rename")
	}
	expectNoObjects(t, tr, "ROCE")
	if got := tr.Bindings("Ethernet2"); !cmp.Equal(got, restore["Ethernet2"]) {
		t.Errorf("Ethernet2 after unbinding = %+v, want %+v", got, restore["Ethernet2"])
	}

	// A request lemming rejects (a profile with a probability above 100) changes nothing.
	bad := *updated
	bad.Classes = map[string]fabric.Class{}
	for n, c := range updated.Classes {
		bad.Classes[n] = c
	}
	roce := bad.Classes["roce"]
	roce.ECN = &fabric.ECN{MinThresholdBytes: 1, MaxThresholdBytes: 2, MarkProbabilityPercent: 100}
	bad.Classes["roce"] = roce
	req, err := BuildSet(updated, &bad, restore)
	if err != nil {
		t.Fatal(err)
	}
	patched := false
	for _, u := range req.Replace {
		if strings.HasSuffix(pathKey(u.Path), "queue-management-profile[name=AI-roce]") {
			v := u.Val.GetJsonIetfVal()
			u.Val.Value = &gpb.TypedValue_JsonIetfVal{JsonIetfVal: bytes.Replace(v, []byte(`"max-drop-probability-percent":100`), []byte(`"max-drop-probability-percent":101`), 1)}
			patched = !bytes.Equal(v, u.Val.GetJsonIetfVal())
		}
	}
	if !patched {
		t.Fatal("could not patch the AI-roce profile into a bad value")
	}
	snapshot := d.readQoS()
	if err := d.set(req); err == nil {
		t.Fatal("lemming accepted max-drop-probability-percent 101")
	}
	if after := d.readQoS(); !bytes.Equal(snapshot, after) {
		t.Errorf("a rejected Set changed the device:\n%s", cmp.Diff(string(snapshot), string(after)))
	}

	// Delete: every object goes, every interface gets its prior binding back.
	apply(t, d, updated, nil, restore)
	after := d.tree()
	expectNoObjects(t, after, "AI")
	expectNoObjects(t, after, "ROCE")
	for ifname, b := range restore {
		if got := after.Bindings(ifname); !cmp.Equal(got, b) {
			t.Errorf("Bindings(%s) after delete = %+v, want %+v (as before create)", ifname, got, b)
		}
	}
	for name, m := range map[string][2]any{
		"classifiers": {before.Classifiers, after.Classifiers}, "forwarding groups": {before.ForwardingGroups, after.ForwardingGroups},
		"queues": {before.Queues, after.Queues}, "profiles": {before.Profiles, after.Profiles},
		"scheduler policies": {before.SchedulerPolicies, after.SchedulerPolicies},
	} {
		if diff := cmp.Diff(m[0], m[1]); diff != "" {
			t.Errorf("%s after delete differ from before create (-before +after):\n%s", name, diff)
		}
	}
}

func apply(t *testing.T, d *device, prior, next *fabric.QoSPolicy, restore map[string]Binding) {
	t.Helper()
	req, err := BuildSet(prior, next, restore)
	if err != nil {
		t.Fatalf("BuildSet: %v", err)
	}
	if err := d.set(req); err != nil {
		t.Fatalf("lemming rejected the SetRequest: %v\n%s", err, renderSet(t, req))
	}
}

func expectPolicy(t *testing.T, tr *Tree, want *fabric.QoSPolicy) {
	t.Helper()
	got, ok := tr.Policy(want.Name)
	if !ok {
		t.Fatalf("Policy(%q) not found after apply", want.Name)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Policy(%q) read back differs (-want +got):\n%s", want.Name, diff)
	}
}

// expectNoObjects fails if any object or binding named <policy> or <policy>-* remains.
func expectNoObjects(t *testing.T, tr *Tree, policy string) {
	t.Helper()
	ours := func(n string) bool { return n == policy || strings.HasPrefix(n, policy+"-") }
	var left []string
	for _, names := range [][]string{sortedKeys(tr.Classifiers), sortedKeys(tr.ForwardingGroups),
		sortedKeys(tr.Queues), sortedKeys(tr.Profiles), sortedKeys(tr.SchedulerPolicies)} {
		for _, n := range names {
			if ours(n) {
				left = append(left, n)
			}
		}
	}
	for id, it := range tr.Interfaces {
		for _, n := range append(sortedKeys(it.OutputQueues), it.SchedulerPolicy, it.InputClassifiers[classifierType]) {
			if ours(n) {
				left = append(left, id+":"+n)
			}
		}
	}
	if len(left) > 0 {
		t.Errorf("objects of policy %s remain: %v", policy, left)
	}
}

// Policies whose layout differs from the example: a default TC no class has (fallback queue),
// all 64 DSCPs listed (no default term), strict classes only, a class without DSCPs.
func TestLemmingVariants(t *testing.T) {
	d := newDevice(t, 2)
	all := func(from, to int) []int {
		var out []int
		for i := from; i <= to; i++ {
			out = append(out, i)
		}
		return out
	}
	fallback := examplePolicy()
	fallback.DefaultTrafficClass = 1
	full := examplePolicy()
	full.Classes["cnp"] = fabric.Class{TrafficClass: 6, DSCP: all(48, 63), StrictPriority: true}
	full.Classes["roce"] = fabric.Class{TrafficClass: 3, DSCP: all(1, 47), BandwidthPercent: fabric.Ptr(50)}
	strict := &fabric.QoSPolicy{Name: "S", Trust: fabric.TrustDSCP, DefaultTrafficClass: 0,
		Classes: map[string]fabric.Class{
			"hi": {TrafficClass: 7, DSCP: []int{56}, StrictPriority: true},
			"lo": {TrafficClass: 0, DSCP: []int{0}, StrictPriority: true},
		}, Interfaces: []string{"Ethernet2"}}
	empty := examplePolicy()
	empty.Classes["scavenger"] = fabric.Class{TrafficClass: 1, BandwidthPercent: fabric.Ptr(0)}
	for name, p := range map[string]*fabric.QoSPolicy{"fallback": fallback, "all-64": full, "strict-only": strict, "no-dscp": empty} {
		t.Run(name, func(t *testing.T) {
			apply(t, d, nil, p, nil)
			expectPolicy(t, d.tree(), p)
			apply(t, d, p, nil, nil)
			expectNoObjects(t, d.tree(), p.Name)
		})
	}

	// Same name: drop a class and the roce ECN, keep the ports.
	p, q := examplePolicy(), examplePolicy()
	delete(q.Classes, "cnp")
	roce := q.Classes["roce"]
	roce.ECN = nil
	q.Classes["roce"] = roce
	apply(t, d, nil, p, nil)
	apply(t, d, p, q, nil)
	tr := d.tree()
	expectPolicy(t, tr, q)
	if _, ok := tr.Queues["ROCE-cnp"]; ok {
		t.Error("queue ROCE-cnp of the removed class remains")
	}
	if _, ok := tr.Profiles["ROCE-roce"]; ok {
		t.Error("profile ROCE-roce remains after its ECN was removed")
	}
}

// Policy reports what the device does, so out-of-band changes show up as differences.
func TestPolicyShowsDrift(t *testing.T) {
	fresh := func() *Tree { return readTree(t, "lemming-readback.json.golden") }

	tr := fresh()
	it := tr.Interfaces["Ethernet2"]
	it.OutputQueues["ROCE-roce"] = "" // ECN profile unbound from one port
	if got, _ := tr.Policy("ROCE"); !cmp.Equal(got.Interfaces, []string{"Ethernet1"}) {
		t.Errorf("partly bound Ethernet2: interfaces = %v, want [Ethernet1]", got.Interfaces)
	}

	tr = fresh()
	term := tr.Classifiers["ROCE"].Terms["roce"]
	term.TargetGroup = "ROCE-cnp" // DSCP 26 now lands in the cnp queue
	tr.Classifiers["ROCE"].Terms["roce"] = term
	got, _ := tr.Policy("ROCE")
	if !cmp.Equal(got.Classes["cnp"].DSCP, []int{26, 48}) || got.Classes["roce"].DSCP != nil {
		t.Errorf("retargeted term: cnp %v, roce %v", got.Classes["cnp"].DSCP, got.Classes["roce"].DSCP)
	}

	tr = fresh()
	tr.Queues["ROCE-roce"] = Queue{Name: "ROCE-roce"} // queue-id removed
	delete(tr.Classifiers["ROCE"].Terms, "ROCE-default")
	prof := tr.Profiles["ROCE-roce"]
	prof.WRED.EnableECN = false
	got, _ = tr.Policy("ROCE")
	if got.Classes["roce"].TrafficClass != Unknown || got.DefaultTrafficClass != Unknown || got.Classes["roce"].ECN != nil {
		t.Errorf("queue-id, default term and ECN gone: %+v default %d", got.Classes["roce"], got.DefaultTrafficClass)
	}
}
