package fabric

import (
	"fmt"
	"slices"
	"strings"
)

// Per-link rules (R12-R17): they run only on the links given, comparing the two ends of each
// cable instead of every NIC with the union of all switches. Real RoCE failures are per link and
// often on a port nobody declared: an uplink without PFC, a NIC cabled to a leaf with another
// policy. Each finding names both ends; its device is the end to change where one end is at
// fault, else the link's A end.

// linkEnd is what the check knows of one end of a link.
type linkEnd struct {
	device, iface string
	isSwitch      bool // the device has switch resources in the check
	isHost        bool // the device has host resources in the check
	policy        *SwitchPolicy
	pfc           *PFCInterface
	nic           *NICQoS
	dcqcn         *DCQCN
}

func (e linkEnd) label() string { return fmt.Sprintf("%s %s", e.device, e.iface) }

// configured reports whether the end carries any RoCE configuration of its own.
func (e linkEnd) configured() bool { return e.policy != nil || e.nic != nil }

// classifiesDSCP reports whether the end reads the DSCP of IP packets.
func (e linkEnd) classifiesDSCP() bool {
	switch {
	case e.policy != nil:
		return e.policy.Policy.Trust == TrustDSCP || e.policy.Policy.Trust == TrustDSCPPCP
	case e.nic != nil:
		return e.nic.Trust == TrustDSCP
	}
	return false
}

func (e linkEnd) trust() Trust {
	if e.policy != nil {
		return e.policy.Policy.Trust
	}
	return e.nic.Trust
}

// priorityOf is the priority (switch: traffic class) DSCP d gets at this end.
func (e linkEnd) priorityOf(d int) int {
	if e.policy != nil {
		return e.policy.Policy.DSCPMap()[d]
	}
	return e.nic.DSCPToPriority[d] // unlisted: priority 0
}

// toPriority says where a DSCP goes at a link end: "to 3", or "to no traffic class (unmapped)"
// where a switch's map read back leaves it out.
func toPriority(p int) string {
	if p < 0 {
		return toTC(p)
	}
	return fmt.Sprintf("to %d", p)
}

// lossless is the end's no-drop priorities: a switch policy's lossless traffic classes, a NIC's
// pfc_priorities.
func (e linkEnd) lossless() []int {
	if e.nic != nil {
		return SortedSet(e.nic.PFCPriorities)
	}
	var out []int
	for _, cl := range e.policy.Policy.Classes {
		if cl.Lossless {
			out = append(out, cl.TrafficClass)
		}
	}
	return SortedSet(out)
}

// pfcOn reports whether the end sends and honours PFC: a NIC with PFC priorities, a switch port
// whose PFC is on or auto (auto: if DCBX negotiates it; R15 warns).
func (e linkEnd) pfcOn() bool {
	if e.nic != nil {
		return len(e.nic.PFCPriorities) > 0
	}
	return e.pfc != nil && e.pfc.Mode != PFCModeOff && !e.pfc.LinkPause
}

// roceDSCPs are the DSCPs this end says RoCE and its CNPs travel with: a switch policy's
// lossless classes (in a policy without lossless classes, its non-strict classes with ECN) and
// strict classes; a NIC's roce_tos DSCP and its DCQCN profile's cnp_dscp.
func (e linkEnd) roceDSCPs() []int {
	var out []int
	if e.policy != nil {
		p := e.policy.Policy
		lossless := hasLossless(p)
		for _, name := range p.ClassNames() {
			cl := p.Classes[name]
			if cl.StrictPriority || cl.Lossless || (!lossless && cl.ECN != nil) {
				out = append(out, cl.DSCP...)
			}
		}
	}
	if e.nic != nil && e.nic.RoCEToS != nil {
		out = append(out, *e.nic.RoCEToS>>2)
	}
	if e.dcqcn != nil {
		out = append(out, e.dcqcn.CNPDSCP)
	}
	return SortedSet(out)
}

