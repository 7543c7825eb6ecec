package fabric

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// SwitchPolicy is a roce_qos_policy on a switch, as roce_fabric_check receives it.
type SwitchPolicy struct {
	Device string
	Policy QoSPolicy
}

// SwitchPFC is a roce_pfc_interface on a switch port.
type SwitchPFC struct {
	Device string
	PFC    PFCInterface
}

// HostNIC is a roce_nic_qos on a host.
type HostNIC struct {
	Device string
	NIC    NICQoS
}

// HostDCQCN is a roce_dcqcn_profile on a host.
type HostDCQCN struct {
	Device string
	DCQCN  DCQCN
}

// Fabric is everything roce_fabric_check compares: the intents of many devices at once. Each
// element is expected to pass its own Validate; Check looks only at how they fit together.
type Fabric struct {
	Policies []SwitchPolicy
	PFC      []SwitchPFC
	NICs     []HostNIC
	DCQCN    []HostDCQCN
	// Links, when given, add the per-link rules (R12-R17) on those cables.
	Links []Link
}

// Severities of a Finding.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Finding is one inconsistency between devices. Rule is "R1".."R11" (see Check); Device is the
// device to change, or "" when the finding is about the fabric as a whole (R8).
type Finding struct {
	Severity string
	Rule     string
	Device   string
	Message  string
}

// Check compares the devices of f with each other and returns one finding per violated rule
// instance, ordered by rule number, then device, then message. The rules:
//
//	R1  error   each NIC's pfc_priorities equal the switches' lossless traffic classes
//	R2  error   a trust-dscp NIC maps every DSCP of a switch class to that class's traffic class
//	R3  error   NIC trust matches switch trust (a dscp_pcp switch accepts either)
//	R4  error   CNP DSCP lands in a strict, non-lossless class on every switch (by DSCP: the
//	            switch never sees the CNP's priority on a routed link); every host uses the
//	            same cnp_dscp and cnp_priority
//	R5  error   lossless classes have ECN (warning: min_threshold_bytes not below the maximum, a
//	            step, which vendor references use but DCQCN likes least)
//	R6  error   DCQCN runs on every lossless priority (no lossless class: on every priority of a
//	            class with ECN marking)
//	R7  error   roce_tos carries a lossless class's DSCP (warning: its ECN bits are not ECT)
//	R8  error   at most 2 lossless priorities fabric-wide
//	R9  error   PFC on only on ports bound to a lossless policy, never with link pause
//	            (warning: a lossless port without PFC on)
//	R10 error   switches agree on DSCP -> traffic class for the lossless and CNP classes
//	R11 warning a lossless port has no PFC watchdog
//
// With links (each cable's two ends, e.g. from roce_fabric_links), per link:
//
//	R12 error   one end carries RoCE configuration and the other has none
//	R13 error   the ends trust different fields (dscp_pcp accepts either)
//	R14 error   a RoCE or CNP DSCP of either end gets another priority at the other end
//	R15 error   the ends' no-drop priorities differ, or a lossless switch port has no PFC on (warning: mode auto)
//	            (on a switch-to-switch link: the uplink rule)
//	R16 error   a lossless class's MTU differs between two switch ends
//	R17 error   a switch port toward a DCQCN NIC has no ECN on a DCQCN priority's class
//
// Rules comparing switches with hosts run only when both are given, so a fabric with only
// switches is checked by the switch rules alone and empty inputs produce no findings (R9's
// "PFC on an unbound port" needs at least one policy too). DSCP rules (R2, R4, R7, R10) look
// only at policies that classify on DSCP (trust dscp or dscp_pcp): a trust-pcp switch never
// reads the DSCP. Every policy given is taken to carry RoCE, so pass the RoCE policies only.
//
// Findings name the device to change: the host for R1, R2, R3, R6, R7 and a host whose CNP
// setting differs from the most common one (R4; ties go to the lowest DSCP, then priority);
// the switch for R4 (one finding per switch and CNP setting, naming the hosts), R5, R9, R10
// and R11 (R9's missing-PFC warning and R11 list all ports of a switch in one finding); ""
// for R8, which is about the fabric as a whole. The inputs are not modified.
//
// Policies of one device that are identical but for their ports count as one policy bound to
// all of them (roce_fabric_audit reads a policy per port): each finding about it is stated once,
// and one about the policy itself (R4's switch half, R5, R10) names its ports, e.g. "at ports
// Ethernet0, Ethernet4, Ethernet8, Ethernet12, ... (8 ports)". A traffic class or priority below
// 0 is one a device read could not tell (a DSCP a partial map leaves out, a CNP priority not in
// effect): findings call it unmapped or "no cnp_priority in effect", and R10 never takes it as
// the reference.
func Check(f Fabric) []Finding {
	c := newChecker(f)
	for _, rule := range []func(){
		c.r1PFCPriorities, c.r2DSCPMap, c.r3Trust, c.r4CNP, c.r5ECN, c.r6DCQCNPriorities,
		c.r7RoCEToS, c.r8LosslessCount, c.r9PFCPorts, c.r10SwitchAgreement, c.r11Watchdog, c.linkRules,
	} {
		rule()
	}
	slices.SortFunc(c.out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(ruleNumber(a.Rule), ruleNumber(b.Rule)),
			cmp.Compare(a.Device, b.Device), cmp.Compare(a.Message, b.Message))
	})
	return c.out
}

