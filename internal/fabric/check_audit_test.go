package fabric

import (
	"fmt"
	"maps"
	"regexp"
	"strings"
	"testing"
)

// Fabrics shaped as roce_fabric_audit reads them: one policy per switch port, named after the
// device's own object, and numbers a read could not tell as -1.

// stockSONiC is the lab's stock SONiC switch as the audit reads it: the AZURE map bound to 8
// ports, each its own policy, TC 3 and 4 lossless with ECN, the CNP DSCP 48 on TC 6 (not
// strict), PFC on without a watchdog.
func stockSONiC() ([]SwitchPolicy, []SwitchPFC) {
	var sps []SwitchPolicy
	var pfcs []SwitchPFC
	ecn := &ECN{MinThresholdBytes: 1048576, MaxThresholdBytes: 2097152, MarkProbabilityPercent: 5}
	for port := 0; port < 32; port += 4 {
		iface := fmt.Sprintf("Ethernet%d", port)
		sps = append(sps, SwitchPolicy{"sonic-1", QoSPolicy{Name: "AZURE", Trust: TrustDSCP, Interfaces: []string{iface},
			Classes: map[string]Class{
				"tc0": {TrafficClass: 0, DSCP: []int{0}, BandwidthPercent: Ptr(50)},
				"tc3": {TrafficClass: 3, DSCP: []int{3}, BandwidthPercent: Ptr(25), Lossless: true, ECN: ecn},
				"tc4": {TrafficClass: 4, DSCP: []int{4}, BandwidthPercent: Ptr(25), Lossless: true, ECN: ecn},
				"tc6": {TrafficClass: 6, DSCP: []int{46, 48}, BandwidthPercent: Ptr(0)},
			}}})
		pfcs = append(pfcs, SwitchPFC{"sonic-1", PFCInterface{Interface: iface, Mode: PFCModeOn}})
	}
	return sps, pfcs
}

// freshHost is a never-configured mlx5 host as the audit reads it: DCQCN on every priority,
// CNP DSCP 48, and np_cnp_prio not in effect (cnp_priority -1).
func freshHost(device string) HostDCQCN {
	return HostDCQCN{device, DCQCN{Interface: "eth0", Priorities: []int{0, 1, 2, 3, 4, 5, 6, 7}, CNPDSCP: 48, CNPPriority: -1}}
}

// minusOne is a -1 standing as a number ("priority -1", "= -1"), not a device name's "sonic-1".
var minusOne = regexp.MustCompile(`(^|[^\w-])-1\b`)

// noMinusOne fails on a finding that shows a read's -1 to the user.
func noMinusOne(t *testing.T, got []Finding) {
	t.Helper()
	for _, f := range got {
		if minusOne.MatchString(f.Message) {
			t.Errorf("%s %s shows -1:\n%s", f.Rule, f.Device, f.Message)
		}
	}
}

// The lab's stock SONiC switch bound on 8 ports: each finding about AZURE is stated once, with
// its ports, and a CNP priority that is not in effect reads as such.
func TestCheckPerPortPoliciesStatedOnce(t *testing.T) {
	sps, pfcs := stockSONiC()
	f := Fabric{Policies: sps, PFC: pfcs,
		NICs:  []HostNIC{{"mlx5-1", NICQoS{Interface: "eth0", Trust: TrustPCP}}},
		DCQCN: []HostDCQCN{freshHost("mlx5-1"), freshHost("mlx5-2")}}
	got := Check(f)
	const ports = "Ethernet0, Ethernet4, Ethernet8, Ethernet12, ... (8 ports)"
	assertFindings(t, got, []wantFinding{
		errorOn("R1", "mlx5-1", "pfc_priorities [], but the switches' lossless traffic classes are [3, 4]"),
		errorOn("R3", "mlx5-1", "NIC eth0 on mlx5-1 trusts pcp, but sonic-1 (policy AZURE) trusts dscp. Set trust"),
		errorOn("R4", "sonic-1", "CNPs sent with DSCP 48 (no cnp_priority in effect) by eth0 on mlx5-1 and eth0 on mlx5-2",
			"for DSCP 48 on sonic-1 (policy AZURE) at ports "+ports+", but class \"tc6\" is not strict priority."),
		warningOn("R11", "sonic-1", "Lossless ports Ethernet0, Ethernet4, Ethernet8, Ethernet12, Ethernet16, Ethernet20, "+
			"Ethernet24 and Ethernet28 of sonic-1"),
	})
	noMinusOne(t, got)
	if n := strings.Count(got[1].Message, "sonic-1 (policy AZURE)"); n != 1 {
		t.Errorf("R3 names AZURE %d times, want once:\n%s", n, got[1].Message)
	}
}

