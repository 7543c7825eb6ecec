package fabric

import (
	"strings"
	"testing"
)

// contractNIC is the roce_nic_qos example of the contract.
func contractNIC() NICQoS {
	return NICQoS{
		Interface: "eth0", Trust: TrustDSCP, PFCPriorities: []int{3},
		DSCPToPriority: map[int]int{26: 3, 48: 6},
		PriorityToTC:   map[int]int{3: 3, 6: 6},
		ETS: map[int]ETSClass{
			0: {BandwidthPercent: Ptr(50)}, 3: {BandwidthPercent: Ptr(50)}, 6: {StrictPriority: true},
		},
		RoCEToS: Ptr(106),
	}
}

// contractDCQCN is the roce_dcqcn_profile example of the contract.
func contractDCQCN() DCQCN {
	return DCQCN{
		Interface: "eth0", Priorities: []int{3}, CNPDSCP: 48, CNPPriority: 6,
		ReactionPoint: map[string]int64{
			"time_reset_us": 300, "byte_reset": 32767, "threshold": 1, "ai_rate_mbps": 5, "hai_rate_mbps": 50,
			"min_rate_mbps": 1, "max_rate_mbps": 0, "dce_tcp_g": 1019, "dce_tcp_rtt_us": 1, "initial_alpha": 1023,
			"rate_reduce_monitor_period_us": 4, "min_dec_factor_percent": 50, "gd": 11,
			"rate_to_set_on_first_cnp_mbps": 0, "clamp_target_rate": 0, "clamp_target_rate_after_time_inc": 1,
		},
		NotificationPoint: map[string]int64{"min_time_between_cnps_us": 4},
	}
}

// ruleCase edits an intent (a contract example) and names the one problem Validate must then
// report (wantPath "": none).
type ruleCase[T any] struct {
	name        string
	edit        func(*T)
	wantPath    string
	wantSummary string
}

// checkRules runs each case on a fresh example.
func checkRules[T Intent](t *testing.T, example func() T, cases []ruleCase[T]) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			in := example()
			tt.edit(&in)
			checkOne(t, in.Validate(), tt.wantPath, tt.wantSummary)
		})
	}
}

// checkOne asserts ps is empty when wantPath is "", else exactly one problem at wantPath whose
// summary contains wantSummary and whose detail is not empty.
func checkOne(t *testing.T, ps Problems, wantPath, wantSummary string) {
	t.Helper()
	if wantPath == "" {
		if len(ps) != 0 {
			t.Fatalf("want no problem, got:\n%v", ps)
		}
		return
	}
	if len(ps) != 1 {
		t.Fatalf("want 1 problem at %s, got %d:\n%v", wantPath, len(ps), ps)
	}
	p := ps[0]
	if got := p.Path.String(); got != wantPath {
		t.Errorf("path = %s, want %s", got, wantPath)
	}
	if !strings.Contains(p.Summary, wantSummary) {
		t.Errorf("summary = %q, want it to contain %q", p.Summary, wantSummary)
	}
	if p.Detail == "" {
		t.Error("empty detail")
	}
}

