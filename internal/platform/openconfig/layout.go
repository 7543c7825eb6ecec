package openconfig

import (
	"fmt"
	"sort"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Object naming. The policy name is carried in every object name so that a read finds the
// policy again; the class name is carried in queue, forwarding-group, profile and term names.

func objName(policy, class string) string { return policy + "-" + class }

func defaultTermID(policy string) string { return policy + "-default" }

func fallbackName(policy string, tc int) string { return fmt.Sprintf("%s-tc%d", policy, tc) }

// needsFallback reports whether no class has the default traffic class.
func needsFallback(p fabric.QoSPolicy) bool {
	return defaultClass(p) == ""
}

// defaultClass is the (first by name) class whose traffic class is the default one, or "".
func defaultClass(p fabric.QoSPolicy) string {
	for _, n := range p.ClassNames() {
		if p.Classes[n].TrafficClass == p.DefaultTrafficClass {
			return n
		}
	}
	return ""
}

// layout is a policy resolved into the OpenConfig objects that carry it.
type layout struct {
	policy string
	queues []queueObj // sorted by name; one per class plus the fallback queue if any
	terms  []termObj  // sorted by id; the default term last
	scheds []schedObj // by sequence
	ifaces []string   // sorted, unique
}

// queueObj is a queue with its forwarding group of the same name and, with ECN, its
// queue-management profile of the same name.
type queueObj struct {
	name     string
	tc       int
	ecn      *fabric.ECN
	fallback bool // the default traffic class's queue when no class has that TC
}

type termObj struct {
	id     string
	dscp   []int
	target string
}

type schedObj struct {
	seq    int
	strict bool
	inputs []inputObj // sorted by id
}

type inputObj struct {
	id, queue string
	weight    *int
}

// profiles maps each queue with ECN (its profile has the queue's name) to its ECN settings.
func (l *layout) profiles() map[string]fabric.ECN {
	out := map[string]fabric.ECN{}
	for _, q := range l.queues {
		if q.ecn != nil {
			out[q.name] = *q.ecn
		}
	}
	return out
}

// newLayout resolves p. It fails when p holds something openconfig cannot carry exactly.
func newLayout(p *fabric.QoSPolicy) (*layout, error) {
	if p.Name == "" {
		return nil, fmt.Errorf("openconfig: policy name is empty")
	}
	if err := fabric.RefuseUnsupported("openconfig", p.Name, CheckSupported(*p)); err != nil {
		return nil, err
	}
	if p.DefaultTrafficClass < 0 || p.DefaultTrafficClass > 7 {
		return nil, fmt.Errorf("openconfig: default_traffic_class %d is outside 0-7", p.DefaultTrafficClass)
	}
	l := &layout{policy: p.Name}
	used := map[int]string{}
	var strict, wrr []string
	for _, n := range p.ClassNames() {
		c := p.Classes[n]
		if err := checkClass(n, c); err != nil {
			return nil, err
		}
		l.queues = append(l.queues, queueObj{name: objName(p.Name, n), tc: c.TrafficClass, ecn: c.ECN})
		if len(c.DSCP) > 0 {
			l.terms = append(l.terms, termObj{id: n, dscp: fabric.SortedSet(c.DSCP), target: objName(p.Name, n)})
		}
		for _, d := range c.DSCP {
			if other, dup := used[d]; dup && other != n {
				return nil, fmt.Errorf("openconfig: DSCP %d is listed by classes %q and %q", d, other, n)
			}
			used[d] = n
		}
		if c.StrictPriority {
			strict = append(strict, n)
		} else {
			wrr = append(wrr, n)
		}
	}
	target := objName(p.Name, defaultClass(*p))
	if needsFallback(*p) {
		target = fallbackName(p.Name, p.DefaultTrafficClass)
		l.queues = append(l.queues, queueObj{name: target, tc: p.DefaultTrafficClass, fallback: true})
	}
	sort.Slice(l.queues, func(i, j int) bool { return l.queues[i].name < l.queues[j].name })
	var rest []int
	for d := 0; d < 64; d++ {
		if _, ok := used[d]; !ok {
			rest = append(rest, d)
		}
	}
	if len(rest) > 0 {
		l.terms = append(l.terms, termObj{id: defaultTermID(p.Name), dscp: rest, target: target})
	}
	// Strict schedulers first, highest traffic class first, then one WRR scheduler.
	sort.SliceStable(strict, func(i, j int) bool {
		return p.Classes[strict[i]].TrafficClass > p.Classes[strict[j]].TrafficClass
	})
	for _, n := range strict {
		l.scheds = append(l.scheds, schedObj{seq: len(l.scheds), strict: true,
			inputs: []inputObj{{id: n, queue: objName(p.Name, n)}}})
	}
	if len(wrr) > 0 {
		s := schedObj{seq: len(l.scheds)}
		for _, n := range wrr {
			s.inputs = append(s.inputs, inputObj{id: n, queue: objName(p.Name, n), weight: p.Classes[n].BandwidthPercent})
		}
		l.scheds = append(l.scheds, s)
	}
	l.ifaces = fabric.SortedSet(p.Interfaces)
	return l, nil
}

// checkClass refuses what fabric.CheckClassBounds does and a negative share (OpenConfig's
// WRR weight is a uint64; 0 is a weight it takes).
func checkClass(n string, c fabric.Class) error {
	if err := fabric.CheckClassBounds("openconfig", n, c); err != nil {
		return err
	}
	if c.BandwidthPercent != nil && *c.BandwidthPercent < 0 {
		return fmt.Errorf("openconfig: classes[%q].bandwidth_percent %d is negative", n, *c.BandwidthPercent)
	}
	return nil
}
