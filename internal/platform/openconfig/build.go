package openconfig

import (
	"fmt"
	"sort"
	"strconv"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/ygot/ygot"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// BuildSet returns the one SetRequest that takes the device from prior to next: create when
// prior is nil, delete when next is nil, update otherwise (a renamed policy deletes every
// old-named object and creates the new ones in the same request).
//
// Objects the policy owns (queues, forwarding groups, queue-management profiles, the classifier
// and the scheduler policy) are written whole with Replace, so nothing stale lingers. Bound
// interfaces are shared objects: only our leaves are written (Update of the interface entry,
// Replace of our output queue entries). An interface that stops being bound, or every bound
// interface on delete, gets back restore[ifname], the Binding read before create; an empty
// Binding removes our classifier and scheduler-policy leaves. Our queue entries are removed.
//
// The request lists deletes, replaces and updates, each in a fixed sorted order.
func BuildSet(prior, next *fabric.QoSPolicy, restore map[string]Binding) (*gpb.SetRequest, error) {
	if prior == nil && next == nil {
		return nil, fmt.Errorf("openconfig: BuildSet needs a prior or a next policy")
	}
	var pl, nl *layout
	var err error
	if prior != nil {
		if pl, err = newLayout(prior); err != nil {
			return nil, fmt.Errorf("prior: %w", err)
		}
	}
	if next != nil {
		if nl, err = newLayout(next); err != nil {
			return nil, err
		}
	}
	b := &setBuilder{req: &gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin}}}
	nextObjs := b.objects(nl)
	written := map[string]bool{}
	for _, o := range nextObjs {
		written[o.key] = true
	}
	for _, o := range b.objects(pl) {
		if !written[o.key] {
			b.del(o.path)
		}
	}
	for _, o := range nextObjs {
		b.replace(o.path, o.val)
	}
	b.interfaces(pl, nl, restore)
	if b.err != nil {
		return nil, b.err
	}
	sort.SliceStable(b.req.Delete, func(i, j int) bool {
		return pathKey(b.req.Delete[i]) < pathKey(b.req.Delete[j])
	})
	return b.req, nil
}

type setBuilder struct {
	req *gpb.SetRequest
	err error
}

type object struct {
	key  string
	path *gpb.Path
	val  any
}

func (b *setBuilder) del(p *gpb.Path) { b.req.Delete = append(b.req.Delete, p) }

func (b *setBuilder) replace(p *gpb.Path, v any) {
	b.req.Replace = append(b.req.Replace, b.update(p, v))
}

func (b *setBuilder) merge(p *gpb.Path, v any) { b.req.Update = append(b.req.Update, b.update(p, v)) }

func (b *setBuilder) update(p *gpb.Path, v any) *gpb.Update {
	tv, err := jsonIETF(v)
	if err != nil && b.err == nil {
		b.err = err
	}
	return &gpb.Update{Path: p, Val: tv}
}

// objects lists the owned objects of l in write order: queues, profiles, forwarding groups,
// scheduler policy, classifier (each sorted by name).
func (b *setBuilder) objects(l *layout) []object {
	if l == nil {
		return nil
	}
	var out []object
	add := func(p *gpb.Path, v any) { out = append(out, object{key: pathKey(p), path: p, val: v}) }
	for _, q := range l.queues {
		add(queuePath(q.name), obj{"name": q.name, "config": obj{"name": q.name, "queue-id": q.tc}})
	}
	for _, q := range l.queues {
		if e := q.ecn; e != nil {
			add(profilePath(q.name), obj{"name": q.name, "config": obj{"name": q.name},
				"wred": obj{"uniform": obj{"config": obj{
					"min-threshold":                u64(e.MinThresholdBytes),
					"max-threshold":                u64(e.MaxThresholdBytes),
					"enable-ecn":                   true,
					"drop":                         false,
					"max-drop-probability-percent": e.MarkProbabilityPercent,
				}}}})
		}
	}
	for _, q := range l.queues {
		add(fgPath(q.name), obj{"name": q.name, "config": obj{"name": q.name, "output-queue": q.name}})
	}
	add(schedulerPath(l.policy), obj{"name": l.policy, "config": obj{"name": l.policy},
		"schedulers": obj{"scheduler": schedulersJSON(l.scheds)}})
	terms := make([]any, len(l.terms))
	for i, t := range l.terms {
		terms[i] = obj{"id": t.id, "config": obj{"id": t.id},
			"conditions": obj{"ipv4": obj{"config": obj{"dscp-set": t.dscp}}},
			"actions":    obj{"config": obj{"target-group": t.target}}}
	}
	add(classifierPath(l.policy), obj{"name": l.policy,
		"config": obj{"name": l.policy, "type": classifierType}, "terms": obj{"term": terms}})
	return out
}