func TestValidateNICRules(t *testing.T) {
	checkRules(t, contractNIC, []ruleCase[NICQoS]{
		{"contract example", func(*NICQoS) {}, "", ""},
		{"interface 15 bytes", func(n *NICQoS) { n.Interface = "ens1f0np0.1234_" }, "", ""},
		{"interface with dot and dash", func(n *NICQoS) { n.Interface = "bond0.100-a" }, "", ""},
		{"persist with a dash in the netdev", func(n *NICQoS) { n.Interface, n.Persist = "bond0.100-a", true }, "persist", "persist is not supported"},
		{"persist on a dotted netdev", func(n *NICQoS) { n.Interface, n.Persist = "bond0.100", true }, "", ""},
		{"interface empty", func(n *NICQoS) { n.Interface = "" }, "interface", "Empty"},
		{"interface 16 bytes", func(n *NICQoS) { n.Interface = "ens1f0np0.12345_" }, "interface", "longer than 15"},
		{"interface dot", func(n *NICQoS) { n.Interface = "." }, "interface", "Invalid interface"},
		{"interface dotdot", func(n *NICQoS) { n.Interface = ".." }, "interface", "Invalid interface"},
		{"interface leading dash", func(n *NICQoS) { n.Interface = "-i" }, "interface", "Invalid interface"},
		{"interface slash", func(n *NICQoS) { n.Interface = "eth/0" }, "interface", "Invalid interface"},
		{"interface colon", func(n *NICQoS) { n.Interface = "eth0:1" }, "interface", "Invalid interface"},
		{"interface blank", func(n *NICQoS) { n.Interface = "eth 0" }, "interface", "Invalid interface"},
		{"interface semicolon", func(n *NICQoS) { n.Interface = "e;reboot" }, "interface", "Invalid interface"},
		{"interface quote", func(n *NICQoS) { n.Interface = "e'x" }, "interface", "Invalid interface"},
		{"interface dollar", func(n *NICQoS) { n.Interface = "e$x" }, "interface", "Invalid interface"},
		{"interface newline", func(n *NICQoS) { n.Interface = "eth0\n" }, "interface", "Invalid interface"},
		{"trust pcp without map", func(n *NICQoS) { n.Trust = TrustPCP; n.DSCPToPriority = nil }, "", ""},
		{"trust pcp with map", func(n *NICQoS) { n.Trust = TrustPCP }, "dscp_to_priority", "trust = pcp"},
		{"trust dscp_pcp", func(n *NICQoS) { n.Trust = TrustDSCPPCP }, "trust", `"dscp_pcp"`},
		{"pfc empty", func(n *NICQoS) { n.PFCPriorities = nil }, "", ""},
		{"pfc 0 and 7", func(n *NICQoS) { n.PFCPriorities = []int{0, 7} }, "", ""},
		{"pfc 8", func(n *NICQoS) { n.PFCPriorities = []int{3, 8} }, "pfc_priorities", "Priority 8 out of range 0-7"},
		{"dscp 63 to 7", func(n *NICQoS) { n.DSCPToPriority = map[int]int{63: 7, 0: 0} }, "", ""},
		{"dscp key 64", func(n *NICQoS) { n.DSCPToPriority = map[int]int{64: 3} }, `dscp_to_priority["64"]`, "Invalid map key"},
		{"dscp value 8", func(n *NICQoS) { n.DSCPToPriority = map[int]int{26: 8} }, `dscp_to_priority["26"]`, "priority 8 out of range"},
		{"prio_tc value 8", func(n *NICQoS) { n.PriorityToTC = map[int]int{3: 8} }, `priority_to_tc["3"]`, "traffic class 8"},
		{"prio_tc key 8", func(n *NICQoS) { n.PriorityToTC = map[int]int{8: 0} }, `priority_to_tc["8"]`, "Invalid map key"},
		{"prio_tc unmanaged", func(n *NICQoS) { n.PriorityToTC = nil }, "", ""},
		{"ets unmanaged", func(n *NICQoS) { n.ETS = nil }, "", ""},
		{"ets all strict", func(n *NICQoS) {
			n.ETS = map[int]ETSClass{}
			for tc := range 8 {
				n.ETS[tc] = ETSClass{StrictPriority: true}
			}
		}, "", ""},
		{"ets only strict listed", func(n *NICQoS) { n.ETS = map[int]ETSClass{6: {StrictPriority: true}} },
			"ets", "sum to 0%"},
		{"ets sum 90", func(n *NICQoS) { n.ETS[0] = ETSClass{BandwidthPercent: Ptr(40)} }, "ets", "sum to 90%"},
		{"ets 100 and 0", func(n *NICQoS) {
			n.ETS = map[int]ETSClass{0: {BandwidthPercent: Ptr(100)}, 1: {BandwidthPercent: Ptr(0)}}
		}, "", ""},
		{"ets bw 101", func(n *NICQoS) {
			n.ETS = map[int]ETSClass{0: {BandwidthPercent: Ptr(101)}}
		}, `ets["0"].bandwidth_percent`, "out of range 0-100"},
		{"ets neither", func(n *NICQoS) { n.ETS[6] = ETSClass{} }, `ets["6"]`, "neither"},
		{"ets both", func(n *NICQoS) { n.ETS[6] = ETSClass{StrictPriority: true, BandwidthPercent: Ptr(0)} },
			`ets["6"].bandwidth_percent`, "strict-priority"},
		{"ets key 8", func(n *NICQoS) { n.ETS[8] = ETSClass{StrictPriority: true} }, `ets["8"]`, "Invalid map key"},
		{"roce_tos unmanaged", func(n *NICQoS) { n.RoCEToS = nil }, "", ""},
		{"roce_tos 255", func(n *NICQoS) { n.RoCEToS = Ptr(255) }, "", ""},
		{"roce_tos 256", func(n *NICQoS) { n.RoCEToS = Ptr(256) }, "roce_tos", "256 out of range 0-255"},
		{"roce_tos -1", func(n *NICQoS) { n.RoCEToS = Ptr(-1) }, "roce_tos", "-1 out of range"},
	})
}

