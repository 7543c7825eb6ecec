package mlx5

import (
	"slices"
	"strconv"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// NICQoS rebuilds roce_nic_qos as the host has it, in canonical form: dscp_to_priority lists
// the DSCPs whose priority is not 0 (empty under trust pcp, where mlnx_qos shows no map),
// priority_to_tc the priorities whose TC is not 0, ets the strict TCs and the ETS TCs with a
// share above 0 (a TC with TSA vendor or unknown as an ETSClass with neither field, which no
// valid configuration equals), roce_tos the global traffic class or nil when unset.
func (s *HostState) NICQoS() fabric.NICQoS {
	n := fabric.NICQoS{
		Interface: s.Interface, Trust: fabric.Trust(s.Trust),
		DSCPToPriority: map[int]int{}, PriorityToTC: map[int]int{}, ETS: map[int]fabric.ETSClass{},
	}
	for p, on := range s.PFC {
		if on {
			n.PFCPriorities = append(n.PFCPriorities, p)
		}
	}
	if s.DSCP2PrioShown {
		for d, p := range s.DSCP2Prio {
			if p != 0 {
				n.DSCPToPriority[d] = p
			}
		}
	}
	for p, tc := range s.PrioTC {
		if tc != 0 {
			n.PriorityToTC[p] = tc
		}
	}
	for tc, tsa := range s.TSA {
		switch {
		case tsa == "strict":
			n.ETS[tc] = fabric.ETSClass{StrictPriority: true}
		case tsa == "ets" && s.BW[tc] > 0:
			n.ETS[tc] = fabric.ETSClass{BandwidthPercent: fabric.Ptr(s.BW[tc])}
		case tsa != "ets":
			n.ETS[tc] = fabric.ETSClass{}
		}
	}
	if s.RoCEToS != nil {
		n.RoCEToS = fabric.Ptr(*s.RoCEToS)
	}
	return n
}

// NICQoSLike is NICQoS shaped like want, the configuration or prior state, so that Terraform
// sees no difference where there is none on the device: attributes want leaves unmanaged
// (nil) stay nil, and each value equal to want's under the comparison rule of NICEqual is
// want's own value (so "0" = 0 in dscp_to_priority, or a listed 0 % TC, cause no diff).
func (s *HostState) NICQoSLike(want fabric.NICQoS) fabric.NICQoS {
	got := s.NICQoS()
	if sameSet(want.PFCPriorities, got.PFCPriorities) {
		got.PFCPriorities = want.PFCPriorities
	}
	if want.Trust == got.Trust && (want.Trust != fabric.TrustDSCP || DSCPArray(want.DSCPToPriority) == DSCPArray(got.DSCPToPriority)) {
		got.DSCPToPriority = want.DSCPToPriority
	}
	if want.PriorityToTC == nil || PrioTCArray(want.PriorityToTC) == PrioTCArray(got.PriorityToTC) {
		got.PriorityToTC = want.PriorityToTC
	}
	if want.ETS == nil || ETSArray(want.ETS) == ETSArray(got.ETS) {
		got.ETS = want.ETS
	}
	if want.RoCEToS == nil {
		got.RoCEToS = nil
	}
	return got
}

// NICEqual reports whether the host state got (from NICQoS) matches want on every attribute
// want manages: trust, the PFC set, the whole 64-entry DSCP map when want trusts DSCP (unlisted
// DSCPs are priority 0; under trust pcp the map is neither shown nor compared), the whole
// 8-entry priority_to_tc and ets when set (unlisted: TC 0; ETS 0 %), and roce_tos when set.
func NICEqual(want, got fabric.NICQoS) bool {
	switch {
	case want.Trust != got.Trust || !sameSet(want.PFCPriorities, got.PFCPriorities):
		return false
	case want.Trust == fabric.TrustDSCP && DSCPArray(want.DSCPToPriority) != DSCPArray(got.DSCPToPriority):
		return false
	case want.PriorityToTC != nil && PrioTCArray(want.PriorityToTC) != PrioTCArray(got.PriorityToTC):
		return false
	case want.ETS != nil && ETSArray(want.ETS) != ETSArray(got.ETS):
		return false
	case want.RoCEToS != nil && (got.RoCEToS == nil || *got.RoCEToS != *want.RoCEToS):
		return false
	}
	return true
}

// DSCPArray is the device form of dscp_to_priority: all 64 DSCPs, unlisted ones at priority 0.
func DSCPArray(m map[int]int) [64]int {
	var a [64]int
	fill(a[:], m)
	return a
}

// PrioTCArray is the device form of priority_to_tc: all 8 priorities, unlisted ones at TC 0.
func PrioTCArray(m map[int]int) [8]int {
	var a [8]int
	fill(a[:], m)
	return a
}

// fill sets a[k] to m[k] for each key of m inside a (the validated maps have no other).
func fill(a []int, m map[int]int) {
	for k, v := range m {
		if k >= 0 && k < len(a) {
			a[k] = v
		}
	}
}

// ETSArray is the device form of ets, per TC "strict", "ets <bw>" or "neither"; unlisted TCs
// are "ets 0".
func ETSArray(m map[int]fabric.ETSClass) [8]string {
	var a [8]string
	for tc := range a {
		a[tc] = "ets 0"
	}
	for tc, c := range m {
		if tc < 0 || tc > 7 {
			continue
		}
		switch {
		case c.StrictPriority && c.BandwidthPercent == nil:
			a[tc] = "strict"
		case !c.StrictPriority && c.BandwidthPercent != nil:
			a[tc] = "ets " + strconv.Itoa(*c.BandwidthPercent)
		default:
			a[tc] = "neither"
		}
	}
	return a
}

// DCQCN rebuilds roce_dcqcn_profile as the host has it: priorities where roce_rp and roce_np
// are both enabled, the CNP DSCP and priority (-1 when unreadable, and cnp_priority -1 when
// np_cnp_prio_mode is not 0, i.e. np_cnp_prio is not in effect), and the parameters named in
// managed (attribute names; none: every one the host has) whose cc_params file was read.
func (s *HostState) DCQCN(managed ...string) fabric.DCQCN {
	if len(managed) == 0 {
		managed = append(slices.Clone(fabric.ReactionPointParams), fabric.NotificationPointParams...)
	}
	return s.dcqcn(managed)
}

func (s *HostState) dcqcn(names []string) fabric.DCQCN {
	d := fabric.DCQCN{Interface: s.Interface, CNPDSCP: s.cc(ccCNPDSCP), CNPPriority: s.cnpPriority()}
	for p := range 8 {
		if s.RP[p] == 1 && s.NP[p] == 1 || !s.ECN && s.CCPrioMask != nil && *s.CCPrioMask>>p&1 == 1 {
			d.Priorities = append(d.Priorities, p)
		}
	}
	for _, name := range names {
		v, ok := s.CCParams[ccFile[name]]
		if !ok {
			continue
		}
		target := &d.ReactionPoint
		if slices.Contains(fabric.NotificationPointParams, name) {
			target = &d.NotificationPoint
		}
		if *target == nil {
			*target = map[string]int64{}
		}
		(*target)[name] = int64(v)
	}
	return d
}

// DCQCNLike is DCQCN for the parameters want manages, shaped like want: a priority whose
// roce_rp and roce_np disagree (or were not read) counts as the opposite of what want asks for,
// so the difference shows; an equal priority set is want's own slice.
func (s *HostState) DCQCNLike(want fabric.DCQCN) fabric.DCQCN {
	var names []string
	for _, m := range []map[string]int64{want.ReactionPoint, want.NotificationPoint} {
		for name := range m {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	d := s.dcqcn(names)
	d.Priorities = nil
	for p := range 8 {
		on := s.RP[p] == 1
		switch {
		case !s.ECN && s.CCPrioMask != nil:
			on = *s.CCPrioMask>>p&1 == 1
		case s.RP[p] != s.NP[p] || s.RP[p] < 0:
			on = !slices.Contains(want.Priorities, p)
		}
		if on {
			d.Priorities = append(d.Priorities, p)
		}
	}
	if sameSet(want.Priorities, d.Priorities) {
		d.Priorities = want.Priorities
	}
	return d
}

// DCQCNEqual reports whether got matches want on the priority set, the CNP DSCP and priority,
// and every parameter want sets.
func DCQCNEqual(want, got fabric.DCQCN) bool {
	if !sameSet(want.Priorities, got.Priorities) || want.CNPDSCP != got.CNPDSCP || want.CNPPriority != got.CNPPriority {
		return false
	}
	for _, pair := range [][2]map[string]int64{{want.ReactionPoint, got.ReactionPoint}, {want.NotificationPoint, got.NotificationPoint}} {
		for name, v := range pair[0] {
			if g, ok := pair[1][name]; !ok || g != v {
				return false
			}
		}
	}
	return true
}

func (s *HostState) cc(file string) int {
	if v, ok := s.CCParams[file]; ok {
		return int(v)
	}
	return -1
}

func (s *HostState) cnpPriority() int {
	if mode, ok := s.CCParams[ccCNPPrioMode]; ok && mode != 0 {
		return -1
	}
	return s.cc(ccCNPPrio)
}

func sameSet(a, b []int) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}