func schedulersJSON(scheds []schedObj) []any {
	out := make([]any, len(scheds))
	for i, s := range scheds {
		cfg := obj{"sequence": s.seq}
		if s.strict {
			cfg["priority"] = "STRICT"
		}
		inputs := make([]any, len(s.inputs))
		for j, in := range s.inputs {
			icfg := obj{"id": in.id, "input-type": "QUEUE", "queue": in.queue}
			if in.weight != nil {
				icfg["weight"] = u64(int64(*in.weight))
			}
			inputs[j] = obj{"id": in.id, "config": icfg}
		}
		out[i] = obj{"sequence": s.seq, "config": cfg, "inputs": obj{"input": inputs}}
	}
	return out
}

// interfaces writes the bindings of next's interfaces and undoes prior's on the others.
func (b *setBuilder) interfaces(pl, nl *layout, restore map[string]Binding) {
	var priorIfs, nextIfs []string
	var priorQueues, nextQueues []string
	if pl != nil {
		priorIfs, priorQueues = pl.ifaces, pl.classQueues()
	}
	if nl != nil {
		nextIfs, nextQueues = nl.ifaces, nl.classQueues()
	}
	bound := toSet(nextIfs)
	keepQueue := toSet(nextQueues)
	for _, ifname := range priorIfs {
		for _, q := range priorQueues {
			if !bound[ifname] || !keepQueue[q] {
				b.del(ifQueuePath(ifname, q))
			}
		}
		if !bound[ifname] {
			b.restore(ifname, restore[ifname], pl.policy)
		}
	}
	if nl == nil {
		return
	}
	profiles := nl.profiles()
	for _, ifname := range nextIfs {
		for _, q := range nextQueues {
			cfg := obj{"name": q}
			if _, ok := profiles[q]; ok {
				cfg["queue-management-profile"] = q
			}
			b.replace(ifQueuePath(ifname, q), obj{"name": q, "config": cfg})
		}
	}
	for _, ifname := range nextIfs {
		b.merge(ifPath(ifname), obj{"interface-id": ifname, "config": obj{"interface-id": ifname},
			"input":  obj{"classifiers": obj{"classifier": []any{classifierBinding(nl.policy)}}},
			"output": obj{"scheduler-policy": obj{"config": obj{"name": nl.policy}}}})
	}
}

// restore puts back the classifier and scheduler policy an interface had before create. A
// prior value naming our own policy counts as none: that object is ours and may be going away.
func (b *setBuilder) restore(ifname string, prev Binding, ours string) {
	if prev.Classifier != "" && prev.Classifier != ours {
		b.merge(ifClassifierPath(ifname), classifierBinding(prev.Classifier))
	} else {
		b.del(ifClassifierPath(ifname))
	}
	if prev.SchedulerPolicy != "" && prev.SchedulerPolicy != ours {
		b.merge(ifSchedulerNamePath(ifname), prev.SchedulerPolicy)
	} else {
		b.del(ifSchedulerNamePath(ifname))
	}
}

func classifierBinding(name string) obj {
	return obj{"type": classifierType, "config": obj{"type": classifierType, "name": name}}
}

// classQueues are the queues of the policy's classes (the fallback queue is not bound on ports).
func (l *layout) classQueues() []string {
	var out []string
	for _, q := range l.queues {
		if !q.fallback {
			out = append(out, q.name)
		}
	}
	return out
}

// u64 renders a uint64 leaf the RFC 7951 way: as a JSON string.
func u64(v int64) string { return strconv.FormatUint(uint64(v), 10) }

func pathKey(p *gpb.Path) string {
	s, err := ygot.PathToString(p)
	if err != nil {
		return p.String()
	}
	return s
}

func toSet(in []string) map[string]bool {
	m := make(map[string]bool, len(in))
	for _, s := range in {
		m[s] = true
	}
	return m
}