func TestValidateDCQCNRules(t *testing.T) {
	rp := func(name string, v int64) func(*DCQCN) { return func(d *DCQCN) { d.ReactionPoint[name] = v } }
	checkRules(t, contractDCQCN, []ruleCase[DCQCN]{
		{"contract example", func(*DCQCN) {}, "", ""},
		{"nothing optional", func(d *DCQCN) { d.ReactionPoint, d.NotificationPoint = nil, nil }, "", ""},
		{"interface bad", func(d *DCQCN) { d.Interface = "eth0;ls" }, "interface", "Invalid interface"},
		{"persist with a dash in the netdev", func(d *DCQCN) { d.Interface, d.Persist = "rdma-0", true }, "persist", "persist is not supported"},
		{"no persist with a dash in the netdev", func(d *DCQCN) { d.Interface = "rdma-0" }, "", ""},
		{"priorities empty", func(d *DCQCN) { d.Priorities = nil }, "", ""},
		{"priorities 8", func(d *DCQCN) { d.Priorities = []int{8} }, "priorities", "Priority 8 out of range"},
		{"cnp_dscp 63", func(d *DCQCN) { d.CNPDSCP = 63 }, "", ""},
		{"cnp_dscp 64", func(d *DCQCN) { d.CNPDSCP = 64 }, "cnp_dscp", "64 out of range 0-63"},
		{"cnp_priority 8", func(d *DCQCN) { d.CNPPriority = 8 }, "cnp_priority", "8 out of range 0-7"},
		{"cnp_priority -1", func(d *DCQCN) { d.CNPPriority = -1 }, "cnp_priority", "-1 out of range"},
		{"u32 max", rp("byte_reset", MaxU32), "", ""},
		{"u32 overflow", rp("byte_reset", MaxU32+1), "reaction_point.byte_reset", "out of range 0-4294967295"},
		{"negative", rp("time_reset_us", -1), "reaction_point.time_reset_us", "-1 out of range"},
		{"percent 100", rp("min_dec_factor_percent", 100), "", ""},
		{"percent 101", rp("min_dec_factor_percent", 101), "reaction_point.min_dec_factor_percent", "101 out of range 0-100"},
		{"alpha g 1024", rp("dce_tcp_g", 1024), "reaction_point.dce_tcp_g", "out of range 0-1023"},
		{"initial alpha 0", rp("initial_alpha", 0), "reaction_point.initial_alpha", "out of range 1-1023"},
		{"rtt 131072", rp("dce_tcp_rtt_us", 131072), "reaction_point.dce_tcp_rtt_us", "out of range 1-131071"},
		{"min rate 0", rp("min_rate_mbps", 0), "reaction_point.min_rate_mbps", "out of range 1-"},
		{"bool 2", rp("clamp_target_rate", 2), "reaction_point.clamp_target_rate", "out of range 0-1"},
		{"min above max", func(d *DCQCN) { d.ReactionPoint["min_rate_mbps"] = 100; d.ReactionPoint["max_rate_mbps"] = 50 },
			"reaction_point.min_rate_mbps", "above max_rate_mbps"},
		{"min with line-rate max", rp("min_rate_mbps", 100), "", ""},
		{"unknown rp", rp("bogus", 1), "reaction_point.bogus", `Unknown parameter "bogus"`},
		{"np in rp", rp("min_time_between_cnps_us", 1), "reaction_point.min_time_between_cnps_us", "Unknown parameter"},
		{"np overflow", func(d *DCQCN) { d.NotificationPoint["min_time_between_cnps_us"] = MaxU32 + 1 },
			"notification_point.min_time_between_cnps_us", "out of range"},
	})
}

