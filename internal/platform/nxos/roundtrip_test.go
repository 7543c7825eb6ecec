package nxos

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

// roundTrips pairs policies with the running-config a switch prints after PolicyLines wrote
// them (each written by hand in the layout of internal/lab/nxos-switch.md: class-maps, then
// policy-maps type qos, queuing and network-qos by name, system qos, interfaces).
func roundTrips() map[string]*fabric.QoSPolicy {
	return map[string]*fabric.QoSPolicy{
		"after-create.txt":     examplePolicy(),
		"after-update.txt":     updatedPolicy(),
		"after-create-pcp.txt": pcpPolicy(),
	}
}

// Each policy reads back from the switch's text as Canonical(policy), and the lines that
// create it on an empty switch, replayed, read the same.
func TestRoundTrip(t *testing.T) {
	for file, p := range roundTrips() {
		t.Run(file, func(t *testing.T) {
			got, ok := running.File(t, file).Policy(p.Name, p)
			fabrictest.CheckRead(t, Canonical(*p), got, ok)
			written := replay(t, "", mustLines(t, running.Text(t, ""), nil, p))
			again, _ := written.Policy(p.Name, p)
			if diff := cmp.Diff(got, again); diff != "" {
				t.Errorf("printed and written differ (-printed +written):\n%s", diff)
			}
		})
	}
}

// Drift the read shows rather than hides.
func TestReadDrift(t *testing.T) {
	text := goldenfile.Read(t, "testdata/after-create.txt")
	fabrictest.CheckDrift(t, text, Canonical(*examplePolicy()), map[string]fabrictest.Drift{
		"ECN in an unknown unit reads Unknown": {"minimum-threshold 150 kbytes", "minimum-threshold 150 packets",
			fabrictest.MinThresholdReads("roce", Unknown)},
		"WRED dropping instead of marking": {"weight 0 ecn", "weight 0", fabrictest.MarkingReads("roce", Unknown)},
		"a share besides a priority": {"    priority level 2\n", "    priority level 2\n    bandwidth remaining percent 5\n",
			func(p *fabric.QoSPolicy) bool {
				return p.Classes["cnp"].StrictPriority && *p.Classes["cnp"].BandwidthPercent == 5
			}},
		"bandwidth percent reads as the share": {"remaining percent 50\n    random", "percent 30\n    random",
			func(p *fabric.QoSPolicy) bool { return *p.Classes["roce"].BandwidthPercent == 30 }},
		"the control queue demoted is a class": {"q7\n    priority level 1", "q7\n    bandwidth remaining percent 0",
			func(p *fabric.QoSPolicy) bool { _, ok := p.Classes["tc7"]; return ok }},
		"a classless queue with a share is a class": {"q5\n    bandwidth remaining percent 0", "q5\n    bandwidth remaining percent 7",
			func(p *fabric.QoSPolicy) bool {
				return *p.Classes["tc5"].BandwidthPercent == 7 && p.Classes["tc5"].DSCP == nil
			}},
		"a classless TC paused is a class": {"system qos", "policy-map type network-qos ROCE-nq\n  class type network-qos c-8q-nq2\n    pause pfc-cos 2\nsystem qos",
			func(p *fabric.QoSPolicy) bool { return p.Classes["tc2"].Lossless }},
		"pause of another CoS is not lossless": {"pause pfc-cos 3", "pause pfc-cos 4",
			func(p *fabric.QoSPolicy) bool { return !p.Classes["roce"].Lossless }},
		"system qos rebound": {"service-policy type network-qos ROCE-nq", "service-policy type network-qos OTHER",
			func(p *fabric.QoSPolicy) bool { return !p.Classes["roce"].Lossless && p.Classes["roce"].MTU == nil }},
		"mtu changed": {"mtu 9216", "mtu 1500", func(p *fabric.QoSPolicy) bool { return *p.Classes["roce"].MTU == 1500 }},
		"a partly bound port drops out": {"interface Ethernet1/2\n  service-policy type qos input ROCE\n", "interface Ethernet1/2\n",
			func(p *fabric.QoSPolicy) bool { return cmp.Equal(p.Interfaces, []string{"Ethernet1/1"}) }},
		"a CoS match besides DSCP": {"  match dscp 26\n", "  match dscp 26\n  match cos 3\n",
			func(p *fabric.QoSPolicy) bool { return p.Trust == "" && cmp.Equal(p.Classes["roce"].PCP, []int{3}) }},
		"another match field": {"  match dscp 48\n", "  match dscp 48\n  match precedence 6\n",
			func(p *fabric.QoSPolicy) bool { return p.Trust == "" }},
		"qos-group removed": {"    set qos-group 3\n", "",
			func(p *fabric.QoSPolicy) bool { return p.Classes["roce"].TrafficClass == Unknown }},
		"class-default elsewhere": {"class class-default\n    set qos-group 0", "class class-default\n    set qos-group 2",
			func(p *fabric.QoSPolicy) bool { return p.DefaultTrafficClass == 2 }},
		"DSCP added": {"match dscp 26", "match dscp 26-27",
			func(p *fabric.QoSPolicy) bool { return cmp.Equal(p.Classes["roce"].DSCP, []int{26, 27}) }},
	}, func(text string) (*fabric.QoSPolicy, bool) {
		return running.Text(t, text).Policy("ROCE", examplePolicy())
	})
	if _, ok := running.File(t, "after-create.txt").Policy("AI", nil); ok {
		t.Error("Policy(AI) found without a policy-map type qos AI")
	}
}

