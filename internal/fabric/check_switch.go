package fabric

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Switch rules (R5, R8-R11): they need only switches, except that R8 also counts the NICs' PFC
// priorities and R10 uses the hosts' CNP DSCPs to tell which strict classes carry CNPs.

// R5: every lossless class has ECN, with a real marking ramp (min strictly below max).
// QoSPolicy.Validate accepts min == max because that is a valid WRED step (DCTCP-style marking
// for TCP classes); DCQCN on a lossless class needs the ramp, so the check is stricter there.
func (c *checker) r5ECN() {
	for _, sp := range c.policies {
		for _, name := range sp.Policy.ClassNames() {
			cl := sp.Policy.Classes[name]
			if !cl.Lossless {
				continue
			}
			switch e := cl.ECN; {
			case e == nil:
				c.add(SeverityError, "R5", sp.Device,
					"Lossless class %q (traffic class %d) of %s has no ECN marking: DCQCN then gets no congestion signal and "+
						"congestion is handled by PFC pauses alone, which spread it upstream. Set ecn on the class, e.g. "+
						"{ min_threshold_bytes = 153600, max_threshold_bytes = 1536000 }.",
					name, cl.TrafficClass, policyPortsLabel(sp))
			case e.MinThresholdBytes >= e.MaxThresholdBytes:
				// A warning: vendor references use a step (the Azure Local NX-OS reference marks at
				// 300/300 KB with probability 100); DCQCN works best with a ramp.
				c.add(SeverityWarning, "R5", sp.Device,
					"ECN on lossless class %q of %s has min_threshold_bytes %d, not below max_threshold_bytes %d. Policy validation "+
						"accepts equal thresholds (a step, as DCTCP uses for TCP), but DCQCN needs a marking ramp: with a step every "+
						"packet is marked once the queue passes the threshold and none before, so senders see all-or-nothing "+
						"congestion and their rates oscillate. Set max_threshold_bytes above min_threshold_bytes, e.g. ten times it.",
					name, policyPortsLabel(sp), e.MinThresholdBytes, e.MaxThresholdBytes)
			}
		}
	}
}

// R8: at most MaxLosslessClasses lossless priorities in the whole fabric, counting switch
// lossless classes and NIC PFC priorities. Each policy is limited by its own validation; the
// union over many devices is not. The limit is the contract's, the same on every platform: no
// public source states a maximum for Nexus 9000, EOS, SONiC or Cumulus (SONiC's dual-ToR
// templates and Arista 7060X configurations use 4; Juniper QFX documents 6; Dell OS9 2 per
// port), so there is no per-platform number to take instead.
func (c *checker) r8LosslessCount() {
	sources := map[int][]string{}
	for tc, from := range c.lossless {
		sources[tc] = slices.Clone(from)
	}
	for _, h := range c.nics {
		for _, p := range SortedSet(h.NIC.PFCPriorities) {
			sources[p] = appendUnique(sources[p], "pfc_priorities of "+hostLabel(h.Device, h.NIC.Interface))
		}
	}
	if len(sources) <= MaxLosslessClasses {
		return
	}
	var parts []string
	for _, p := range slices.Sorted(maps.Keys(sources)) {
		parts = append(parts, fmt.Sprintf("%d (%s)", p, summarize(sources[p])))
	}
	c.add(SeverityError, "R8", "",
		"The fabric uses %d lossless priorities, %s: %s. At most %d are supported here: each needs its own headroom on every "+
			"switch port, and this provider's policies carry at most 2 (Dell OS9 supports two lossless queues per port; SONiC's "+
			"default buffer templates make TC 3 and 4 lossless). Keep at most %d lossless priorities, the same on every switch and NIC.",
		len(sources), intList(slices.Sorted(maps.Keys(sources))), strings.Join(parts, "; "), MaxLosslessClasses, MaxLosslessClasses)
}

// boundPolicies returns the policies of device whose interfaces include iface.
func (c *checker) boundPolicies(device, iface string) []SwitchPolicy {
	var out []SwitchPolicy
	for _, sp := range c.policies {
		if sp.Device == device && slices.Contains(sp.Policy.Interfaces, iface) {
			out = append(out, sp)
		}
	}
	return out
}