func TestEveryParamHasARange(t *testing.T) {
	for _, name := range append(append([]string{}, ReactionPointParams...), NotificationPointParams...) {
		if _, ok := dcqcnRanges[name]; !ok {
			t.Errorf("no range for %s", name)
		}
	}
	if len(dcqcnRanges) != len(ReactionPointParams)+len(NotificationPointParams) {
		t.Errorf("dcqcnRanges has %d entries", len(dcqcnRanges))
	}
}

func TestParseKeys(t *testing.T) {
	for _, tt := range []struct {
		key  string
		want int
		err  string
	}{
		{"0", 0, ""}, {"26", 26, ""}, {"63", 63, ""},
		{"64", 0, "out of range 0-63"}, {"064", 0, "leading zeros"}, {"00", 0, "leading zeros"},
		{"", 0, "leading zeros"}, {"-1", 0, "leading zeros"}, {"+1", 0, "leading zeros"},
		{" 1", 0, "leading zeros"}, {"1.0", 0, "leading zeros"}, {"1000", 0, "leading zeros"}, {"x", 0, "leading zeros"},
	} {
		got, err := ParseDSCPKey(tt.key)
		if tt.err == "" {
			if err != nil || got != tt.want {
				t.Errorf("ParseDSCPKey(%q) = %d, %v; want %d", tt.key, got, err, tt.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("ParseDSCPKey(%q) error = %v, want %q", tt.key, err, tt.err)
		}
	}
	if _, err := ParsePriorityKey("8"); err == nil || !strings.Contains(err.Error(), "0-7") {
		t.Errorf("ParsePriorityKey(8) = %v", err)
	}
	if v, err := ParseTCKey("7"); err != nil || v != 7 {
		t.Errorf("ParseTCKey(7) = %d, %v", v, err)
	}

	m, ps := ParseKeys(Root("dscp_to_priority"), map[string]int{"26": 3, "064": 1, "99": 2}, ParseDSCPKey)
	if len(m) != 1 || m[26] != 3 {
		t.Errorf("parsed = %v", m)
	}
	want := []string{`dscp_to_priority["064"]`, `dscp_to_priority["99"]`}
	if len(ps) != len(want) {
		t.Fatalf("problems = %v", ps)
	}
	for i, p := range ps {
		if p.Path.String() != want[i] || p.Summary != "Invalid map key" {
			t.Errorf("problem %d = %v, want at %s", i, p, want[i])
		}
	}
}

func TestValidNetdevName(t *testing.T) {
	for _, ok := range []string{"eth0", "ens1f0np0", "_x", "0", "a.b-c_d", "abcdefghijklmno"} {
		if !ValidNetdevName(ok) {
			t.Errorf("%q rejected", ok)
		}
	}
	for _, bad := range []string{"", ".", "..", ".x", "-x", "abcdefghijklmnop", "a/b", "a:b", "a b", "a\tb", "é", "a*", "a`b`", "a|b"} {
		if ValidNetdevName(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}
