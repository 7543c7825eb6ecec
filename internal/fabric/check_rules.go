package fabric

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Rules comparing hosts with switches (R1-R4, R6, R7). Each needs both sides, except the
// host-only halves of R4 (one CNP DSCP/priority) and R7 (ECN bits of roce_tos).

// R1: a NIC's PFC priorities equal the switches' lossless traffic classes, or pauses are sent
// for a priority the switch drops (or the switch pauses a priority the NIC ignores).
func (c *checker) r1PFCPriorities() {
	if len(c.policies) == 0 {
		return
	}
	want := c.losslessTCs()
	for _, h := range c.nics {
		got := SortedSet(h.NIC.PFCPriorities)
		if slices.Equal(got, want) {
			continue
		}
		switches := "no switch class is lossless"
		if len(want) > 0 {
			switches = fmt.Sprintf("the switches' lossless traffic classes are %s (%s)", intList(want), c.losslessSources())
		}
		c.add(SeverityError, "R1", h.Device,
			"NIC %s has pfc_priorities %s, but %s. Set pfc_priorities = %s on the NIC, or change which switch classes are lossless: "+
				"PFC works only when the NIC and every switch pause the same priorities.",
			hostLabel(h.Device, h.NIC.Interface), intList(got), switches, intList(want))
	}
}

// R2: a trust-dscp NIC puts every DSCP of a switch class on that class's traffic class (its
// priority), unlisted DSCPs going to priority 0. One finding per NIC lists every mismatch. Where
// the switches themselves disagree on a DSCP, the NIC cannot match them all: that is reported
// only when the NIC matches none of them (R10 reports the switches for lossless and CNP
// classes; other classes may legitimately differ between switches).
func (c *checker) r2DSCPMap() {
	// expected[dscp][tc] lists the switches that put dscp on tc. Every DSCP some class lists is
	// compared; a switch that does not list it sends it to its default_traffic_class.
	sps := c.dscpPolicies()
	var listed []int
	for _, sp := range sps {
		for _, cl := range sp.Policy.Classes {
			listed = append(listed, cl.DSCP...)
		}
	}
	expected := map[int]map[int][]string{}
	for _, d := range SortedSet(listed) {
		if d < 0 || d > MaxDSCP {
			continue
		}
		expected[d] = map[int][]string{}
		for _, sp := range sps {
			tc, name, _, ok := classOfDSCP(sp.Policy, d)
			from := fmt.Sprintf("default_traffic_class on %s", sp.Device)
			switch {
			case ok && slices.Contains(sp.Policy.Classes[name].DSCP, d):
				from = fmt.Sprintf("class %q on %s", name, sp.Device)
			case tc < 0:
				from = fmt.Sprintf("policy %s on %s", sp.Policy.Name, sp.Device)
			}
			expected[d][tc] = appendUnique(expected[d][tc], from)
		}
	}
	if len(expected) == 0 {
		return
	}
	for _, h := range c.nics {
		if h.NIC.Trust != TrustDSCP {
			continue
		}
		var bad, fixes []string
		for _, d := range slices.Sorted(maps.Keys(expected)) {
			got := h.NIC.DSCPToPriority[d] // unlisted: priority 0
			tcs := slices.Sorted(maps.Keys(expected[d]))
			if len(tcs) == 1 && tcs[0] == got {
				continue
			}
			if len(tcs) == 1 {
				bad = append(bad, fmt.Sprintf("DSCP %d goes to priority %d but %s on the switches (%s)",
					d, got, toTC(tcs[0]), summarize(expected[d][tcs[0]])))
				// An unmapped DSCP (tc < 0) has no traffic class to suggest.
				if tcs[0] >= 0 {
					fixes = append(fixes, fmt.Sprintf("%q = %d", fmt.Sprint(d), tcs[0]))
				}
				continue
			}
			if slices.Contains(tcs, got) {
				continue // the switches disagree (R10's concern); the NIC follows some of them
			}
			var split []string
			for _, tc := range tcs {
				name := fmt.Sprintf("traffic class %d", tc)
				if tc < 0 {
					name = "unmapped"
				}
				split = append(split, fmt.Sprintf("%s (%s)", name, summarize(expected[d][tc])))
			}
			bad = append(bad, fmt.Sprintf("DSCP %d goes to priority %d, which matches no switch, and the switches disagree: %s (see R10)",
				d, got, strings.Join(split, " vs ")))
		}
		if len(bad) == 0 {
			continue
		}
		fix := "Make each of these DSCPs map to its switch traffic class in dscp_to_priority"
		if len(fixes) > 0 {
			fix += fmt.Sprintf(", e.g. { %s }", strings.Join(fixes, ", "))
		}
		c.add(SeverityError, "R2", h.Device,
			"NIC %s classifies DSCPs differently from the switches: %s. %s; unlisted DSCPs go to priority 0.",
			hostLabel(h.Device, h.NIC.Interface), strings.Join(bad, "; "), fix)
	}
}