// OK reports whether findings hold no error (warnings do not fail a plan).
func OK(findings []Finding) bool {
	return !slices.ContainsFunc(findings, func(f Finding) bool { return f.Severity == SeverityError })
}

func ruleNumber(rule string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(rule, "R"))
	if err != nil {
		return 1 << 30
	}
	return n
}

// checker holds the fabric in a deterministic order plus what several rules derive from it.
type checker struct {
	policies []SwitchPolicy // by device, then policy name
	pfc      []SwitchPFC    // by device, then interface
	nics     []HostNIC      // by device, then interface
	dcqcn    []HostDCQCN    // by device, then interface
	links    []Link         // canonical, sorted, unique
	// lossless maps each lossless traffic class of any policy to where it comes from.
	lossless map[int][]string
	out      []Finding
}

func newChecker(f Fabric) *checker {
	c := &checker{
		policies: slices.Clone(f.Policies), pfc: slices.Clone(f.PFC),
		nics: slices.Clone(f.NICs), dcqcn: slices.Clone(f.DCQCN),
		lossless: map[int][]string{},
	}
	for _, l := range f.Links {
		if l = canonicalLink(l); !slices.Contains(c.links, l) {
			c.links = append(c.links, l)
		}
	}
	slices.SortFunc(c.links, compareLinks)
	slices.SortStableFunc(c.policies, func(a, b SwitchPolicy) int {
		return cmp.Or(cmp.Compare(a.Device, b.Device), cmp.Compare(a.Policy.Name, b.Policy.Name))
	})
	c.policies = groupPolicies(c.policies)
	slices.SortStableFunc(c.pfc, func(a, b SwitchPFC) int {
		return cmp.Or(cmp.Compare(a.Device, b.Device), cmp.Compare(a.PFC.Interface, b.PFC.Interface))
	})
	slices.SortStableFunc(c.nics, func(a, b HostNIC) int {
		return cmp.Or(cmp.Compare(a.Device, b.Device), cmp.Compare(a.NIC.Interface, b.NIC.Interface))
	})
	slices.SortStableFunc(c.dcqcn, func(a, b HostDCQCN) int {
		return cmp.Or(cmp.Compare(a.Device, b.Device), cmp.Compare(a.DCQCN.Interface, b.DCQCN.Interface))
	})
	for _, sp := range c.policies {
		for _, name := range sp.Policy.ClassNames() {
			if cl := sp.Policy.Classes[name]; cl.Lossless {
				c.lossless[cl.TrafficClass] = appendUnique(c.lossless[cl.TrafficClass],
					fmt.Sprintf("class %q on %s", name, sp.Device))
			}
		}
	}
	return c
}

