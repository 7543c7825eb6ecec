package fabric

import (
	"strings"
	"testing"
)

// contractPolicy is the roce_qos_policy example of the contract, defaults filled in.
func contractPolicy() QoSPolicy {
	return QoSPolicy{
		Name:                "ROCE",
		Trust:               TrustDSCP,
		DefaultTrafficClass: 0,
		Classes: map[string]Class{
			"roce": {
				TrafficClass: 3, DSCP: []int{26}, PCP: []int{3},
				BandwidthPercent: Ptr(50), Lossless: true, MTU: Ptr(9216),
				ECN: &ECN{MinThresholdBytes: 153600, MaxThresholdBytes: 1536000, MarkProbabilityPercent: 100},
			},
			"cnp":     {TrafficClass: 6, DSCP: []int{48}, StrictPriority: true},
			"default": {TrafficClass: 0, DSCP: []int{0}, BandwidthPercent: Ptr(50)},
		},
		Interfaces: []string{"Ethernet1", "Ethernet2"},
	}
}

// class edits one class of p in place (map values are copies).
func class(p *QoSPolicy, name string, edit func(*Class)) {
	c := p.Classes[name]
	edit(&c)
	p.Classes[name] = c
}

func TestValidateContractExample(t *testing.T) {
	if ps := contractPolicy().Validate(); len(ps) != 0 {
		t.Fatalf("contract example: %v", ps)
	}
}