// R3: NIC and switches classify on the same field. A dscp_pcp switch reads DSCP from IP packets
// and PCP from tagged ones, so it is compatible with a NIC trusting either.
func (c *checker) r3Trust() {
	for _, h := range c.nics {
		var bad []string
		trusts := map[Trust]bool{}
		for _, sp := range c.policies {
			if sp.Policy.Trust == TrustDSCPPCP || sp.Policy.Trust == h.NIC.Trust {
				continue
			}
			// appendUnique: a device's policies of one name that differ elsewhere (per-port
			// settings, see groupPolicies) say the same here.
			bad = appendUnique(bad, fmt.Sprintf("%s trusts %s", policyLabel(sp), sp.Policy.Trust))
			trusts[sp.Policy.Trust] = true
		}
		if len(bad) == 0 {
			continue
		}
		fix := "Use one trust mode on the NIC and the switches"
		if len(trusts) == 1 {
			for t := range trusts {
				fix = fmt.Sprintf("Set trust = %q on the NIC, or trust %s (or dscp_pcp) on the switches", string(t), h.NIC.Trust)
			}
		}
		c.add(SeverityError, "R3", h.Device,
			"NIC %s trusts %s, but %s. %s: a hop that classifies on another field puts RoCE traffic in the wrong class.",
			hostLabel(h.Device, h.NIC.Interface), h.NIC.Trust, joinAnd(bad), fix)
	}
}

type cnpKey struct{ dscp, prio int }

// R4: CNPs land in a strict, non-lossless class whose traffic class is cnp_priority on every
// switch (one finding per switch and CNP setting, naming the hosts using it), and every host
// uses the same CNP DSCP and priority (one finding per host that differs from the most common).
func (c *checker) r4CNP() {
	users := map[cnpKey][]string{}
	for _, h := range c.dcqcn {
		k := cnpKey{h.DCQCN.CNPDSCP, h.DCQCN.CNPPriority}
		users[k] = append(users[k], hostLabel(h.Device, h.DCQCN.Interface))
	}
	keys := sortedCNPKeys(users)
	for _, sp := range c.dscpPolicies() {
		for _, k := range keys {
			if k.dscp < 0 || k.dscp > MaxDSCP {
				continue // a CNP DSCP the host read could not tell: no class to look up
			}
			tc, name, cl, ok := classOfDSCP(sp.Policy, k.dscp)
			var why []string
			switch {
			case !ok && tc < 0:
				why = append(why, fmt.Sprintf("the policy does not map DSCP %d to any traffic class", k.dscp))
			case !ok:
				why = append(why, fmt.Sprintf("DSCP %d falls in traffic class %d, which no class of the policy uses", k.dscp, tc))
			default:
				// The traffic class need not be cnp_priority: a switch classifying on DSCP never
				// sees the CNP's 802.1p priority on a routed link (Juniper's AMD MI300X reference
				// sends CNPs at DSCP 48 / priority 7 into switch TC 6). What matters is the DSCP.
				if !cl.StrictPriority {
					why = append(why, fmt.Sprintf("class %q is not strict priority", name))
				}
				if cl.Lossless {
					why = append(why, fmt.Sprintf("class %q is lossless", name))
				}
			}
			if len(why) == 0 {
				continue
			}
			c.add(SeverityError, "R4", sp.Device,
				"CNPs sent with %s by %s need a strict-priority, non-lossless class for DSCP %d on %s, "+
					"but %s. Put DSCP %d in a class with strict_priority = true (lossless = false), "+
					"or change cnp_dscp on the hosts: delayed CNPs let senders overrun the queue.",
				cnpSetting(k), summarize(users[k]), k.dscp, policyPortsLabel(sp), strings.Join(why, "; "), k.dscp)
		}
	}
	if len(keys) < 2 {
		return
	}
	common := keys[0]
	for _, k := range keys[1:] {
		if len(users[k]) > len(users[common]) {
			common = k
		}
	}
	fix := fmt.Sprintf("Set cnp_dscp = %d and cnp_priority = %d", common.dscp, common.prio)
	switch {
	case common.dscp < 0:
		fix = "Set the same cnp_dscp and cnp_priority on every host (the most common setting could not be read)"
	case common.prio < 0:
		fix = fmt.Sprintf("Set cnp_dscp = %d and the same cnp_priority on every host (the most common setting has none in effect)", common.dscp)
	}
	for _, h := range c.dcqcn {
		k := cnpKey{h.DCQCN.CNPDSCP, h.DCQCN.CNPPriority}
		if k == common {
			continue
		}
		c.add(SeverityError, "R4", h.Device,
			"The DCQCN profile of %s sends CNPs with %s, but %d of %d DCQCN profiles (%s) use %s, "+
				"the most common setting. %s: the switches can give only one CNP DSCP and priority the strict class.",
			hostLabel(h.Device, h.DCQCN.Interface), cnpSetting(k), len(users[common]), len(c.dcqcn),
			summarize(users[common]), cnpSetting(common), fix)
	}
}