// Known decides managed-ness: an mtu the state leaves unmanaged reads nil; without state
// (import) every mtu is read.
func TestPolicyManagedMTU(t *testing.T) {
	c := running.File(t, "after-create.txt")
	known := fabrictest.WithClass(examplePolicy(), "roce", func(c *fabric.Class) { c.MTU = nil })
	if got, _ := c.Policy("ROCE", known); got.Classes["roce"].MTU != nil {
		t.Errorf("unmanaged mtu read %d", *got.Classes["roce"].MTU)
	}
	if got, _ := c.Policy("ROCE", nil); *got.Classes["roce"].MTU != 9216 {
		t.Error("import does not read the mtu")
	}
}

// Import naming: the "<policy>-" prefix stripped, else the class-map's own name when it is a
// valid class name, else known's class of that TC, else tc<N>.
func TestPolicyClassNames(t *testing.T) {
	c := running.Text(t, `class-map type qos match-any P-roce
  match dscp 26
class-map type qos match-any RDMA
  match dscp 24
class-map type qos match-any this-class-map-name-is-far-too-long-x
  match dscp 10
class-map type qos match-any P-bad!name
  match dscp 12
class-map type qos match-any roce
  match dscp 30
policy-map type qos P
  class P-roce
    set qos-group 3
  class RDMA
    set qos-group 4
  class this-class-map-name-is-far-too-long-x
    set qos-group 1
  class P-bad!name
    set qos-group 2
  class roce
    set qos-group 5
`)
	got, _ := c.Policy("P", nil)
	want := map[string]int{"roce": 3, "RDMA": 4, "tc1": 1, "tc2": 2, "tc5": 5}
	gotNames := map[string]int{}
	for n, cl := range got.Classes {
		gotNames[n] = cl.TrafficClass
	}
	if diff := cmp.Diff(want, gotNames); diff != "" {
		t.Errorf("imported names (-want +got):\n%s", diff)
	}
	known := &fabric.QoSPolicy{Name: "P", Classes: map[string]fabric.Class{"bulk": {TrafficClass: 1}, "tc2": {TrafficClass: 6}}}
	got, _ = c.Policy("P", known)
	if _, ok := got.Classes["bulk"]; !ok || got.Classes["tc2_"].TrafficClass != 2 {
		t.Errorf("names with state: %v", got.ClassNames())
	}
}

func TestCanonical(t *testing.T) {
	got := Canonical(*examplePolicy())
	if got.Classes["roce"].PCP != nil || *got.Classes["roce"].MTU != 9216 || len(got.Classes["default"].DSCP) != 1 {
		t.Errorf("Canonical(example) = %s", goldenfile.JSON(t, got))
	}
	got = Canonical(*pcpPolicy())
	if got.Classes["roce"].DSCP != nil || !cmp.Equal(got.Classes["default"].PCP, []int{}) || got.DefaultTrafficClass != 1 {
		t.Errorf("Canonical(trust pcp) = %s", goldenfile.JSON(t, got))
	}
	if p := examplePolicy(); p.Classes["roce"].PCP == nil {
		t.Error("Canonical modified its input")
	}
}

func TestLosslessTCs(t *testing.T) {
	for file, want := range map[string][]int{"base-running-config.txt": nil, "after-create.txt": {3}, "after-update.txt": {3, 4}} {
		if got := running.File(t, file).LosslessTCs(); !cmp.Equal(got, want) {
			t.Errorf("%s: LosslessTCs = %v, want %v", file, got, want)
		}
	}
	// What counts is the policy system qos binds.
	c := running.File(t, "after-create.txt")
	c.System.NetworkQoS = DefaultNetworkQoS
	if got := c.LosslessTCs(); got != nil {
		t.Errorf("default policy bound: %v", got)
	}
}

// The default class's mtu the policy derives (c-8q-nq-default carries the largest class mtu)
// reads back as nothing of its own: no class on TC 0 appears, and a TC 0 class without an mtu
// stays without; on import the TC 0 class shows it.
func TestDefaultClassMTU(t *testing.T) {
	p := examplePolicy()
	delete(p.Classes, "default")
	roce := p.Classes["roce"]
	roce.BandwidthPercent = fabric.Ptr(100)
	p.Classes["roce"] = roce
	written := replay(t, "", mustLines(t, running.Text(t, ""), nil, p))
	if nq := written.NetworkQoS[NetworkQoSName(p.Name)]; nq == nil || nq.Classes[0] == nil || nq.Classes[0].MTU == nil || *nq.Classes[0].MTU != 9216 {
		t.Fatalf("c-8q-nq-default not written with mtu 9216: %+v", nq)
	}
	got, _ := written.Policy(p.Name, p)
	if diff := cmp.Diff(Canonical(*p), *got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	imported, _ := written.Policy(p.Name, nil)
	for name, c := range imported.Classes {
		if c.TrafficClass == 0 {
			t.Errorf("import shows a TC 0 class %q from the derived default mtu: %+v", name, c)
		}
	}
}