// end collects what the check has for device/iface.
func (c *checker) end(device, iface string) linkEnd {
	e := linkEnd{device: device, iface: iface}
	for i := range c.policies {
		if c.policies[i].Device != device {
			continue
		}
		e.isSwitch = true
		if e.policy == nil && slices.Contains(c.policies[i].Policy.Interfaces, iface) {
			e.policy = &c.policies[i]
		}
	}
	for i := range c.pfc {
		if c.pfc[i].Device == device {
			e.isSwitch = true
			if c.pfc[i].PFC.Interface == iface {
				e.pfc = &c.pfc[i].PFC
			}
		}
	}
	for i := range c.nics {
		if c.nics[i].Device == device {
			e.isHost = true
			if c.nics[i].NIC.Interface == iface {
				e.nic = &c.nics[i].NIC
			}
		}
	}
	for i := range c.dcqcn {
		if c.dcqcn[i].Device == device {
			e.isHost = true
			if c.dcqcn[i].DCQCN.Interface == iface {
				e.dcqcn = &c.dcqcn[i].DCQCN
			}
		}
	}
	return e
}

// missing says what an unconfigured end lacks.
func (e linkEnd) missing() string {
	switch {
	case e.isSwitch:
		return "no QoS policy bound to that port (roce_qos_policy)"
	case e.isHost:
		return "no RoCE QoS on that interface (roce_nic_qos)"
	}
	return "no RoCE configuration in this check (the device has none of the checked resources)"
}

func (e linkEnd) has() string {
	if e.policy != nil {
		return fmt.Sprintf("policy %s", e.policy.Policy.Name)
	}
	return "NIC QoS"
}

// linkRules runs R12-R17 on every link.
func (c *checker) linkRules() {
	for _, l := range c.links {
		a, b := c.end(l.ADevice, l.AInterface), c.end(l.BDevice, l.BInterface)
		c.r12LinkConfigured(l, a, b)
		if !a.configured() || !b.configured() {
			continue
		}
		c.r13LinkTrust(l, a, b)
		c.r14LinkDSCP(l, a, b)
		c.r15LinkLossless(l, a, b)
		c.r16LinkMTU(l, a, b)
		c.r17LinkECN(l, a, b)
		c.r17LinkECN(l, b, a)
	}
}

// R12: both ends of a RoCE link are configured; an end with no policy at all drops or
// misclassifies what the other end sends. A link with neither end configured is not RoCE's.
func (c *checker) r12LinkConfigured(l Link, a, b linkEnd) {
	for _, p := range [][2]linkEnd{{a, b}, {b, a}} {
		done, bare := p[0], p[1]
		if !done.configured() || bare.configured() {
			continue
		}
		c.add(SeverityError, "R12", bare.device,
			"Link %s: %s carries RoCE (%s), but %s has %s. Configure %s like its peer: traffic the peer sends lossless and "+
				"DSCP-classified is dropped or misclassified at the unconfigured end.",
			l.Label(), done.label(), done.has(), bare.label(), bare.missing(), bare.label())
	}
}

// R13: both ends classify on the same field (a dscp_pcp switch accepts either).
func (c *checker) r13LinkTrust(l Link, a, b linkEnd) {
	ta, tb := a.trust(), b.trust()
	if ta == tb || ta == TrustDSCPPCP || tb == TrustDSCPPCP || ta == "" || tb == "" {
		return // "": a trust the audit could not tell (EOS's default depends on the port)
	}
	c.add(SeverityError, "R13", l.ADevice,
		"Link %s: %s trusts %s but %s trusts %s. Use one trust mode at both ends: a hop that classifies on another field "+
			"puts RoCE traffic in the wrong class.", l.Label(), a.label(), ta, b.label(), tb)
}

// R14: the RoCE and CNP DSCPs (of either end) get the same priority at both ends.
func (c *checker) r14LinkDSCP(l Link, a, b linkEnd) {
	if !a.classifiesDSCP() || !b.classifiesDSCP() {
		return
	}
	var bad []string
	for _, d := range SortedSet(append(a.roceDSCPs(), b.roceDSCPs()...)) {
		if d < 0 || d > MaxDSCP {
			continue
		}
		if pa, pb := a.priorityOf(d), b.priorityOf(d); pa != pb {
			bad = append(bad, fmt.Sprintf("DSCP %d goes %s at %s but %s at %s", d, toPriority(pa), a.label(), toPriority(pb), b.label()))
		}
	}
	if len(bad) == 0 {
		return
	}
	c.add(SeverityError, "R14", l.ADevice,
		"Link %s: the ends classify RoCE and CNP DSCPs differently: %s. Map each of these DSCPs to the same priority "+
			"(traffic class) at both ends: otherwise RoCE leaves one end lossless and arrives in another class.",
		l.Label(), strings.Join(bad, "; "))
}

