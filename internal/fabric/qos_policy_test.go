package fabric

import (
	"slices"
	"testing"
)

func TestDSCPMap(t *testing.T) {
	p := contractPolicy()
	p.DefaultTrafficClass = 1
	class(&p, "roce", func(c *Class) { c.DSCP = []int{26, 27, 99, -1} }) // out of range: ignored
	m := p.DSCPMap()
	for d, tc := range m {
		want := 1
		switch d {
		case 26, 27:
			want = 3
		case 48:
			want = 6
		case 0:
			want = 0
		}
		if tc != want {
			t.Errorf("DSCP %d -> TC %d, want %d", d, tc, want)
		}
	}
}

func TestDSCPMapConflictFirstClassWins(t *testing.T) {
	p := QoSPolicy{Classes: map[string]Class{
		"b": {TrafficClass: 2, DSCP: []int{10}},
		"a": {TrafficClass: 5, DSCP: []int{10}},
		"c": {TrafficClass: 7, DSCP: []int{10}},
	}}
	for run := 0; run < 20; run++ {
		if got := p.DSCPMap()[10]; got != 5 {
			t.Fatalf("DSCP 10 -> %d, want 5 (class \"a\" sorts first)", got)
		}
	}
}

// PCPMap is DSCPMap's rule on the 8 PCP values: listed ones to their class, out-of-range
// ones ignored, the first class by name winning a value two classes list.
func TestPCPMap(t *testing.T) {
	p := QoSPolicy{DefaultTrafficClass: 1, Classes: map[string]Class{
		"b": {TrafficClass: 2, PCP: []int{3, 8, -1}},
		"a": {TrafficClass: 5, PCP: []int{3, 6}},
	}}
	if got, want := p.PCPMap(), [8]int{1, 1, 1, 5, 1, 1, 5, 1}; got != want {
		t.Errorf("PCPMap = %v, want %v", got, want)
	}
}

func TestClassByTC(t *testing.T) {
	p := contractPolicy()
	name, c, ok := p.ClassByTC(6)
	if !ok || name != "cnp" || !c.StrictPriority {
		t.Errorf("ClassByTC(6) = %q, %+v, %v", name, c, ok)
	}
	if name, _, ok := p.ClassByTC(5); ok {
		t.Errorf("ClassByTC(5) found %q", name)
	}
}