// sortedCNPKeys orders CNP settings by DSCP then priority, so the most common one is chosen
// deterministically on a tie (the lowest wins).
func sortedCNPKeys(m map[cnpKey][]string) []cnpKey {
	keys := make([]cnpKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b cnpKey) int { return cmp.Or(cmp.Compare(a.dscp, b.dscp), cmp.Compare(a.prio, b.prio)) })
	return keys
}

// R6: DCQCN (roce_rp and roce_np) runs on every lossless priority; in a fabric without
// lossless classes (lossy RoCE: DCQCN is the only congestion control), on every priority of a
// non-strict class with ECN marking (the RoCE classes).
func (c *checker) r6DCQCNPriorities() {
	want, what := c.losslessTCs(), "lossless traffic class(es)"
	if len(want) == 0 {
		want, what = c.markedTCs(), "traffic class(es) with ECN marking"
	}
	if len(want) == 0 {
		return
	}
	for _, h := range c.dcqcn {
		missing := setDiff(want, SortedSet(h.DCQCN.Priorities))
		if len(missing) == 0 {
			continue
		}
		why, from := "without congestion control on a lossless priority its senders never slow down and PFC pauses spread the congestion", c.losslessSources()
		if len(c.lossless) == 0 {
			why, from = "the fabric has no lossless class, so DCQCN is RoCE's only congestion control: without it senders overrun the queues and drop", c.markedSources()
		}
		c.add(SeverityError, "R6", h.Device,
			"The DCQCN profile of %s is enabled on priorities %s but not on %s %s (%s). Add %s to priorities: %s.",
			hostLabel(h.Device, h.DCQCN.Interface), intList(SortedSet(h.DCQCN.Priorities)), what, intList(missing),
			from, intList(missing), why)
	}
}

// R7: roce_tos (the ToS byte of RDMA-CM RoCE traffic) carries a DSCP of a lossless class on every
// switch with one (in a fabric with no lossless class: a class with ECN marking), and its ECN
// bits are ECN-capable, ECT(0) or ECT(1) (warning).
func (c *checker) r7RoCEToS() {
	for _, h := range c.nics {
		if h.NIC.RoCEToS == nil || *h.NIC.RoCEToS < 0 || *h.NIC.RoCEToS > MaxRoCEToS {
			continue
		}
		tos := *h.NIC.RoCEToS
		dscp, bits := tos>>2, tos&3
		nic := hostLabel(h.Device, h.NIC.Interface)
		if bad, want := c.roceToSLandings(dscp); len(bad) > 0 {
			c.add(SeverityError, "R7", h.Device,
				"NIC %s sends RoCE with roce_tos %d (DSCP %d), but DSCP %d is not in a %s on: %s. Set roce_tos to "+
					"DSCP << 2 | 2 (ECT(0)) for a DSCP of that class%s, or add DSCP %d to the class on those switches.",
				nic, tos, dscp, dscp, want, strings.Join(bad, "; "), c.suggestToS(), dscp)
		}
		switch bits {
		case 0:
			c.add(SeverityWarning, "R7", h.Device,
				"NIC %s sends RoCE with roce_tos %d, whose ECN bits are 00 (Not-ECT): switches cannot mark these packets, so DCQCN "+
					"gets no congestion signal and WRED may drop them instead. Set roce_tos = %d (ECT(0)).", nic, tos, tos|2)
		case 3:
			c.add(SeverityWarning, "R7", h.Device,
				"NIC %s sends RoCE with roce_tos %d, whose ECN bits are 11 (CE): every packet arrives marked as congested, so the "+
					"receiver sends CNPs continuously and senders throttle. Set roce_tos = %d (ECT(0)).", nic, tos, tos&^1)
		}
	}
}

// roceToSLandings returns the switches where dscp misses the class RoCE needs, described, and
// what that class is ("lossless class", or "class with ECN" in a fabric without lossless classes).
func (c *checker) roceToSLandings(dscp int) (bad []string, want string) {
	lossy := len(c.lossless) == 0
	want = "lossless class"
	if lossy {
		want = "class with ECN marking (the fabric has no lossless class, so RoCE relies on ECN and DCQCN alone)"
	}
	for _, sp := range c.dscpPolicies() {
		if !lossy && !hasLossless(sp.Policy) {
			continue
		}
		_, _, cl, ok := classOfDSCP(sp.Policy, dscp)
		if ok && ((!lossy && cl.Lossless) || (lossy && cl.ECN != nil)) {
			continue
		}
		bad = appendUnique(bad, fmt.Sprintf("%s, where it falls in %s", policyLabel(sp), describeLanding(sp.Policy, dscp)))
	}
	return bad, want
}

// suggestToS returns ", e.g. 106 for DSCP 26" for the lowest DSCP of the lowest lossless traffic class, or ""
// when there is none.
func (c *checker) suggestToS() string {
	for _, tc := range c.losslessTCs() {
		for _, sp := range c.dscpPolicies() {
			if _, cl, ok := sp.Policy.ClassByTC(tc); ok && cl.Lossless && len(cl.DSCP) > 0 {
				d := SortedSet(cl.DSCP)[0]
				return fmt.Sprintf(", e.g. %d for DSCP %d", d<<2|2, d)
			}
		}
	}
	return ""
}
