package openconfig

import (
	"slices"
	"strconv"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Effective reads the QoS each interface applies, whatever its objects are called: per
// interface with an IPv4 input classifier, a policy named after the classifier with
// Interfaces [interface] and a class "tc<N>" per queue-id N that a term sends DSCPs to (term ->
// target forwarding group -> output queue -> queue-id) or that the interface's output
// scheduler policy schedules: strict in a STRICT sequence, else its input weight as share; ECN
// from the queue's queue-management profile where wred/uniform enables it. DSCPs no term lists
// go to traffic class 0 (OpenConfig leaves the unclassified class to the implementation). Trust
// is dscp; OpenConfig has no PFC model, so nothing is lossless. Interfaces are sorted.
func (t *Tree) Effective() []fabric.QoSPolicy {
	var out []fabric.QoSPolicy
	tcOf := func(queue string) (int, bool) {
		q, ok := t.Queues[queue]
		if !ok || q.ID == nil || *q.ID > 7 {
			return 0, false
		}
		return int(*q.ID), true
	}
	ids := make([]string, 0, len(t.Interfaces))
	for id := range t.Interfaces {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, fabric.ComparePorts)
	for _, id := range ids {
		it := t.Interfaces[id]
		name := it.InputClassifiers[classifierType]
		cl, ok := t.Classifiers[name]
		if !ok {
			continue
		}
		p := fabric.QoSPolicy{Name: name, Trust: fabric.TrustDSCP, Classes: map[string]fabric.Class{}, Interfaces: []string{id}}
		class := func(tc int) fabric.Class {
			c := p.Classes["tc"+strconv.Itoa(tc)]
			c.TrafficClass = tc
			return c
		}
		for _, term := range cl.Terms {
			tc, ok := tcOf(t.ForwardingGroups[term.TargetGroup].OutputQueue)
			if !ok {
				continue
			}
			c := class(tc)
			c.DSCP = fabric.SortedSet(append(c.DSCP, term.DSCP...))
			p.Classes["tc"+strconv.Itoa(tc)] = c
		}
		for _, s := range t.SchedulerPolicies[it.SchedulerPolicy].Schedulers {
			for _, in := range s.Inputs {
				tc, ok := tcOf(in.Queue)
				if !ok {
					continue
				}
				c := class(tc)
				switch {
				case s.Priority == "STRICT":
					c.StrictPriority = true
				case in.Weight != nil:
					c.BandwidthPercent = fabric.Ptr(int(min(*in.Weight, 100)))
				}
				if w := t.Profiles[it.OutputQueues[in.Queue]].WRED; w != nil && w.EnableECN && w.MinThreshold != nil && w.MaxThreshold != nil {
					e := &fabric.ECN{MinThresholdBytes: int64(min(*w.MinThreshold, 1<<62)), MaxThresholdBytes: int64(min(*w.MaxThreshold, 1<<62))}
					if w.MaxDropProbabilityPercent != nil {
						e.MarkProbabilityPercent = int(*w.MaxDropProbabilityPercent)
					}
					c.ECN = e
				}
				p.Classes["tc"+strconv.Itoa(tc)] = c
			}
		}
		out = append(out, p)
	}
	return out
}