// pfcEntry returns the PFC settings of a port, if any.
func (c *checker) pfcEntry(device, iface string) (PFCInterface, bool) {
	for _, e := range c.pfc {
		if e.Device == device && e.PFC.Interface == iface {
			return e.PFC, true
		}
	}
	return PFCInterface{}, false
}

// losslessPorts returns, per device, the ports bound to a policy with a lossless class (sorted,
// unique) and the names of those policies per port.
func (c *checker) losslessPorts() (devices []string, ports map[string][]string, policies map[string]map[string][]string) {
	ports, policies = map[string][]string{}, map[string]map[string][]string{}
	for _, sp := range c.policies {
		if !hasLossless(sp.Policy) {
			continue
		}
		if policies[sp.Device] == nil {
			policies[sp.Device] = map[string][]string{}
			devices = append(devices, sp.Device)
		}
		for _, ifc := range SortedSet(sp.Policy.Interfaces) {
			ports[sp.Device] = appendUnique(ports[sp.Device], ifc)
			policies[sp.Device][ifc] = append(policies[sp.Device][ifc], sp.Policy.Name)
		}
	}
	for _, d := range devices {
		slices.SortFunc(ports[d], ComparePorts) // Ethernet4 before Ethernet12, as the switch lists them
	}
	return devices, ports, policies
}

// R9: PFC on only where a lossless policy is bound (error), every lossless port has PFC on
// (warning, one finding per switch listing the ports), never link pause with PFC (error).
func (c *checker) r9PFCPorts() {
	for _, e := range c.pfc {
		if e.PFC.Mode != PFCModeOn {
			continue
		}
		port := fmt.Sprintf("%s of %s", e.PFC.Interface, e.Device)
		if len(c.policies) > 0 {
			switch bound := c.boundPolicies(e.Device, e.PFC.Interface); {
			case len(bound) == 0:
				c.add(SeverityError, "R9", e.Device,
					"PFC is on at %s, but no policy is bound to that port, so it has no no-drop priority to pause. Add %s "+
						"to the interfaces of a policy with a lossless class, or set mode = \"off\".",
					port, e.PFC.Interface)
			case !slices.ContainsFunc(bound, func(sp SwitchPolicy) bool { return hasLossless(sp.Policy) }):
				c.add(SeverityError, "R9", e.Device,
					"PFC is on at %s, but the policy bound to it (%s) has no lossless class, so there is no no-drop priority "+
						"to pause. Make the RoCE class lossless, or set mode = \"off\".",
					port, policyNames(bound))
			}
		}
		if e.PFC.LinkPause {
			c.add(SeverityError, "R9", e.Device,
				"Port %s has PFC mode on together with link_pause: 802.3x pause stops every priority of the port and cannot run "+
					"with per-priority PFC. Set link_pause = false.", port)
		}
	}
	devices, ports, policies := c.losslessPorts()
	for _, d := range devices {
		var missing []string
		for _, ifc := range ports[d] {
			e, ok := c.pfcEntry(d, ifc)
			switch {
			case !ok:
				missing = append(missing, ifc+" (no PFC settings)")
			case e.Mode == PFCModeAuto:
				missing = append(missing, ifc+" (mode auto, on only if DCBX negotiates it)")
			case e.Mode != PFCModeOn:
				missing = append(missing, fmt.Sprintf("%s (mode %s)", ifc, e.Mode))
			}
		}
		if len(missing) == 0 {
			continue
		}
		var pols []string
		for _, ifc := range ports[d] {
			for _, name := range policies[d][ifc] {
				pols = appendUnique(pols, name)
			}
		}
		c.add(SeverityWarning, "R9", d,
			"Ports of %s bound to lossless policy %s do not have PFC on: %s. Their no-drop priority is not paused, so RoCE "+
				"packets can be dropped there. Add a roce_pfc_interface with mode = \"on\" for each.",
			d, strings.Join(pols, ", "), joinAnd(missing))
	}
}

func policyNames(sps []SwitchPolicy) string {
	names := make([]string, len(sps))
	for i, sp := range sps {
		names[i] = sp.Policy.Name
	}
	return strings.Join(names, ", ")
}