// Every rule has a passing and a failing case. A failing case expects exactly one problem, at
// wantPath, whose summary contains wantSummary (the key fact) and whose detail is not empty.
func TestValidateRules(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name        string
		edit        func(*QoSPolicy)
		wantPath    string // "" means valid
		wantSummary string
		wantDetail  string // optional substring of the detail
	}{
		// name
		{"name 64 chars with . _ -", func(p *QoSPolicy) { p.Name = "R0ce_pol.v-1" + long(52) }, "", "", ""},
		{"name empty", func(p *QoSPolicy) { p.Name = "" }, "name", "empty", ""},
		{"name too long", func(p *QoSPolicy) { p.Name = long(65) }, "name", "longer than 64", ""},
		{"name with newline", func(p *QoSPolicy) { p.Name = "ROCE\nend" }, "name", "invalid characters", `"ROCE\nend"`},
		{"name with semicolon", func(p *QoSPolicy) { p.Name = "a;reload" }, "name", "invalid characters", ""},
		{"name leading dash", func(p *QoSPolicy) { p.Name = "-x" }, "name", "invalid characters", ""},
		{"name with blank", func(p *QoSPolicy) { p.Name = "a b" }, "name", "invalid characters", ""},
		// class names
		{"class name 32 chars", func(p *QoSPolicy) { p.Classes[long(32)] = p.Classes["cnp"]; delete(p.Classes, "cnp") }, "", "", ""},
		{"class name too long", func(p *QoSPolicy) { p.Classes[long(33)] = p.Classes["cnp"]; delete(p.Classes, "cnp") },
			`classes["` + long(33) + `"]`, "longer than 32", ""},
		{"class name with pipe", func(p *QoSPolicy) { p.Classes["c|np"] = p.Classes["cnp"]; delete(p.Classes, "cnp") },
			`classes["c|np"]`, "invalid characters", ""},
		{"class name empty", func(p *QoSPolicy) { p.Classes[""] = p.Classes["cnp"]; delete(p.Classes, "cnp") },
			`classes[""]`, "empty", ""},
		// trust
		{"trust pcp", func(p *QoSPolicy) { p.Trust = TrustPCP }, "", "", ""},
		{"trust dscp_pcp", func(p *QoSPolicy) { p.Trust = TrustDSCPPCP }, "", "", ""},
		{"trust bogus", func(p *QoSPolicy) { p.Trust = "cos" }, "trust", `"cos"`, "dscp_pcp"},
		{"trust empty", func(p *QoSPolicy) { p.Trust = "" }, "trust", "Invalid trust", ""},
		// default_traffic_class
		{"default tc 7", func(p *QoSPolicy) { p.DefaultTrafficClass = 7 }, "", "", ""},
		{"default tc 8", func(p *QoSPolicy) { p.DefaultTrafficClass = 8 }, "default_traffic_class", "8 out of range 0-7", ""},
		{"default tc -1", func(p *QoSPolicy) { p.DefaultTrafficClass = -1 }, "default_traffic_class", "-1 out of range", ""},
		// classes
		{"one class", func(p *QoSPolicy) {
			p.Classes = map[string]Class{"roce": {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: Ptr(100)}}
		}, "", "", ""},
		{"no class", func(p *QoSPolicy) { p.Classes = nil }, "classes", "No traffic class", ""},
		// traffic_class
		{"tc 7", func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.TrafficClass = 7 }) }, "", "", ""},
		{"tc 8", func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.TrafficClass = 8 }) },
			`classes["cnp"].traffic_class`, "8 out of range 0-7", ""},
		{"tc duplicate", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.TrafficClass = 6 }) },
			`classes["roce"].traffic_class`, "Traffic class 6", `already used by class "cnp"`},
		// dscp
		{"dscp 63", func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.DSCP = []int{48, 63} }) }, "", "", ""},
		{"dscp 64", func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.DSCP = []int{64} }) },
			`classes["cnp"].dscp`, "DSCP 64 out of range 0-63", ""},
		{"dscp repeated within a class", func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.DSCP = []int{48, 48} }) }, "", "", ""},
		{"dscp in two classes", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.DSCP = []int{26, 48} }) },
			`classes["roce"].dscp`, "DSCP 48 in two classes", `class "cnp" and by class "roce"`},
		// pcp
		{"pcp 7 and nil pcp", func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.PCP = []int{7} }) }, "", "", ""},
		{"pcp 8", func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.PCP = []int{8} }) },
			`classes["cnp"].pcp`, "PCP 8 out of range 0-7", ""},
		{"pcp in two classes", func(p *QoSPolicy) { class(p, "default", func(c *Class) { c.PCP = []int{0, 3} }) },
			`classes["roce"].pcp`, "PCP 3 in two classes", `class "default" and by class "roce"`},
		// scheduling
		{"neither share nor strict", func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.StrictPriority = false }) },
			`classes["cnp"]`, "neither bandwidth_percent nor strict_priority", ""},
		{"share on strict class", func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.BandwidthPercent = Ptr(10) }) },
			`classes["cnp"].bandwidth_percent`, "strict-priority", "Remove bandwidth_percent"},
		{"share 100 and 1..99 sum", func(p *QoSPolicy) {
			class(p, "roce", func(c *Class) { c.BandwidthPercent = Ptr(99) })
			class(p, "default", func(c *Class) { c.BandwidthPercent = Ptr(1) })
		}, "", "", ""},
		{"share 0", func(p *QoSPolicy) {
			class(p, "roce", func(c *Class) { c.BandwidthPercent = Ptr(100) })
			class(p, "default", func(c *Class) { c.BandwidthPercent = Ptr(0) })
		}, `classes["default"].bandwidth_percent`, "0 out of range 1-100", ""},
		{"share 101", func(p *QoSPolicy) {
			p.Classes = map[string]Class{"roce": {TrafficClass: 3, BandwidthPercent: Ptr(101)}}
		}, `classes["roce"].bandwidth_percent`, "101 out of range", ""},
		{"shares sum to 90", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.BandwidthPercent = Ptr(40) }) },
			"classes", "sum to 90%", "default 50% + roce 40% = 90%"},
		{"only strict classes", func(p *QoSPolicy) {
			p.Classes = map[string]Class{"cnp": {TrafficClass: 6, DSCP: []int{48}, StrictPriority: true}}
		}, "", "", ""},
		// lossless
		{"two lossless", func(p *QoSPolicy) { class(p, "default", func(c *Class) { c.Lossless = true }) }, "", "", ""},
		{"three lossless", func(p *QoSPolicy) {
			class(p, "default", func(c *Class) { c.Lossless = true })
			class(p, "cnp", func(c *Class) { c.Lossless = true })
		}, `classes["roce"].lossless`, "More than 2 lossless", `"cnp", "default"`},
		// mtu
		{"mtu 1500", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.MTU = Ptr(1500) }) }, "", "", ""},
		{"mtu 1499", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.MTU = Ptr(1499) }) },
			`classes["roce"].mtu`, "1499 out of range 1500-9216", ""},
		{"mtu 9217", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.MTU = Ptr(9217) }) },
			`classes["roce"].mtu`, "9217 out of range", ""},
		// ecn
		{"ecn min 1 = max, probability 1", func(p *QoSPolicy) {
			class(p, "roce", func(c *Class) { c.ECN = &ECN{MinThresholdBytes: 1, MaxThresholdBytes: 1, MarkProbabilityPercent: 1} })
		}, "", "", ""},
		{"ecn min 0", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.ECN.MinThresholdBytes = 0 }) },
			`classes["roce"].ecn.min_threshold_bytes`, "below 1", ""},
		{"ecn max below min", func(p *QoSPolicy) {
			class(p, "roce", func(c *Class) {
				c.ECN = &ECN{MinThresholdBytes: 200, MaxThresholdBytes: 100, MarkProbabilityPercent: 100}
			})
		}, `classes["roce"].ecn.max_threshold_bytes`, "max_threshold_bytes 100 is below min_threshold_bytes 200", ""},
		{"ecn probability 0", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.ECN.MarkProbabilityPercent = 0 }) },
			`classes["roce"].ecn.mark_probability_percent`, "0 out of range 1-100", ""},
		{"ecn probability 101", func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.ECN.MarkProbabilityPercent = 101 }) },
			`classes["roce"].ecn.mark_probability_percent`, "101 out of range", ""},
		// interfaces
		{"interfaces of every platform", func(p *QoSPolicy) {
			p.Interfaces = []string{"Ethernet1/1", "Ethernet1/2/3", "eth0.100", "Port-Channel1", "xe-0/0/0:1", "swp1s0_a", long(64)}
		}, "", "", ""},
		{"no interfaces", func(p *QoSPolicy) { p.Interfaces = nil }, "", "", ""},
		{"interface empty", func(p *QoSPolicy) { p.Interfaces = []string{"Ethernet1", ""} }, "interfaces", "Empty interface", ""},
		{"interface duplicate", func(p *QoSPolicy) { p.Interfaces = []string{"Ethernet1", "Ethernet2", "Ethernet1", "Ethernet1"} },
			"interfaces", `"Ethernet1" listed twice`, ""},
		{"interface with newline", func(p *QoSPolicy) { p.Interfaces = []string{"Ethernet1\nreload"} },
			"interfaces", `Invalid interface name "Ethernet1\nreload"`, ""},
		{"interface with bang", func(p *QoSPolicy) { p.Interfaces = []string{"Ethernet1!"} }, "interfaces", "Invalid interface", ""},
		{"interface too long", func(p *QoSPolicy) { p.Interfaces = []string{long(65)} }, "interfaces", "longer than 64", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := contractPolicy()
			tt.edit(&p)
			ps := p.Validate()
			if tt.wantPath == "" {
				if len(ps) != 0 {
					t.Fatalf("want no problem, got %v", ps)
				}
				return
			}
			if len(ps) != 1 {
				t.Fatalf("want 1 problem at %s, got %d:\n%v", tt.wantPath, len(ps), ps)
			}
			got := ps[0]
			if got.Path.String() != tt.wantPath {
				t.Errorf("path = %s, want %s", got.Path, tt.wantPath)
			}
			if !strings.Contains(got.Summary, tt.wantSummary) {
				t.Errorf("summary %q does not contain %q", got.Summary, tt.wantSummary)
			}
			if got.Detail == "" || !strings.Contains(got.Detail, tt.wantDetail) {
				t.Errorf("detail %q does not contain %q", got.Detail, tt.wantDetail)
			}
		})
	}
}