func TestNormalize(t *testing.T) {
	p := contractPolicy()
	class(&p, "roce", func(c *Class) { c.DSCP = []int{27, 26, 27, 24}; c.PCP = []int{4, 3, 3} })
	class(&p, "default", func(c *Class) { c.PCP = []int{} })
	p.Interfaces = []string{"Ethernet2", "Ethernet10", "Ethernet1", "Ethernet2"}
	before := p // shares the map and slices
	p.Normalize()

	roce := p.Classes["roce"]
	if !slices.Equal(roce.DSCP, []int{24, 26, 27}) || !slices.Equal(roce.PCP, []int{3, 4}) {
		t.Errorf("roce DSCP %v PCP %v", roce.DSCP, roce.PCP)
	}
	if !slices.Equal(p.Interfaces, []string{"Ethernet1", "Ethernet10", "Ethernet2"}) {
		t.Errorf("interfaces %v", p.Interfaces)
	}
	if p.Classes["cnp"].PCP != nil {
		t.Errorf("nil PCP (unmanaged) became %v", p.Classes["cnp"].PCP)
	}
	if pcp := p.Classes["default"].PCP; pcp == nil || len(pcp) != 0 {
		t.Errorf("empty PCP (managed) became %#v", pcp)
	}
	if got := before.Classes["roce"].DSCP; !slices.Equal(got, []int{27, 26, 27, 24}) {
		t.Errorf("Normalize changed a copy's DSCP: %v", got)
	}
	if !slices.Equal(before.Interfaces, []string{"Ethernet2", "Ethernet10", "Ethernet1", "Ethernet2"}) {
		t.Errorf("Normalize changed a copy's interfaces: %v", before.Interfaces)
	}
	if !p.Equal(before) {
		t.Error("normalized policy differs from the original")
	}
	var empty QoSPolicy
	empty.Normalize() // nil map stays nil without panicking
	if empty.Classes != nil || empty.Interfaces != nil {
		t.Errorf("empty policy became %+v", empty)
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*QoSPolicy)
		equal bool
	}{
		{"identical", func(*QoSPolicy) {}, true},
		{"interfaces reordered and repeated", func(p *QoSPolicy) { p.Interfaces = []string{"Ethernet2", "Ethernet1", "Ethernet2"} }, true},
		{"name", func(p *QoSPolicy) { p.Name = "OTHER" }, false},
		{"trust", func(p *QoSPolicy) { p.Trust = TrustPCP }, false},
		{"default tc", func(p *QoSPolicy) { p.DefaultTrafficClass = 1 }, false},
		{"interface removed", func(p *QoSPolicy) { p.Interfaces = p.Interfaces[:1] }, false},
		{"class renamed", func(p *QoSPolicy) { p.Classes["cnp2"] = p.Classes["cnp"]; delete(p.Classes, "cnp") }, false},
		{"class added", func(p *QoSPolicy) { p.Classes["x"] = Class{TrafficClass: 1, StrictPriority: true} }, false},
		{"tc", func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.TrafficClass = 7 }) }, false},
		{"dscp", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.DSCP = []int{26, 27} }) }, false},
		{"pcp value", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.PCP = []int{4} }) }, false},
		{"pcp unmanaged vs empty", func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.PCP = []int{} }) }, false},
		{"share", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.BandwidthPercent = Ptr(60) }) }, false},
		{"share unset", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.BandwidthPercent = nil }) }, false},
		{"strict", func(p *QoSPolicy) { class(p, "default", func(c *Class) { c.StrictPriority = true }) }, false},
		{"lossless", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.Lossless = false }) }, false},
		{"mtu", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.MTU = Ptr(9000) }) }, false},
		{"mtu unmanaged", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.MTU = nil }) }, false},
		{"ecn threshold", func(p *QoSPolicy) {
			class(p, "roce", func(c *Class) { e := *c.ECN; e.MaxThresholdBytes++; c.ECN = &e })
		}, false},
		{"ecn probability", func(p *QoSPolicy) {
			class(p, "roce", func(c *Class) { e := *c.ECN; e.MarkProbabilityPercent = 5; c.ECN = &e })
		}, false},
		{"ecn unmanaged", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.ECN = nil }) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := contractPolicy(), contractPolicy()
			tt.edit(&b)
			if got := a.Equal(b); got != tt.equal {
				t.Errorf("a.Equal(b) = %v, want %v", got, tt.equal)
			}
			if got := b.Equal(a); got != tt.equal {
				t.Errorf("b.Equal(a) = %v, want %v", got, tt.equal)
			}
		})
	}
}

// Sets written differently on each side are equal.
func TestEqualSets(t *testing.T) {
	tests := []struct {
		name string
		a, b func(*QoSPolicy)
	}{
		{"dscp reordered and repeated",
			func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.DSCP = []int{46, 48} }) },
			func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.DSCP = []int{48, 46, 48} }) }},
		{"pcp reordered",
			func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.PCP = []int{3, 4} }) },
			func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.PCP = []int{4, 3} }) }},
		{"nil interfaces vs empty",
			func(p *QoSPolicy) { p.Interfaces = nil },
			func(p *QoSPolicy) { p.Interfaces = []string{} }},
		{"nil dscp vs empty",
			func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.DSCP = nil }) },
			func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.DSCP = []int{} }) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := contractPolicy(), contractPolicy()
			tt.a(&a)
			tt.b(&b)
			if !a.Equal(b) || !b.Equal(a) {
				t.Error("policies differ")
			}
		})
	}
}

func TestTrustValid(t *testing.T) {
	for _, tr := range []Trust{TrustDSCP, TrustPCP, TrustDSCPPCP} {
		if !tr.Valid() {
			t.Errorf("%q not valid", tr)
		}
	}
	for _, tr := range []Trust{"", "DSCP", "both"} {
		if tr.Valid() {
			t.Errorf("%q valid", tr)
		}
	}
}

func TestListsAllDSCPs(t *testing.T) {
	all := make([]int, 0, 64)
	for d := 0; d < 63; d++ {
		all = append(all, d)
	}
	p := QoSPolicy{Classes: map[string]Class{"a": {DSCP: all}, "b": {DSCP: []int{10}}}}
	if p.ListsAllDSCPs() {
		t.Fatal("DSCP 63 is unlisted")
	}
	p.Classes["b"] = Class{DSCP: []int{63}}
	if !p.ListsAllDSCPs() {
		t.Fatal("all 64 DSCPs are listed")
	}
}
