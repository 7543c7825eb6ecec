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
//     matches it (match-any: one of its dscp lines; match-all: every line); class-default's
//     qos-group, else 0, takes the rest; trust is dscp when a class-map matches dscp, else cos;
//   - lossless when the system network-qos class of the group pauses (`pause pfc-cos`), its mtu;
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
		p := fabric.QoSPolicy{Name: qosName, Trust: fabric.TrustPCP, Classes: map[string]fabric.Class{}, Interfaces: []string{port}}
		if c.matchesField(pm, "dscp") {
			p.Trust = fabric.TrustDSCP
		}
		field, limit := "cos", 8
		if p.Trust == fabric.TrustDSCP {
			field, limit = "dscp", 64
		}
		senders := map[int][]int{}
		for v := range limit {
			tc := c.groupOf(pm, field, v)
			senders[tc] = append(senders[tc], v)
		}
		nq := c.NetworkQoS[c.System.NetworkQoS]
		qp := c.Queuing[or(iface.QueuingOutput, c.System.QueuingOutput)]
		for tc := range 8 {
			cl := fabric.Class{TrafficClass: tc}
			has := len(senders[tc]) > 0
			if p.Trust == fabric.TrustDSCP {
				cl.DSCP = senders[tc]
			} else {
				cl.PCP = senders[tc]
			}
			if nq != nil && nq.Classes[tc] != nil {
				cl.Lossless, cl.MTU = len(nq.Classes[tc].PauseCOS) > 0, nq.Classes[tc].MTU
				has = has || cl.Lossless
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