// R15: both ends have the same no-drop priorities and PFC on. On a switch-to-switch link (an
// uplink) this is what carries losslessness past the first hop.
func (c *checker) r15LinkLossless(l Link, a, b linkEnd) {
	la, lb := a.lossless(), b.lossless()
	if len(la) == 0 && len(lb) == 0 {
		return
	}
	uplink := ""
	if a.policy != nil && b.policy != nil {
		uplink = " On a switch-to-switch link the lossless classes and PFC must continue, or pauses stop at this hop and the upstream switch drops."
	}
	if !slices.Equal(la, lb) {
		c.add(SeverityError, "R15", l.ADevice,
			"Link %s: %s is lossless on %s but %s on %s. Make the same priorities lossless at both ends: PFC works only when "+
				"both ends pause the same priorities.%s",
			l.Label(), a.label(), intList(la), b.label(), intList(lb), uplink)
	}
	for _, e := range []linkEnd{a, b} {
		if len(e.lossless()) > 0 && e.nic == nil && e.pfc != nil && e.pfc.Mode == PFCModeAuto && !e.pfc.LinkPause {
			c.add(SeverityWarning, "R15", e.device,
				"Link %s: %s is bound to a lossless policy with PFC mode \"auto\", which turns PFC on only if DCBX negotiates it "+
					"with the other end (hosts managed by mlnx_qos or dcb usually do not run DCBX). Set mode = \"on\".%s",
				l.Label(), e.label(), uplink)
		}
		if len(e.lossless()) == 0 || e.pfcOn() || e.nic != nil {
			continue
		}
		how := "has no roce_pfc_interface"
		if e.pfc != nil {
			how = fmt.Sprintf("has PFC mode %q", e.pfc.Mode)
			if e.pfc.LinkPause {
				how = "uses link pause instead of PFC"
			}
		}
		c.add(SeverityError, "R15", e.device,
			"Link %s: %s is bound to a lossless policy but %s. Declare roce_pfc_interface %s with mode = \"on\": without PFC "+
				"the lossless class drops under congestion.%s",
			l.Label(), e.label(), how, e.label(), uplink)
	}
}

// R16: on a switch-to-switch link, the lossless classes' MTUs agree where both ends set one.
func (c *checker) r16LinkMTU(l Link, a, b linkEnd) {
	if a.policy == nil || b.policy == nil {
		return
	}
	var bad []string
	for _, tc := range a.lossless() {
		_, ca, okA := a.policy.Policy.ClassByTC(tc)
		_, cb, okB := b.policy.Policy.ClassByTC(tc)
		if okA && okB && ca.MTU != nil && cb.MTU != nil && *ca.MTU != *cb.MTU {
			bad = append(bad, fmt.Sprintf("traffic class %d has mtu %d at %s but %d at %s", tc, *ca.MTU, a.label(), *cb.MTU, b.label()))
		}
	}
	if len(bad) > 0 {
		c.add(SeverityError, "R16", l.ADevice,
			"Link %s: %s. Use one MTU per lossless class along the path: frames over the smaller MTU are dropped there.",
			l.Label(), strings.Join(bad, "; "))
	}
}

// R17: a switch port toward a NIC running DCQCN marks ECN on every DCQCN priority's class:
// the switch queue toward the NIC is where congestion must be signalled.
func (c *checker) r17LinkECN(l Link, sw, host linkEnd) {
	if sw.policy == nil || host.dcqcn == nil {
		return
	}
	var bad []string
	for _, prio := range SortedSet(host.dcqcn.Priorities) {
		name, cl, ok := sw.policy.Policy.ClassByTC(prio)
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("traffic class %d has no class", prio))
		case cl.ECN == nil:
			bad = append(bad, fmt.Sprintf("class %q (traffic class %d) has no ecn", name, prio))
		}
	}
	if len(bad) == 0 {
		return
	}
	c.add(SeverityError, "R17", sw.device,
		"Link %s: %s runs DCQCN on priorities %s, but toward it %s (policy %s): %s. Set ecn on those classes: DCQCN "+
			"slows senders only when the switch marks the queue toward the receiver.",
		l.Label(), host.label(), intList(SortedSet(host.dcqcn.Priorities)), sw.label(), sw.policy.Policy.Name, strings.Join(bad, "; "))
}