// A port whose settings differ from the rest under the same name (here its own PFC priorities)
// stays a policy of its own: the findings tell the two apart by their ports.
func TestCheckPerPortPoliciesThatDiffer(t *testing.T) {
	sps, pfcs := stockSONiC()
	last := &sps[len(sps)-1].Policy
	last.Classes = maps.Clone(last.Classes)
	class(last, "tc3", func(c *Class) { c.ECN = nil })
	got := Check(Fabric{Policies: sps, PFC: pfcs, DCQCN: []HostDCQCN{freshHost("mlx5-1")}})
	assertFindings(t, got, []wantFinding{
		errorOn("R4", "sonic-1", "on sonic-1 (policy AZURE) at port Ethernet28, but"),
		errorOn("R4", "sonic-1", "on sonic-1 (policy AZURE) at ports Ethernet0, Ethernet4, Ethernet8, Ethernet12, ... (7 ports), but"),
		errorOn("R5", "sonic-1", `Lossless class "tc3" (traffic class 3) of sonic-1 (policy AZURE) at port Ethernet28 has no ECN`),
		warningOn("R11", "sonic-1", "Lossless ports Ethernet0, Ethernet4"),
	})
	noMinusOne(t, got)
}

// R10's reference is the traffic class most policies use: a switch whose map is bound to many
// ports counts once, as its roce_qos_policy would in roce_fabric_check.
func TestCheckR10CountsPoliciesNotPorts(t *testing.T) {
	sps, _ := stockSONiC() // DSCP 3 on TC 3
	other := func(device string) SwitchPolicy {
		sp := sps[0]
		sp.Device = device
		sp.Policy.Classes = map[string]Class{"tc0": sp.Policy.Classes["tc0"], "tc4": sp.Policy.Classes["tc4"],
			"tc3": {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: Ptr(25), Lossless: true, ECN: sp.Policy.Classes["tc3"].ECN},
			"tc6": sp.Policy.Classes["tc6"]}
		return sp
	}
	pfcs := []SwitchPFC{}
	for _, sp := range append(sps, other("sonic-2"), other("sonic-3")) {
		wd := &PFCWatchdog{Action: "drop", DetectionTimeMs: 200, RestorationTimeMs: 400}
		pfcs = append(pfcs, SwitchPFC{sp.Device, PFCInterface{Interface: sp.Policy.Interfaces[0], Mode: PFCModeOn, Watchdog: wd}})
	}
	got := Check(Fabric{Policies: append(sps, other("sonic-2"), other("sonic-3")), PFC: pfcs})
	assertFindings(t, got, []wantFinding{
		errorOn("R10", "sonic-1", "Policy AZURE on sonic-1 at ports Ethernet0, Ethernet4, Ethernet8, Ethernet12, ... (8 ports) maps "+
			"DSCP 3 to traffic class 3, but sonic-2 (policy AZURE) and sonic-3 (policy AZURE) to traffic class 0; "+
			"DSCP 26 to traffic class 0, but sonic-2 (policy AZURE) and sonic-3 (policy AZURE) to traffic class 3."),
	})
}

// cumulusPartial is a Cumulus switch as the audit reads it: swp1 binds the operator's mapping
// GPU, which lists DSCP 26 and 48 only (a partial map: the other DSCPs read as traffic class
// -1), swp2 the default-global profiles with DSCP 24-31 on the lossless TC 3. gpu-1 on swp1
// trusts DSCP and maps 24-31 to priority 3.
func cumulusPartial() Fabric {
	ecn := &ECN{MinThresholdBytes: 153600, MaxThresholdBytes: 1536000, MarkProbabilityPercent: 100}
	gpu := QoSPolicy{Name: "GPU", Trust: TrustDSCP, DefaultTrafficClass: -1, Interfaces: []string{"swp1"},
		Classes: map[string]Class{
			"tc0": {TrafficClass: 0, BandwidthPercent: Ptr(50)},
			"tc3": {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: Ptr(50), Lossless: true, ECN: ecn},
			"tc6": {TrafficClass: 6, DSCP: []int{48}, StrictPriority: true},
		}}
	global := QoSPolicy{Name: "default-global", Trust: TrustDSCP, Interfaces: []string{"swp2"},
		Classes: map[string]Class{
			"tc0": {TrafficClass: 0, BandwidthPercent: Ptr(50)},
			"tc3": {TrafficClass: 3, DSCP: []int{24, 25, 26, 27, 28, 29, 30, 31}, BandwidthPercent: Ptr(50), Lossless: true, ECN: ecn},
			"tc6": {TrafficClass: 6, DSCP: []int{48}, StrictPriority: true},
		}}
	nic := NICQoS{Interface: "eth0", Trust: TrustDSCP, PFCPriorities: []int{3}, DSCPToPriority: map[int]int{48: 6}}
	for d := 24; d <= 31; d++ {
		nic.DSCPToPriority[d] = 3
	}
	wd := &PFCWatchdog{Action: "drop", DetectionTimeMs: 200, RestorationTimeMs: 400}
	return Fabric{
		Policies: []SwitchPolicy{{"cumulus-1", gpu}, {"cumulus-1", global}},
		PFC: []SwitchPFC{{"cumulus-1", PFCInterface{Interface: "swp1", Mode: PFCModeOn, Watchdog: wd}},
			{"cumulus-1", PFCInterface{Interface: "swp2", Mode: PFCModeOn, Watchdog: wd}}},
		NICs:  []HostNIC{{"gpu-1", nic}},
		DCQCN: []HostDCQCN{{"gpu-1", DCQCN{Interface: "eth0", Priorities: []int{3}, CNPDSCP: 48, CNPPriority: 6}}},
		Links: []Link{{ADevice: "cumulus-1", AInterface: "swp1", BDevice: "gpu-1", BInterface: "eth0"}},
	}
}

