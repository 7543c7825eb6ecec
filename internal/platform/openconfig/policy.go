package openconfig

import (
	"maps"
	"math"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Binding is what an interface is bound to: its IPv4 input classifier, its output scheduler
// policy and the queue-management profile of each output queue entry ("" for none). The zero
// Binding is an interface with none of these.
type Binding struct {
	Classifier      string
	SchedulerPolicy string
	QueueProfiles   map[string]string // nil when the interface lists no output queue
}

// Bindings reports what ifname is bound to today; BuildSet restores it on delete.
func (t *Tree) Bindings(ifname string) Binding {
	it, ok := t.Interfaces[ifname]
	if !ok {
		return Binding{}
	}
	b := Binding{Classifier: it.InputClassifiers[classifierType], SchedulerPolicy: it.SchedulerPolicy}
	if len(it.OutputQueues) > 0 {
		b.QueueProfiles = make(map[string]string, len(it.OutputQueues))
		for q, p := range it.OutputQueues {
			b.QueueProfiles[q] = p
		}
	}
	return b
}

// Unknown is the value Policy reports for a number the device does not carry (a queue without
// queue-id, a missing default term, a profile without a threshold) or one no int holds: it is
// no valid value, so a refresh shows a difference and the next apply rewrites the objects.
const Unknown = -1

// Policy rebuilds the policy named name from the objects BuildSet creates, reporting what the
// device does rather than what the names promise:
//   - classes are the inputs of scheduler policy <name> (input id = class name); a strict
//     scheduler makes a strict class, otherwise the input weight is bandwidth_percent;
//   - a class's traffic class is the queue-id of its input's queue;
//   - a class's DSCPs are those of every term of classifier <name> (but <name>-default) whose
//     target group's output queue is the class's queue;
//   - ECN comes from profile <name>-<class> when its wred/uniform has enable-ecn true;
//   - default_traffic_class is the queue-id behind term <name>-default (0 when classes list
//     all 64 DSCPs, so that there is no such term);
//   - interfaces are those whose IPv4 input classifier and output scheduler policy are <name>
//     and whose output queue entries carry each class's queue and profile exactly; a partly
//     bound interface is left out, so that the next apply binds it again.
//
// Trust is dscp; pcp, mtu and lossless are never set on openconfig. ok is false when the
// device has no classifier and scheduler policy named name, or when no input of that scheduler
// policy follows the naming (input <class> reading queue <name>-<class>): such objects are
// someone else's, whatever their name.
func (t *Tree) Policy(name string) (*fabric.QoSPolicy, bool) {
	cl, okC := t.Classifiers[name]
	sp, okS := t.SchedulerPolicies[name]
	if !okC || !okS || !followsNaming(name, sp) {
		return nil, false
	}
	p := &fabric.QoSPolicy{Name: name, Trust: fabric.TrustDSCP, Classes: map[string]fabric.Class{}}
	queueClass := map[string]string{} // queue name -> class
	queueOf := map[string]string{}    // class -> queue name
	for _, s := range sp.Schedulers {
		for _, in := range s.Inputs {
			c := fabric.Class{TrafficClass: t.queueTC(in.Queue), StrictPriority: s.Priority == "STRICT"}
			if !c.StrictPriority {
				w := 0
				if in.Weight != nil {
					w = toInt(*in.Weight)
				}
				c.BandwidthPercent = &w
			}
			if prof, ok := t.Profiles[objName(name, in.ID)]; ok && prof.WRED != nil && prof.WRED.EnableECN {
				c.ECN = ecnOf(prof.WRED)
			}
			p.Classes[in.ID] = c
			queueClass[in.Queue] = in.ID
			queueOf[in.ID] = in.Queue
		}
	}
	p.DefaultTrafficClass = Unknown
	covered := map[int]bool{}
	for _, term := range cl.Terms {
		for _, d := range term.DSCP {
			covered[d] = true
		}
		queue := t.ForwardingGroups[term.TargetGroup].OutputQueue
		if term.ID == defaultTermID(name) {
			p.DefaultTrafficClass = t.queueTC(queue)
			continue
		}
		if cn, ok := queueClass[queue]; ok {
			c := p.Classes[cn]
			c.DSCP = fabric.SortedSet(append(c.DSCP, term.DSCP...))
			p.Classes[cn] = c
		}
	}
	if _, ok := cl.Terms[defaultTermID(name)]; !ok && len(covered) == 64 {
		p.DefaultTrafficClass = 0
	}
	for _, ifname := range sortedKeys(t.Interfaces) {
		if t.boundTo(ifname, name, p, queueOf) {
			p.Interfaces = append(p.Interfaces, ifname)
		}
	}
	return p, true
}

func followsNaming(name string, sp SchedulerPolicy) bool {
	for _, s := range sp.Schedulers {
		for _, in := range s.Inputs {
			if in.Queue == objName(name, in.ID) {
				return true
			}
		}
	}
	return false
}

func (t *Tree) boundTo(ifname, name string, p *fabric.QoSPolicy, queueOf map[string]string) bool {
	it := t.Interfaces[ifname]
	if it.InputClassifiers[classifierType] != name || it.SchedulerPolicy != name {
		return false
	}
	for cn, c := range p.Classes {
		prof, ok := it.OutputQueues[queueOf[cn]]
		want := ""
		if c.ECN != nil {
			want = objName(name, cn)
		}
		if !ok || prof != want {
			return false
		}
	}
	return true
}

func (t *Tree) queueTC(queue string) int {
	q, ok := t.Queues[queue]
	if !ok || q.ID == nil {
		return Unknown
	}
	return int(*q.ID)
}

func ecnOf(w *WRED) *fabric.ECN {
	e := &fabric.ECN{MinThresholdBytes: Unknown, MaxThresholdBytes: Unknown, MarkProbabilityPercent: Unknown}
	if w.MinThreshold != nil {
		e.MinThresholdBytes = int64(toInt(*w.MinThreshold))
	}
	if w.MaxThreshold != nil {
		e.MaxThresholdBytes = int64(toInt(*w.MaxThreshold))
	}
	if w.MaxDropProbabilityPercent != nil {
		e.MarkProbabilityPercent = int(*w.MaxDropProbabilityPercent)
	}
	return e
}

// toInt converts a device uint64; a value no int holds reads as Unknown.
func toInt(v uint64) int {
	if v > math.MaxInt {
		return Unknown
	}
	return int(v)
}

// sortedKeys are m's keys in order: the order every translation walks interfaces and objects in.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