// R10: every DSCP-classifying policy puts the DSCPs of the lossless and CNP classes on the same
// traffic class. CNP classes are the strict classes holding a DCQCN cnp_dscp, or every strict
// class when no DCQCN profile is given. The reference for each DSCP is the traffic class most
// policies use (on a tie, the first policy's in device order; an unmapped DSCP only where no
// policy maps it); each policy that differs gets one finding listing all its differing DSCPs,
// those that differ alike together.
func (c *checker) r10SwitchAgreement() {
	sps := c.dscpPolicies()
	if len(sps) < 2 {
		return
	}
	var cnpDSCPs []int
	for _, h := range c.dcqcn {
		cnpDSCPs = append(cnpDSCPs, h.DCQCN.CNPDSCP)
	}
	var dscps []int
	for _, sp := range sps {
		for _, cl := range sp.Policy.Classes {
			cnp := cl.StrictPriority && (len(cnpDSCPs) == 0 || slices.ContainsFunc(cl.DSCP, func(d int) bool {
				return slices.Contains(cnpDSCPs, d)
			}))
			if cl.Lossless || cnp {
				dscps = append(dscps, cl.DSCP...)
			}
		}
	}
	// diffs: index in sps -> its differences, the DSCPs that differ alike stated together (a
	// partial map read back leaves many lossless DSCPs out at once).
	type diff struct {
		dscps []int
		how   string
	}
	diffs := map[int][]diff{}
	for _, d := range SortedSet(dscps) {
		if d < 0 || d > MaxDSCP {
			continue
		}
		tcs := make([]int, len(sps))
		count := map[int]int{}      // policies per traffic class
		users := map[int][]string{} // their labels, each once (a device's same-named policies share one)
		for i, sp := range sps {
			tcs[i] = sp.Policy.DSCPMap()[d]
			count[tcs[i]]++
			users[tcs[i]] = appendUnique(users[tcs[i]], policyLabel(sp))
		}
		// A DSCP a policy leaves unmapped (a partial map read back) is no traffic class to
		// follow: it is the reference only where no policy maps the DSCP.
		ref := tcs[0]
		for _, tc := range tcs {
			if tc >= 0 && (ref < 0 || count[tc] > count[ref]) {
				ref = tc
			}
		}
		for i, tc := range tcs {
			if tc == ref {
				continue
			}
			how := fmt.Sprintf("%s, but %s %s", toTC(tc), summarize(users[ref]), toTC(ref))
			if j := slices.IndexFunc(diffs[i], func(x diff) bool { return x.how == how }); j >= 0 {
				diffs[i][j].dscps = append(diffs[i][j].dscps, d)
			} else {
				diffs[i] = append(diffs[i], diff{[]int{d}, how})
			}
		}
	}
	for _, i := range slices.Sorted(maps.Keys(diffs)) {
		var parts []string
		for _, x := range diffs[i] {
			parts = append(parts, dscpList(x.dscps)+" "+x.how)
		}
		c.add(SeverityError, "R10", sps[i].Device,
			"Policy %s on %s%s maps %s. Lossless and CNP traffic must land in the same traffic class on every hop, or PFC pauses and the "+
				"CNP priority break at this switch. Map these DSCPs as the other switches do.",
			sps[i].Policy.Name, sps[i].Device, atPorts(sps[i].Policy.Interfaces), strings.Join(parts, "; "))
	}
}

// dscpList is "DSCP 24" or "DSCPs 24, 25 and 27".
func dscpList(dscps []int) string {
	if len(dscps) == 1 {
		return fmt.Sprintf("DSCP %d", dscps[0])
	}
	parts := make([]string, len(dscps))
	for i, d := range dscps {
		parts[i] = strconv.Itoa(d)
	}
	return "DSCPs " + joinAnd(parts)
}

// R11: a lossless port with PFC on has a PFC watchdog, the only defence against a PFC storm or
// deadlock. One warning per switch lists its ports.
func (c *checker) r11Watchdog() {
	devices, ports, _ := c.losslessPorts()
	for _, d := range devices {
		var missing []string
		for _, ifc := range ports[d] {
			if e, ok := c.pfcEntry(d, ifc); ok && e.Mode == PFCModeOn && e.Watchdog == nil {
				missing = append(missing, ifc)
			}
		}
		if len(missing) == 0 {
			continue
		}
		c.add(SeverityWarning, "R11", d,
			"Lossless ports %s of %s have PFC on but no PFC watchdog: a PFC storm or deadlock would stall their no-drop "+
				"priority indefinitely. Add watchdog = { action = \"drop\", detection_time_ms = 200, restoration_time_ms = 400 }.",
			joinAnd(missing), d)
	}
}