// A DSCP a partial map leaves out reads as unmapped in every rule that names its traffic class,
// never as -1, and is never the traffic class R10 tells the other policies to follow; R10
// states the DSCPs that differ alike once.
func TestCheckUnmappedDSCP(t *testing.T) {
	checkEdits(t, cumulusPartial, []checkCase{
		{"R10: the map leaves lossless DSCPs out", func(*Fabric) {}, []wantFinding{
			errorOn("R10", "cumulus-1", "Policy GPU on cumulus-1 at port swp1 maps DSCPs 24, 25, 27, 28, 29, 30 and 31 to no traffic "+
				"class (unmapped), but cumulus-1 (policy default-global) to traffic class 3. Lossless"),
		}},
		{"R2: the switches disagree and the NIC follows neither", func(f *Fabric) {
			f.NICs[0].NIC.DSCPToPriority[24] = 5
			f.Links = nil
		}, []wantFinding{
			errorOn("R2", "gpu-1", "DSCP 24 goes to priority 5, which matches no switch, and the switches disagree: "+
				`unmapped (policy GPU on cumulus-1) vs traffic class 3 (class "tc3" on cumulus-1)`),
			errorOn("R10", "cumulus-1", "maps DSCPs 24, 25, 27, 28, 29, 30 and 31 to no traffic class (unmapped)"),
		}},
		{"R4, R7, R14: the CNP and RoCE DSCPs unmapped at swp1", func(f *Fabric) {
			f.Policies, f.PFC = f.Policies[:1], f.PFC[:1]
			f.NICs[0].NIC.DSCPToPriority = map[int]int{24: 3, 26: 3, 46: 6, 48: 6}
			f.NICs[0].NIC.RoCEToS = Ptr(24<<2 | 2)
			f.DCQCN[0].DCQCN.CNPDSCP = 46
		}, []wantFinding{
			errorOn("R4", "cumulus-1", "CNPs sent with DSCP 46 on priority 6 by eth0 on gpu-1",
				"but the policy does not map DSCP 46 to any traffic class."),
			errorOn("R7", "gpu-1", "cumulus-1 (policy GPU), where it falls in no traffic class (the policy does not map it)."),
			errorOn("R14", "cumulus-1", "DSCP 24 goes to no traffic class (unmapped) at cumulus-1 swp1 but to 3 at gpu-1 eth0; "+
				"DSCP 46 goes to no traffic class (unmapped) at cumulus-1 swp1 but to 6 at gpu-1 eth0. Map"),
		}},
	}, func(t *testing.T, _ checkCase, got []Finding) { noMinusOne(t, got) })
}

// Hosts whose CNP priority is not in effect: R4's host half names the setting in words and
// does not advise cnp_priority = -1.
func TestCheckR4CNPPriorityNotSet(t *testing.T) {
	f := refFabric()
	f.DCQCN = append(f.DCQCN, HostDCQCN{"gpu-3", contractDCQCN()})
	f.DCQCN[0].DCQCN.CNPPriority, f.DCQCN[1].DCQCN.CNPPriority = -1, -1
	got := Check(f)
	assertFindings(t, got, []wantFinding{
		errorOn("R4", "gpu-3", "sends CNPs with DSCP 48 on priority 6, but 2 of 3 DCQCN profiles (eth0 on gpu-1 and eth0 on gpu-2) "+
			"use DSCP 48 (no cnp_priority in effect)", "Set cnp_dscp = 48 and the same cnp_priority on every host"),
	})
	noMinusOne(t, got)
}