// groupPolicies merges the policies of one device that are identical but for their ports into
// one bound to all their ports (in port order). roce_fabric_audit reads one policy per port,
// since ports under one device object can differ (a port's own PFC priorities or queue
// schedulers), so a stock map bound to 32 ports arrives as 32 policies: without grouping every
// finding about it would be stated 32 times, and R10 would count its majority in ports rather
// than in policies. Ports that differ stay apart, each group naming its ports. The input's
// slices are not modified. in is sorted by device, so only the current device's groups are
// searched.
func groupPolicies(in []SwitchPolicy) []SwitchPolicy {
	var out []SwitchPolicy
	start := 0 // the current device's first group in out
	for _, sp := range in {
		if len(out) > 0 && out[len(out)-1].Device != sp.Device {
			start = len(out)
		}
		if i := slices.IndexFunc(out[start:], func(o SwitchPolicy) bool { return samePolicyButPorts(o.Policy, sp.Policy) }); i >= 0 {
			g := &out[start+i].Policy
			g.Interfaces = append(g.Interfaces, sp.Policy.Interfaces...)
			continue
		}
		sp.Policy.Interfaces = slices.Clone(sp.Policy.Interfaces) // appended to above: not the caller's array
		out = append(out, sp)
	}
	for i := range out {
		out[i].Policy.Interfaces = SortedPorts(out[i].Policy.Interfaces)
	}
	return out
}

func samePolicyButPorts(a, b QoSPolicy) bool {
	a.Interfaces, b.Interfaces = nil, nil
	return a.Equal(b)
}

func (c *checker) add(severity, rule, device, format string, args ...any) {
	c.out = append(c.out, Finding{Severity: severity, Rule: rule, Device: device, Message: fmt.Sprintf(format, args...)})
}

// losslessTCs returns the lossless traffic classes of all policies, sorted.
func (c *checker) losslessTCs() []int { return slices.Sorted(maps.Keys(c.lossless)) }

// losslessSources describes where the lossless traffic classes come from.
func (c *checker) losslessSources() string {
	var parts []string
	for _, tc := range c.losslessTCs() {
		parts = append(parts, fmt.Sprintf("traffic class %d: %s", tc, summarize(c.lossless[tc])))
	}
	return strings.Join(parts, "; ")
}

// marked returns, by traffic class, the policies with a non-strict class marking ECN there
// (the RoCE classes of a lossy fabric).
func (c *checker) marked() map[int][]string {
	out := map[int][]string{}
	for _, sp := range c.policies {
		for _, name := range sp.Policy.ClassNames() {
			if cl := sp.Policy.Classes[name]; cl.ECN != nil && !cl.StrictPriority {
				out[cl.TrafficClass] = appendUnique(out[cl.TrafficClass], fmt.Sprintf("class %q of %s", name, policyLabel(sp)))
			}
		}
	}
	return out
}

// markedTCs are the traffic classes of marked, sorted.
func (c *checker) markedTCs() []int { return slices.Sorted(maps.Keys(c.marked())) }

// markedSources describes where the ECN-marked traffic classes come from.
func (c *checker) markedSources() string {
	m := c.marked()
	var parts []string
	for _, tc := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("traffic class %d: %s", tc, summarize(m[tc])))
	}
	return strings.Join(parts, "; ")
}

// dscpPolicies returns the policies that classify on DSCP.
func (c *checker) dscpPolicies() []SwitchPolicy {
	var out []SwitchPolicy
	for _, sp := range c.policies {
		if sp.Policy.Trust == TrustDSCP || sp.Policy.Trust == TrustDSCPPCP {
			out = append(out, sp)
		}
	}
	return out
}

// classOfDSCP returns the class DSCP d lands in on p (listed DSCPs go to their class, others to
// default_traffic_class), with ok false when no class uses that traffic class.
func classOfDSCP(p QoSPolicy, d int) (tc int, name string, cl Class, ok bool) {
	if d < 0 || d > MaxDSCP {
		return p.DefaultTrafficClass, "", Class{}, false
	}
	tc = p.DSCPMap()[d]
	name, cl, ok = p.ClassByTC(tc)
	return tc, name, cl, ok
}

