package nxos

import (
	"maps"
	"slices"
	"strconv"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Effective reads the QoS each port applies, whatever the policies and class-maps are called
// (a hand-made configuration such as Cisco's RoCE references, as much as this provider's): per
// port of the configuration and of ports, the qos input policy bound on the port, else in
// `system qos`, named as the policy; a class "tc<N>" per traffic class (qos-group) the policy
// sends DSCPs or CoS to, or that the system network-qos policy pauses, or that the queuing
// output policy (the port's, else the system's) schedules:
//   - DSCP (CoS) N goes to the qos-group of the first class, in policy order, whose class-map
//     matches it (match-any: one of its lines; match-all: every line); class-default's
//     qos-group, else 0, takes the rest; trust is dscp when class-maps match only dscp, pcp when
//     only cos (or nothing), dscp_pcp when both, each field classified by its own lines;
//   - lossless for each CoS the system network-qos policy pauses (`pause pfc-cos`), whichever
//     system class carries the line (a pause of CoS 4 in c-8q-nq3 makes priority 4 the no-drop
//     one, which the NIC must match); the mtu of the group's system class;
//   - strict with `priority level`, the share from `bandwidth remaining percent` (or
//     `bandwidth percent`), ECN from `random-detect ... ecn`;
//
// and each port's PFC (PFC: mode, NX-OS's default auto without the line). Ports are sorted.
func (c *Config) Effective(ports []string) ([]fabric.QoSPolicy, []fabric.PFCInterface) {
	all := fabric.SortedPorts(append(slices.Collect(maps.Keys(c.Interfaces)), ports...))
	var policies []fabric.QoSPolicy
	var pfcs []fabric.PFCInterface
	for _, port := range all {
		iface := c.Interfaces[port]
		if iface == nil {
			iface = &Interface{}
		}
		pfc, ok := c.PFC(port)
		if !ok {
			pfc = &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeAuto}
		}
		pfcs = append(pfcs, *pfc)
		qosName := or(iface.QoSInput, c.System.QoSInput)
		pm := c.QoSPolicies[qosName]
		if pm == nil {
			continue
		}
		dscp, cos := c.matchesField(pm, "dscp"), c.matchesField(pm, "cos")
		p := fabric.QoSPolicy{Name: qosName, Trust: fabric.TrustPCP, Classes: map[string]fabric.Class{}, Interfaces: []string{port}}
		switch {
		case dscp && cos:
			p.Trust = fabric.TrustDSCPPCP
		case dscp:
			p.Trust = fabric.TrustDSCP
		}
		dscpTo, cosTo := map[int][]int{}, map[int][]int{}
		for v := range 64 {
			if dscp {
				tc := c.groupOf(pm, "dscp", v)
				dscpTo[tc] = append(dscpTo[tc], v)
			}
			if v < 8 && (cos || !dscp) {
				tc := c.groupOf(pm, "cos", v)
				cosTo[tc] = append(cosTo[tc], v)
			}
		}
		// The system network-qos policy pauses CoS values (pause pfc-cos): those are the no-drop
		// priorities, whichever system class carries the line.
		nq := c.NetworkQoS[c.System.NetworkQoS]
		var paused []int
		if nq != nil {
			for _, nc := range nq.Classes {
				paused = append(paused, nc.PauseCOS...)
			}
		}
		qp := c.Queuing[or(iface.QueuingOutput, c.System.QueuingOutput)]
		for tc := range 8 {
			cl := fabric.Class{TrafficClass: tc, DSCP: dscpTo[tc], PCP: cosTo[tc], Lossless: slices.Contains(paused, tc)}
			has := len(cl.DSCP) > 0 || len(cl.PCP) > 0 || cl.Lossless
			if nq != nil && nq.Classes[tc] != nil {
				cl.MTU = nq.Classes[tc].MTU
			}
			if qp != nil && qp.Out[tc] != nil {
				q := qp.Out[tc]
				cl.StrictPriority = q.PriorityLevel != nil
				if share := or(q.BandwidthRemaining, q.BandwidthPercent); share != nil {
					cl.BandwidthPercent = fabric.Ptr(*share)
				}
				if q.WRED != nil && q.WRED.ECN {
					cl.ECN = &fabric.ECN{MinThresholdBytes: q.WRED.MinBytes, MaxThresholdBytes: q.WRED.MaxBytes, MarkProbabilityPercent: q.WRED.Probability}
				}
				has = has || cl.StrictPriority || cl.BandwidthPercent != nil || cl.ECN != nil
			}
			if has {
				p.Classes["tc"+strconv.Itoa(tc)] = cl
			}
		}
		policies = append(policies, p)
	}
	return policies, pfcs
}

func or[T comparable](a, b T) T {
	var zero T
	if a != zero {
		return a
	}
	return b
}

// matchesField reports whether a class-map of pm matches on field.
func (c *Config) matchesField(pm *QoSPolicyMap, field string) bool {
	for _, cls := range pm.Classes {
		if cm := c.ClassMaps[cls.Name]; cm != nil && slices.ContainsFunc(cm.Matches, func(m Match) bool { return m.Field == field }) {
			return true
		}
	}
	return false
}

// groupOf is the qos-group value v of field is sent to: the first class whose class-map
// matches it, else class-default's group, else 0.
func (c *Config) groupOf(pm *QoSPolicyMap, field string, v int) int {
	def := 0
	for _, cls := range pm.Classes {
		if cls.Name == classDefault {
			if cls.QoSGroup != nil {
				def = *cls.QoSGroup
			}
			continue
		}
		cm := c.ClassMaps[cls.Name]
		if cm == nil || cls.QoSGroup == nil || len(cm.Matches) == 0 {
			continue
		}
		hit := func(m Match) bool { return m.Field == field && slices.Contains(m.Values, v) }
		if (cm.MatchAll && !slices.ContainsFunc(cm.Matches, func(m Match) bool { return !hit(m) })) ||
			(!cm.MatchAll && slices.ContainsFunc(cm.Matches, hit)) {
			return *cls.QoSGroup
		}
	}
	return def
}
