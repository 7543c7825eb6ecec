package fabric

import "testing"

// lossyWithoutECN makes the fabric lossy (no lossless class, PFC off, no NIC PFC priorities)
// with no ECN on the RoCE class either.
func lossyWithoutECN(f *Fabric) {
	for i := range f.Policies {
		policyOf(f, i, func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.Lossless, c.ECN = false, nil }) })
		f.PFC[i].PFC.Mode = PFCModeOff
	}
	for i := range f.NICs {
		f.NICs[i].NIC.PFCPriorities = nil
	}
}

// policyOf edits the policy of refFabric's switch i.
func policyOf(f *Fabric, i int, edit func(*QoSPolicy)) { edit(&f.Policies[i].Policy) }

// lossy makes f a lossy RoCE fabric: no switch class lossless, PFC off on every port, no NIC
// pausing a priority.
func lossy(f *Fabric) {
	for i := range f.Policies {
		policyOf(f, i, func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.Lossless = false }) })
		f.PFC[i].PFC.Mode = PFCModeOff
	}
	for i := range f.NICs {
		f.NICs[i].NIC.PFCPriorities = nil
	}
}

// Each rule has passing and failing fabrics, edits of refFabric (leaf-1, leaf-2, gpu-1, gpu-2).
// A failing fabric lists every finding it yields, including the ones other rules add as a
// consequence, so no rule fires where it should not.
func TestCheckRules(t *testing.T) {
	checkEdits(t, refFabric, []checkCase{
		// R1
		{"R1 pass: lossy fabric, NICs without PFC", lossy, nil},
		{"R1 fail: NIC pauses an extra priority", func(f *Fabric) { f.NICs[1].NIC.PFCPriorities = []int{3, 4} }, []wantFinding{
			errorOn("R1", "gpu-2", "eth0 on gpu-2", "pfc_priorities [3, 4]", "lossless traffic classes are [3]",
				`class "roce" on leaf-1 and class "roce" on leaf-2`, "Set pfc_priorities = [3]"),
		}},
		{"R1 fail: no switch class lossless", func(f *Fabric) {
			for i := range f.Policies {
				policyOf(f, i, func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.Lossless = false }) })
			}
		}, []wantFinding{
			errorOn("R1", "gpu-1", "pfc_priorities [3]", "no switch class is lossless", "Set pfc_priorities = []"),
			errorOn("R1", "gpu-2", "pfc_priorities [3]", "no switch class is lossless"),
			errorOn("R9", "leaf-1", "PFC is on at Ethernet1 of leaf-1", "no lossless class", `mode = "off"`),
			errorOn("R9", "leaf-2", "PFC is on at Ethernet1 of leaf-2", "no lossless class"),
		}},
		// R2
		{"R2 pass: NIC maps extra DSCPs the switches do not list", func(f *Fabric) {
			f.NICs[0].NIC.DSCPToPriority[10] = 5
		}, nil},
		{"R2 fail: one finding listing every mismatching DSCP", func(f *Fabric) {
			f.NICs[1].NIC.DSCPToPriority = map[int]int{0: 1, 26: 3}
		}, []wantFinding{
			errorOn("R2", "gpu-2", "eth0 on gpu-2", "DSCP 0 goes to priority 1 but to traffic class 0",
				"DSCP 48 goes to priority 0 but to traffic class 6", `class "cnp" on leaf-1 and class "cnp" on leaf-2`,
				`{ "0" = 0, "48" = 6 }`),
		}},
		{"R2 pass: trust pcp NIC is not compared (dscp_pcp switches)", func(f *Fabric) {
			for i := range f.Policies {
				f.Policies[i].Policy.Trust = TrustDSCPPCP
			}
			f.NICs[1].NIC.Trust, f.NICs[1].NIC.DSCPToPriority = TrustPCP, nil
		}, nil},
		{"R2 fail: NIC matches none of the disagreeing switches", func(f *Fabric) {
			policyOf(f, 1, func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.TrafficClass = 5 }) })
			f.NICs[0].NIC.DSCPToPriority[48] = 7
		}, []wantFinding{
			errorOn("R2", "gpu-1", "DSCP 48 goes to priority 7, which matches no switch, and the switches disagree: "+
				`traffic class 5 (class "cnp" on leaf-2) vs traffic class 6 (class "cnp" on leaf-1)`, "see R10"),
			errorOn("R10", "leaf-2", "DSCP 48 to traffic class 5"),
		}},
		// R3
		{"R3 fail: a switch trusts pcp", func(f *Fabric) { f.Policies[1].Policy.Trust = TrustPCP }, []wantFinding{
			errorOn("R3", "gpu-1", "eth0 on gpu-1 trusts dscp", "leaf-2 (policy ROCE) trusts pcp", `Set trust = "pcp" on the NIC`),
			errorOn("R3", "gpu-2", "eth0 on gpu-2 trusts dscp", "leaf-2 (policy ROCE) trusts pcp"),
		}},
		{"R3 fail: NIC trusts pcp, switches dscp", func(f *Fabric) {
			f.NICs[0].NIC.Trust, f.NICs[0].NIC.DSCPToPriority = TrustPCP, nil
		}, []wantFinding{
			errorOn("R3", "gpu-1", "trusts pcp", "leaf-1 (policy ROCE) trusts dscp and leaf-2 (policy ROCE) trusts dscp",
				`Set trust = "dscp" on the NIC`),
		}},
		// R4
		{"R4 fail: CNP class not strict anywhere", func(f *Fabric) {
			for i := range f.Policies {
				policyOf(f, i, func(p *QoSPolicy) {
					class(p, "cnp", func(c *Class) { c.StrictPriority, c.BandwidthPercent = false, Ptr(0) })
				})
			}
		}, []wantFinding{
			errorOn("R4", "leaf-1", "DSCP 48 on priority 6", "eth0 on gpu-1 and eth0 on gpu-2", "leaf-1 (policy ROCE)",
				`class "cnp" is not strict priority`, "strict_priority = true"),
			errorOn("R4", "leaf-2", `class "cnp" is not strict priority`),
		}},
		// The CNP's priority never reaches a DSCP-classifying switch on a routed link: only its
		// DSCP's class is compared (the switches' disagreement is R10's).
		{"R4 pass: CNP class on another traffic class than cnp_priority", func(f *Fabric) {
			policyOf(f, 1, func(p *QoSPolicy) { class(p, "cnp", func(c *Class) { c.TrafficClass = 5 }) })
		}, []wantFinding{
			errorOn("R10", "leaf-2", "Policy ROCE on leaf-2 at port Ethernet1 maps DSCP 48 to traffic class 5, but leaf-1 (policy ROCE) to traffic class 6"),
		}},
		{"R4 pass: every switch puts the CNP DSCP on TC 6, the hosts send priority 7 (Juniper's MI300X reference)", func(f *Fabric) {
			f.DCQCN[0].DCQCN.CNPPriority, f.DCQCN[1].DCQCN.CNPPriority = 7, 7
		}, nil},
		{"R4 fail: lossless CNP class", func(f *Fabric) {
			f.DCQCN[0].DCQCN.CNPDSCP, f.DCQCN[1].DCQCN.CNPDSCP = 26, 26
			f.DCQCN[0].DCQCN.CNPPriority, f.DCQCN[1].DCQCN.CNPPriority = 3, 3
		}, []wantFinding{
			errorOn("R4", "leaf-1", "DSCP 26 on priority 3", `class "roce" is not strict priority; class "roce" is lossless`),
			errorOn("R4", "leaf-2", `class "roce" is lossless`),
		}},
		{"R4 fail: one host uses another CNP DSCP", func(f *Fabric) {
			f.DCQCN = append(f.DCQCN, HostDCQCN{"gpu-3", contractDCQCN()})
			f.DCQCN[1].DCQCN.CNPDSCP = 46
		}, []wantFinding{
			errorOn("R4", "gpu-2", "eth0 on gpu-2 sends CNPs with DSCP 46 on priority 6", "2 of 3 DCQCN profiles",
				"eth0 on gpu-1 and eth0 on gpu-3", "Set cnp_dscp = 48 and cnp_priority = 6"),
			errorOn("R4", "leaf-1", "DSCP 46 on priority 6 by eth0 on gpu-2", `class "default" is not strict priority`),
			errorOn("R4", "leaf-2", "DSCP 46 on priority 6 by eth0 on gpu-2"),
		}},
		{"R4 fail: one host uses another CNP priority (tie goes to the lowest)", func(f *Fabric) {
			f.DCQCN[1].DCQCN.CNPPriority = 7
		}, []wantFinding{
			errorOn("R4", "gpu-2", "DSCP 48 on priority 7", "1 of 2 DCQCN profiles (eth0 on gpu-1)", "cnp_priority = 6"),
		}},
		// R5
		{"R5 pass: ECN step on a non-lossless class", func(f *Fabric) {
			policyOf(f, 0, func(p *QoSPolicy) {
				class(p, "default", func(c *Class) {
					c.ECN = &ECN{MinThresholdBytes: 65536, MaxThresholdBytes: 65536, MarkProbabilityPercent: 100}
				})
			})
		}, nil},
		{"R5 fail: lossless class without ECN", func(f *Fabric) {
			policyOf(f, 0, func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.ECN = nil }) })
		}, []wantFinding{
			errorOn("R5", "leaf-1", `Lossless class "roce" (traffic class 3) of leaf-1 (policy ROCE) at port Ethernet1 has no ECN`, "Set ecn"),
		}},
		// A step (Azure Local's NX-OS reference marks at 300/300 KB) is a warning, not an error.
		{"R5 warn: ECN min equal to max", func(f *Fabric) {
			policyOf(f, 1, func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.ECN.MaxThresholdBytes = 153600 }) })
		}, []wantFinding{
			warningOn("R5", "leaf-2", "min_threshold_bytes 153600, not below max_threshold_bytes 153600",
				"Policy validation accepts equal thresholds", "marking ramp"),
		}},
		// R6
		{"R6 pass: DCQCN on more priorities than the lossless ones", func(f *Fabric) {
			f.DCQCN[0].DCQCN.Priorities = []int{3, 4}
		}, nil},
		{"R6 fail: DCQCN misses the lossless priority", func(f *Fabric) { f.DCQCN[1].DCQCN.Priorities = []int{6} }, []wantFinding{
			errorOn("R6", "gpu-2", "The DCQCN profile of eth0 on gpu-2 is enabled on priorities [6]", "lossless traffic class(es) [3]",
				`traffic class 3: class "roce" on leaf-1`, "Add [3] to priorities"),
		}},
		// In lossy RoCE, DCQCN is the only congestion control: it must run on the marked class.
		{"R6 fail: lossy fabric, DCQCN misses the RoCE priority", func(f *Fabric) {
			lossy(f)
			f.DCQCN[1].DCQCN.Priorities = []int{4}
		}, []wantFinding{
			errorOn("R6", "gpu-2", "enabled on priorities [4] but not on traffic class(es) with ECN marking [3]",
				`class "roce" of leaf-1 (policy ROCE)`, "DCQCN is RoCE's only congestion control"),
		}},
		// R7
		{"R7 pass: ECT(1), and NICs without roce_tos", func(f *Fabric) {
			f.NICs[0].NIC.RoCEToS, f.NICs[1].NIC.RoCEToS = Ptr(105), nil
		}, nil},
		{"R7 fail: DSCP outside the lossless class", func(f *Fabric) { f.NICs[1].NIC.RoCEToS = Ptr(42<<2 | 2) }, []wantFinding{
			errorOn("R7", "gpu-2", "roce_tos 170 (DSCP 42)", "not in a lossless class",
				`leaf-1 (policy ROCE), where it falls in class "default" (traffic class 0)`, ", e.g. 106 for DSCP 26, or add DSCP 42"),
		}},
		{"R7 warning: Not-ECT", func(f *Fabric) { f.NICs[0].NIC.RoCEToS = Ptr(104) }, []wantFinding{
			warningOn("R7", "gpu-1", "roce_tos 104", "00 (Not-ECT)", "Set roce_tos = 106"),
		}},
		{"R7 warning: CE", func(f *Fabric) { f.NICs[0].NIC.RoCEToS = Ptr(107) }, []wantFinding{
			warningOn("R7", "gpu-1", "roce_tos 107", "11 (CE)", "Set roce_tos = 106"),
		}},
		{"R7 fail: lossy fabric, RoCE class without ECN", lossyWithoutECN, []wantFinding{
			errorOn("R7", "gpu-1", "class with ECN marking", "no lossless class",
				`on: leaf-1 (policy ROCE), where it falls in class "roce" (traffic class 3); leaf-2 (policy ROCE), where`),
			errorOn("R7", "gpu-2", "class with ECN marking"),
		}},
		// R8
		{"R8 pass: two lossless priorities", func(f *Fabric) {
			for i := range f.Policies {
				policyOf(f, i, func(p *QoSPolicy) {
					p.Classes["storage"] = Class{TrafficClass: 4, DSCP: []int{24}, BandwidthPercent: Ptr(20), Lossless: true,
						ECN: &ECN{MinThresholdBytes: 102400, MaxThresholdBytes: 1024000, MarkProbabilityPercent: 100}}
					class(p, "default", func(c *Class) { c.BandwidthPercent = Ptr(30) })
				})
			}
			for i := range f.NICs {
				f.NICs[i].NIC.PFCPriorities = []int{3, 4}
				f.NICs[i].NIC.DSCPToPriority[24] = 4
				f.DCQCN[i].DCQCN.Priorities = []int{3, 4}
			}
		}, nil},
		{"R8 fail: three lossless priorities over the NICs", func(f *Fabric) {
			*f = Fabric{NICs: f.NICs}
			f.NICs[0].NIC.PFCPriorities = []int{3, 4}
			f.NICs[1].NIC.PFCPriorities = []int{5}
		}, []wantFinding{
			errorOn("R8", "", "3 lossless priorities, [3, 4, 5]", "5 (pfc_priorities of eth0 on gpu-2)", "At most 2"),
		}},
		// R9
		{"R9 fail: PFC on at an unbound port", func(f *Fabric) {
			p := contractPFC()
			p.Interface = "Ethernet9"
			f.PFC = append(f.PFC, SwitchPFC{"leaf-1", p})
		}, []wantFinding{
			errorOn("R9", "leaf-1", "PFC is on at Ethernet9 of leaf-1", "no policy is bound", "Add Ethernet9 to the interfaces"),
		}},
		{"R9 fail: link pause with PFC on", func(f *Fabric) { f.PFC[1].PFC.LinkPause = true }, []wantFinding{
			errorOn("R9", "leaf-2", "Ethernet1 of leaf-2 has PFC mode on together with link_pause", "Set link_pause = false"),
		}},
		{"R9 warning: lossless ports without PFC on", func(f *Fabric) {
			policyOf(f, 0, func(p *QoSPolicy) { p.Interfaces = []string{"Ethernet1", "Ethernet4", "Ethernet3", "Ethernet2"} })
			for ifc, mode := range map[string]string{"Ethernet3": PFCModeOff, "Ethernet4": PFCModeAuto} {
				p := contractPFC()
				p.Interface, p.Mode = ifc, mode
				f.PFC = append(f.PFC, SwitchPFC{"leaf-1", p})
			}
		}, []wantFinding{
			warningOn("R9", "leaf-1", "bound to lossless policy ROCE",
				"Ethernet2 (no PFC settings), Ethernet3 (mode off) and Ethernet4 (mode auto, on only if DCBX negotiates it)",
				`mode = "on"`),
		}},
		{"R9 pass: PFC off, even with link pause, on an unbound port", func(f *Fabric) {
			p := contractPFC()
			p.Interface, p.Mode, p.LinkPause = "Ethernet48", PFCModeOff, true
			f.PFC = append(f.PFC, SwitchPFC{"leaf-1", p})
		}, nil},
		// R10
		{"R10 pass: switches differ on a strict class that carries no CNP", func(f *Fabric) {
			policyOf(f, 1, func(p *QoSPolicy) { p.Classes["mgmt"] = Class{TrafficClass: 7, DSCP: []int{56}, StrictPriority: true} })
			for i := range f.NICs {
				f.NICs[i].NIC.DSCPToPriority[56] = 7
			}
		}, nil},
		{"R10 fail: without DCQCN every strict class counts as CNP class", func(f *Fabric) {
			f.DCQCN = nil
			policyOf(f, 1, func(p *QoSPolicy) { p.Classes["mgmt"] = Class{TrafficClass: 7, DSCP: []int{56}, StrictPriority: true} })
			for i := range f.NICs {
				f.NICs[i].NIC.DSCPToPriority[56] = 7
			}
		}, []wantFinding{
			errorOn("R10", "leaf-2", "maps DSCP 56 to traffic class 7, but leaf-1 (policy ROCE) to traffic class 0"),
		}},
		{"R10 fail: the odd switch out of three", func(f *Fabric) {
			f.Policies = append(f.Policies, SwitchPolicy{"leaf-3", refPolicy()})
			f.PFC = append(f.PFC, SwitchPFC{"leaf-3", contractPFC()})
			policyOf(f, 2, func(p *QoSPolicy) { class(p, "roce", func(c *Class) { c.DSCP = []int{24} }) })
		}, []wantFinding{
			errorOn("R7", "gpu-1", "DSCP 26", `leaf-3 (policy ROCE), where it falls in class "default" (traffic class 0)`),
			errorOn("R7", "gpu-2", "DSCP 26"),
			errorOn("R10", "leaf-3", "Policy ROCE on leaf-3 at port Ethernet1 maps DSCP 24 to traffic class 3, but leaf-1 (policy ROCE) and "+
				"leaf-2 (policy ROCE) to traffic class 0; DSCP 26 to traffic class 0, but", "to traffic class 3. Lossless"),
		}},
		// R11
		{"R11 warning: lossless port without watchdog", func(f *Fabric) { f.PFC[0].PFC.Watchdog = nil }, []wantFinding{
			warningOn("R11", "leaf-1", "Lossless ports Ethernet1 of leaf-1", "no PFC watchdog", `action = "drop"`),
		}},
		{"R11 pass: no watchdog where PFC is off", func(f *Fabric) {
			f.PFC[0].PFC.Watchdog, f.PFC[0].PFC.Mode = nil, PFCModeOff
		}, []wantFinding{
			warningOn("R9", "leaf-1", "Ethernet1 (mode off)"),
		}},
	}, func(t *testing.T, c checkCase, got []Finding) {
		wantOK := true
		for _, w := range c.want {
			wantOK = wantOK && w.severity != SeverityError
		}
		if OK(got) != wantOK {
			t.Errorf("OK = %v, want %v", OK(got), wantOK)
		}
	})
}