// describeLanding says where DSCP d lands on p, e.g. `class "default" (traffic class 0)`.
func describeLanding(p QoSPolicy, d int) string {
	tc, name, _, ok := classOfDSCP(p, d)
	if !ok {
		if tc < 0 {
			return "no traffic class (the policy does not map it)"
		}
		return fmt.Sprintf("traffic class %d, which no class of the policy uses", tc)
	}
	return fmt.Sprintf("class %q (traffic class %d)", name, tc)
}

// policyLabel names a policy where a finding lists several switches: "leaf-1 (policy ROCE)".
func policyLabel(sp SwitchPolicy) string {
	return fmt.Sprintf("%s (policy %s)", sp.Device, sp.Policy.Name)
}

// policyPortsLabel names a policy and its ports, for a finding about that policy itself (the
// switch to change): "sonic-1 (policy AZURE) at ports Ethernet0, Ethernet4, Ethernet8,
// Ethernet12, ... (8 ports)". The ports also tell apart policies of one device that share a
// name but not their settings (see groupPolicies).
func policyPortsLabel(sp SwitchPolicy) string { return policyLabel(sp) + atPorts(sp.Policy.Interfaces) }

// atPorts is " at port Ethernet1", " at ports Ethernet0 and Ethernet4", or "" without ports.
func atPorts(ports []string) string {
	switch len(ports) {
	case 0:
		return ""
	case 1:
		return " at port " + ports[0]
	}
	return " at ports " + portList(ports)
}

// portList names ports in port order: all of them up to four, else the first four and how many
// there are ("Ethernet0, Ethernet4, Ethernet8, Ethernet12, ... (8 ports)"), so a finding about
// a whole switch stays readable.
func portList(ports []string) string {
	const show = 4
	ports = SortedPorts(ports)
	if len(ports) <= show {
		return joinAnd(ports)
	}
	return fmt.Sprintf("%s, ... (%d ports)", strings.Join(ports[:show], ", "), len(ports))
}

// A traffic class or priority below 0 is one a device read could not tell: the platforms' reads
// report -1 (their Unknown) for a DSCP a partial map leaves out or a CNP priority that is not in
// effect. Findings say so in words; -1 means nothing to a user.

// toTC says where a DSCP goes: "to traffic class 3", or "to no traffic class (unmapped)".
func toTC(tc int) string {
	if tc < 0 {
		return "to no traffic class (unmapped)"
	}
	return fmt.Sprintf("to traffic class %d", tc)
}

// cnpSetting describes a CNP DSCP and priority: "DSCP 48 on priority 6", or "DSCP 48 (no
// cnp_priority in effect)" where the host read says its configured CNP priority is not in
// effect (as on a NIC just rebooted), and "an unread CNP DSCP".
func cnpSetting(k cnpKey) string {
	dscp := fmt.Sprintf("DSCP %d", k.dscp)
	if k.dscp < 0 {
		dscp = "an unread CNP DSCP"
	}
	if k.prio < 0 {
		return dscp + " (no cnp_priority in effect)"
	}
	return fmt.Sprintf("%s on priority %d", dscp, k.prio)
}

func hostLabel(device, iface string) string { return fmt.Sprintf("%s on %s", iface, device) }

func hasLossless(p QoSPolicy) bool {
	for _, cl := range p.Classes {
		if cl.Lossless {
			return true
		}
	}
	return false
}

// intList renders a set of ints as HCL would: [3, 4]; [] when empty.
func intList(vs []int) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.Itoa(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// summarize joins names, naming at most four and counting the rest, so a finding about a large
// fabric stays readable.
func summarize(names []string) string {
	const show = 4
	if len(names) <= show {
		return joinAnd(names)
	}
	return joinAnd(append(slices.Clone(names[:show]), fmt.Sprintf("%d more", len(names)-show)))
}

func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// setDiff returns the elements of a not in b, sorted.
func setDiff(a, b []int) []int {
	var out []int
	for _, v := range SortedSet(a) {
		if !slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}
