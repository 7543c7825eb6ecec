package openconfig

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

func readTree(t *testing.T, name string) *Tree {
	t.Helper()
	tr, err := ParseQoS([]byte(goldenfile.Read(t, "testdata/"+name)))
	if err != nil {
		t.Fatalf("ParseQoS(%s): %v", name, err)
	}
	return tr
}

// testdata/openconfig-qos-canonical-1.json is the "Canonical OC" block of openconfig/featureprofiles DP-1.17 (DSCP
// transparency with ECN) and DP-1.3 READMEs, written by OpenConfig operators, trimmed lists.
// Its objects do not follow this package's naming.
func TestParseCanonicalSample(t *testing.T) {
	tr := readTree(t, "openconfig-qos-canonical-1.json")

	cl, ok := tr.Classifiers["dscp_based_classifier_ipv4"]
	if !ok || cl.Type != "IPV4" {
		t.Fatalf("classifier dscp_based_classifier_ipv4 = %+v, %v", cl, ok)
	}
	wantTerms := map[string]Term{
		"4": {ID: "4", DSCP: []int{24, 25, 26, 27, 28, 29, 30, 31}, TargetGroup: "target-group-AF3"},
		"6": {ID: "6", DSCP: []int{48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63}, TargetGroup: "target-group-NC1"},
	}
	if diff := cmp.Diff(wantTerms, cl.Terms); diff != "" {
		t.Errorf("terms (-want +got):\n%s", diff)
	}
	wantFGs := map[string]ForwardingGroup{
		"target-group-AF3": {Name: "target-group-AF3", OutputQueue: "AF3"},
		"target-group-NC1": {Name: "target-group-NC1", OutputQueue: "NC1"},
	}
	if diff := cmp.Diff(wantFGs, tr.ForwardingGroups); diff != "" {
		t.Errorf("forwarding groups (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]Queue{"AF3": {Name: "AF3"}, "NC1": {Name: "NC1"}}, tr.Queues); diff != "" {
		t.Errorf("queues (-want +got):\n%s", diff)
	}
	wantSP := SchedulerPolicy{Name: "schedulerPolicy", Schedulers: []Scheduler{
		{Sequence: 0, Priority: "STRICT", Inputs: []SchedulerInput{{ID: "NC1", InputType: "QUEUE", Queue: "NC1"}}},
		{Sequence: 1, Inputs: []SchedulerInput{{ID: "AF3", InputType: "QUEUE", Queue: "AF3", Weight: fabric.Ptr(uint64(10))}}},
	}}
	if diff := cmp.Diff(wantSP, tr.SchedulerPolicies["schedulerPolicy"]); diff != "" {
		t.Errorf("scheduler policy (-want +got):\n%s", diff)
	}
	wantProfile := Profile{Name: "queueManagementProfile", WRED: &WRED{
		MinThreshold: fabric.Ptr(uint64(80000)), MaxThreshold: fabric.Ptr(uint64(3000000)),
		EnableECN: true, MaxDropProbabilityPercent: fabric.Ptr(uint8(100)),
	}}
	if diff := cmp.Diff(wantProfile, tr.Profiles["queueManagementProfile"]); diff != "" {
		t.Errorf("profile (-want +got):\n%s", diff)
	}

	// Bindings: port1 has the output side, port2 the input classifier.
	wantPort1 := Binding{SchedulerPolicy: "schedulerPolicy",
		QueueProfiles: map[string]string{"AF3": "queueManagementProfile", "NC1": "queueManagementProfile"}}
	if diff := cmp.Diff(wantPort1, tr.Bindings("port1")); diff != "" {
		t.Errorf("Bindings(port1) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Binding{Classifier: "dscp_based_classifier_ipv4"}, tr.Bindings("port2")); diff != "" {
		t.Errorf("Bindings(port2) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Binding{}, tr.Bindings("port9")); diff != "" {
		t.Errorf("Bindings(port9) of an absent interface (-want +got):\n%s", diff)
	}

	// None of these objects follow our naming: no name finds a policy.
	for _, name := range []string{"ROCE", "dscp_based_classifier_ipv4", "schedulerPolicy", "target-group", ""} {
		if p, ok := tr.Policy(name); ok {
			t.Errorf("Policy(%q) = %+v, want not found", name, p)
		}
	}
}

// testdata/lemming-readback.json.golden is what lemming returned after the create in
// TestLemmingLifecycle (which rewrites it under -update); parsing it needs no server.
func TestParseLemmingReadback(t *testing.T) {
	tr := readTree(t, "lemming-readback.json.golden")
	got, ok := tr.Policy("ROCE")
	if !ok {
		t.Fatal("Policy(ROCE) not found")
	}
	if diff := cmp.Diff(examplePolicy(), got); diff != "" {
		t.Errorf("Policy(ROCE) (-want +got):\n%s", diff)
	}
	want := Binding{Classifier: "ROCE", SchedulerPolicy: "ROCE", QueueProfiles: map[string]string{
		"ROCE-cnp": "", "ROCE-default": "", "ROCE-roce": "ROCE-roce", "legacy-q": ""}}
	if diff := cmp.Diff(want, tr.Bindings("Ethernet1")); diff != "" {
		t.Errorf("Bindings(Ethernet1) (-want +got):\n%s", diff)
	}
}

// The same tree, encoded the ways devices differ: bare or wrapped, module prefixes on members
// and identities, numbers as strings, state instead of config.
func TestParseEncodings(t *testing.T) {
	docs := map[string]string{
		"bare": `{"queues":{"queue":[{"name":"q","config":{"name":"q","queue-id":3}}]},
			"scheduler-policies":{"scheduler-policy":[{"name":"s","config":{"name":"s"},"schedulers":{"scheduler":[
			{"sequence":0,"config":{"sequence":0,"priority":"STRICT"},"inputs":{"input":[{"id":"a","config":{"id":"a","input-type":"QUEUE","queue":"q","weight":7}}]}}]}}]}}`,
		"wrapped-prefixed": `{"openconfig-qos:qos":{"openconfig-qos:queues":{"queue":[{"name":"q","config":{"name":"q","queue-id":"3"}}]},
			"openconfig-qos:scheduler-policies":{"scheduler-policy":[{"name":"s","config":{"name":"s"},"schedulers":{"scheduler":[
			{"sequence":"0","config":{"sequence":"0","priority":"openconfig-qos-types:STRICT"},"inputs":{"input":[{"id":"a","config":{"id":"a","input-type":"openconfig-qos-types:QUEUE","queue":"q","weight":"7"}}]}}]}}]}}}`,
		"state-only": `{"qos":{"queues":{"queue":[{"name":"q","state":{"name":"q","queue-id":3}}]},
			"scheduler-policies":{"scheduler-policy":[{"name":"s","state":{"name":"s"},"schedulers":{"scheduler":[
			{"sequence":0,"state":{"sequence":0,"priority":"STRICT"},"inputs":{"input":[{"id":"a","state":{"id":"a","input-type":"QUEUE","queue":"q","weight":"7"}}]}}]}}]}}}`,
	}
	want := &Tree{
		Classifiers: map[string]Classifier{}, ForwardingGroups: map[string]ForwardingGroup{},
		Queues:   map[string]Queue{"q": {Name: "q", ID: fabric.Ptr(uint8(3))}},
		Profiles: map[string]Profile{},
		SchedulerPolicies: map[string]SchedulerPolicy{"s": {Name: "s", Schedulers: []Scheduler{{
			Priority: "STRICT", Inputs: []SchedulerInput{{ID: "a", InputType: "QUEUE", Queue: "q", Weight: fabric.Ptr(uint64(7))}}}}}},
		Interfaces: map[string]Interface{},
	}
	for name, doc := range docs {
		got, err := ParseQoS([]byte(doc))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for name, doc := range map[string]string{
		"not json":         `{"qos":`,
		"not an object":    `[1,2]`,
		"threshold word":   `{"queue-management-profiles":{"queue-management-profile":[{"name":"p","wred":{"uniform":{"config":{"min-threshold":"lots"}}}}]}}`,
		"negative weight":  `{"scheduler-policies":{"scheduler-policy":[{"name":"s","schedulers":{"scheduler":[{"sequence":0,"inputs":{"input":[{"id":"a","config":{"weight":-1}}]}}]}}]}}`,
		"queue-id 300":     `{"queues":{"queue":[{"name":"q","config":{"queue-id":300}}]}}`,
		"dscp not numeric": `{"classifiers":{"classifier":[{"name":"c","terms":{"term":[{"id":"t","conditions":{"ipv4":{"config":{"dscp-set":[true]}}}}]}}]}}`,
		"ecn not boolean":  `{"queue-management-profiles":{"queue-management-profile":[{"name":"p","wred":{"uniform":{"config":{"enable-ecn":"yes"}}}}]}}`,
		"list not entries": `{"queues":{"queue":["q"]}}`,
	} {
		if _, err := ParseQoS([]byte(doc)); err == nil || !strings.HasPrefix(err.Error(), "openconfig: parse /qos") {
			t.Errorf("%s: err = %v, want a parse error", name, err)
		}
	}
	if tr, err := ParseQoS([]byte(`{}`)); err != nil || len(tr.Classifiers) != 0 {
		t.Errorf("empty /qos: %+v, %v", tr, err)
	}
}