// Several problems come back together, in a deterministic order: policy attributes, then
// classes by sorted name, then the sum, then interfaces.
func TestValidateOrderAndCompleteness(t *testing.T) {
	p := contractPolicy()
	p.Name = ""
	p.Trust = "x"
	class(&p, "roce", func(c *Class) { c.DSCP = []int{48}; c.ECN.MaxThresholdBytes = 1 })
	class(&p, "cnp", func(c *Class) { c.TrafficClass = 9 })
	class(&p, "default", func(c *Class) { c.BandwidthPercent = Ptr(10) })
	p.Interfaces = []string{"a b"}
	want := []string{
		"name",
		"trust",
		`classes["cnp"].traffic_class`,
		`classes["roce"].dscp`,
		`classes["roce"].ecn.max_threshold_bytes`,
		"classes",
		"interfaces",
	}
	for run := 0; run < 20; run++ { // map order varies between runs; the result must not
		ps := p.Validate()
		if len(ps) != len(want) {
			t.Fatalf("got %d problems, want %d:\n%v", len(ps), len(want), ps)
		}
		for i, w := range want {
			if ps[i].Path.String() != w {
				t.Fatalf("run %d: problem %d at %s, want %s\n%v", run, i, ps[i].Path, w, ps)
			}
		}
	}
}

// Out-of-range traffic classes are reported once, not also as duplicates of each other.
func TestValidateOutOfRangeTCNotDuplicate(t *testing.T) {
	p := contractPolicy()
	class(&p, "cnp", func(c *Class) { c.TrafficClass = 9 })
	class(&p, "default", func(c *Class) { c.TrafficClass = 9 })
	ps := p.Validate()
	if len(ps) != 2 {
		t.Fatalf("got %v", ps)
	}
	for _, pr := range ps {
		if !strings.Contains(pr.Summary, "out of range") {
			t.Errorf("unexpected problem %v", pr)
		}
	}
}
