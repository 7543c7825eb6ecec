package openconfig

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/ietfjson"
)

// Tree is the part of an OpenConfig /qos tree this package understands, normalised: module
// prefixes stripped from member names and identity values, numbers parsed whatever their JSON
// encoding. Maps are keyed by the list key.
type Tree struct {
	Classifiers       map[string]Classifier
	ForwardingGroups  map[string]ForwardingGroup
	Queues            map[string]Queue
	Profiles          map[string]Profile
	SchedulerPolicies map[string]SchedulerPolicy
	Interfaces        map[string]Interface
}

// Classifier is /qos/classifiers/classifier.
type Classifier struct {
	Name, Type string
	Terms      map[string]Term
}

// Term is one classifier term: its IPv4 DSCP condition and its target forwarding group.
type Term struct {
	ID          string
	DSCP        []int // sorted, unique: the union of ipv4 dscp and dscp-set
	TargetGroup string
}

// ForwardingGroup is /qos/forwarding-groups/forwarding-group.
type ForwardingGroup struct{ Name, OutputQueue string }

// Queue is /qos/queues/queue; ID is config/queue-id (nil when absent).
type Queue struct {
	Name string
	ID   *uint8
}

// Profile is /qos/queue-management-profiles/queue-management-profile; WRED is its wred/uniform
// config, nil when absent.
type Profile struct {
	Name string
	WRED *WRED
}

// WRED is wred/uniform/config. Thresholds are bytes.
type WRED struct {
	MinThreshold, MaxThreshold *uint64
	EnableECN, Drop            bool
	MaxDropProbabilityPercent  *uint8
}

// SchedulerPolicy is /qos/scheduler-policies/scheduler-policy; Schedulers sorted by sequence.
type SchedulerPolicy struct {
	Name       string
	Schedulers []Scheduler
}

// Scheduler is one sequence of a scheduler policy; Inputs sorted by ID.
type Scheduler struct {
	Sequence uint32
	Priority string // "STRICT" or ""
	Inputs   []SchedulerInput
}

// SchedulerInput is one scheduler input; Weight is nil when absent.
type SchedulerInput struct {
	ID, InputType, Queue string
	Weight               *uint64
}

// Interface is /qos/interfaces/interface.
type Interface struct {
	ID               string
	InputClassifiers map[string]string // type -> classifier name
	SchedulerPolicy  string            // output scheduler policy
	OutputQueues     map[string]string // output queue -> queue-management profile ("" none)
}

// ParseQoS parses the JSON_IETF encoding of /qos: bare ({"classifiers": ...}) or wrapped
// ({"openconfig-qos:qos": {...}}), with or without module prefixes, uint64 leaves as strings
// or numbers. Leaves are read from config, else state, else the list entry itself.
func ParseQoS(jsonIETF []byte) (*Tree, error) {
	raw, err := ietfjson.Decode(jsonIETF)
	if err != nil {
		return nil, fmt.Errorf("openconfig: parse /qos: %w", err)
	}
	root, ok := stripPrefixes(raw).(obj)
	if raw != nil && !ok {
		return nil, fmt.Errorf("openconfig: parse /qos: want a JSON object, got %T", raw)
	}
	if q, ok := root["qos"].(obj); ok {
		root = q
	}
	p := &parser{}
	t := &Tree{
		Classifiers: map[string]Classifier{}, ForwardingGroups: map[string]ForwardingGroup{},
		Queues: map[string]Queue{}, Profiles: map[string]Profile{},
		SchedulerPolicies: map[string]SchedulerPolicy{}, Interfaces: map[string]Interface{},
	}
	for _, e := range p.list(root, "classifiers", "classifier") {
		c := Classifier{Name: p.str(e, "name"), Type: p.ident(e, "type"), Terms: map[string]Term{}}
		for _, te := range p.list(e, "terms", "term") {
			ipv4 := child(child(te, "conditions"), "ipv4")
			term := Term{ID: p.str(te, "id"), TargetGroup: p.str(child(te, "actions"), "target-group")}
			term.DSCP = fabric.SortedSet(append(p.uints8(ipv4, "dscp-set"), p.uints8(ipv4, "dscp")...))
			c.Terms[term.ID] = term
		}
		t.Classifiers[c.Name] = c
	}
	for _, e := range p.list(root, "forwarding-groups", "forwarding-group") {
		fg := ForwardingGroup{Name: p.str(e, "name"), OutputQueue: p.str(e, "output-queue")}
		t.ForwardingGroups[fg.Name] = fg
	}
	for _, e := range p.list(root, "queues", "queue") {
		q := Queue{Name: p.str(e, "name")}
		if v, ok := p.uint(e, "queue-id", 8); ok {
			id := uint8(v)
			q.ID = &id
		}
		t.Queues[q.Name] = q
	}
	for _, e := range p.list(root, "queue-management-profiles", "queue-management-profile") {
		t.Profiles[p.str(e, "name")] = Profile{Name: p.str(e, "name"), WRED: p.wred(e)}
	}
	for _, e := range p.list(root, "scheduler-policies", "scheduler-policy") {
		t.SchedulerPolicies[p.str(e, "name")] = p.schedulerPolicy(e)
	}
	for _, e := range p.list(root, "interfaces", "interface") {
		t.Interfaces[p.str(e, "interface-id")] = p.iface(e)
	}
	if p.err != nil {
		return nil, fmt.Errorf("openconfig: parse /qos: %w", p.err)
	}
	return t, nil
}

func (p *parser) wred(e obj) *WRED {
	u := child(child(e, "wred"), "uniform")
	if u == nil {
		return nil
	}
	w := &WRED{EnableECN: p.bool(u, "enable-ecn"), Drop: p.bool(u, "drop")}
	if v, ok := p.uint(u, "min-threshold", 64); ok {
		w.MinThreshold = &v
	}
	if v, ok := p.uint(u, "max-threshold", 64); ok {
		w.MaxThreshold = &v
	}
	if v, ok := p.uint(u, "max-drop-probability-percent", 8); ok {
		pct := uint8(v)
		w.MaxDropProbabilityPercent = &pct
	}
	return w
}

func (p *parser) schedulerPolicy(e obj) SchedulerPolicy {
	sp := SchedulerPolicy{Name: p.str(e, "name")}
	for _, se := range p.list(e, "schedulers", "scheduler") {
		seq, _ := p.uint(se, "sequence", 32)
		s := Scheduler{Sequence: uint32(seq), Priority: p.ident(se, "priority")}
		for _, ie := range p.list(se, "inputs", "input") {
			in := SchedulerInput{ID: p.str(ie, "id"), InputType: p.ident(ie, "input-type"), Queue: p.str(ie, "queue")}
			if w, ok := p.uint(ie, "weight", 64); ok {
				in.Weight = &w
			}
			s.Inputs = append(s.Inputs, in)
		}
		sort.Slice(s.Inputs, func(i, j int) bool { return s.Inputs[i].ID < s.Inputs[j].ID })
		sp.Schedulers = append(sp.Schedulers, s)
	}
	sort.Slice(sp.Schedulers, func(i, j int) bool { return sp.Schedulers[i].Sequence < sp.Schedulers[j].Sequence })
	return sp
}

func (p *parser) iface(e obj) Interface {
	it := Interface{ID: p.str(e, "interface-id"), InputClassifiers: map[string]string{}, OutputQueues: map[string]string{}}
	for _, ce := range p.list(child(e, "input"), "classifiers", "classifier") {
		it.InputClassifiers[p.ident(ce, "type")] = p.str(ce, "name")
	}
	out := child(e, "output")
	it.SchedulerPolicy = p.str(child(out, "scheduler-policy"), "name")
	for _, qe := range p.list(out, "queues", "queue") {
		it.OutputQueues[p.str(qe, "name")] = p.str(qe, "queue-management-profile")
	}
	return it
}

// parser reads leaves and keeps the first type error.
type parser struct{ err error }

func (p *parser) fail(name string, v any, want string) {
	if p.err == nil {
		p.err = fmt.Errorf("leaf %q: want %s, got %v (%T)", name, want, v, v)
	}
}

// leaf finds a leaf in e's config container, else its state container, else e itself.
func leaf(e obj, name string) (any, bool) {
	for _, c := range []obj{child(e, "config"), child(e, "state"), e} {
		if v, ok := c[name]; ok && v != nil {
			return v, true
		}
	}
	return nil, false
}

func child(e obj, name string) obj {
	c, _ := e[name].(obj)
	return c
}

func (p *parser) list(e obj, container, name string) []obj {
	raw, _ := child(e, container)[name].([]any)
	out := make([]obj, 0, len(raw))
	for _, r := range raw {
		if o, ok := r.(obj); ok {
			out = append(out, o)
		} else {
			p.fail(name, r, "a list entry object")
		}
	}
	return out
}

func (p *parser) str(e obj, name string) string {
	v, ok := leaf(e, name)
	if !ok {
		return ""
	}
	switch s := v.(type) {
	case string:
		return s
	case json.Number:
		return s.String()
	}
	p.fail(name, v, "a string")
	return ""
}

// ident reads an identity or enumeration value without its module prefix.
func (p *parser) ident(e obj, name string) string {
	s := p.str(e, name)
	return s[strings.LastIndex(s, ":")+1:]
}

func (p *parser) bool(e obj, name string) bool {
	v, ok := leaf(e, name)
	if !ok {
		return false
	}
	if b, isBool := v.(bool); isBool {
		return b
	}
	p.fail(name, v, "a boolean")
	return false
}

// uint reads an unsigned leaf of the given bit size, encoded as a JSON number or a string.
func (p *parser) uint(e obj, name string, bits int) (uint64, bool) {
	v, ok := leaf(e, name)
	if !ok {
		return 0, false
	}
	return p.parseUint(name, v, bits)
}

func (p *parser) parseUint(name string, v any, bits int) (uint64, bool) {
	s, ok := numberText(v)
	if !ok {
		p.fail(name, v, "an unsigned integer")
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, bits)
	if err != nil {
		p.fail(name, v, fmt.Sprintf("a uint%d", bits))
		return 0, false
	}
	return n, true
}

// numberText is the text of a numeric leaf: JSON_IETF encodes 64-bit integers as strings
// (RFC 7951 section 6.1) and narrower ones as numbers; false for anything else.
func numberText(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		return x.String(), true
	case string:
		return x, true
	}
	return "", false
}

// uints8 reads a uint8 leaf or leaf-list.
func (p *parser) uints8(e obj, name string) []int {
	v, ok := leaf(e, name)
	if !ok {
		return nil
	}
	items, isList := v.([]any)
	if !isList {
		items = []any{v}
	}
	out := make([]int, 0, len(items))
	for _, it := range items {
		if n, ok := p.parseUint(name, it, 8); ok {
			out = append(out, int(n))
		}
	}
	return out
}

// stripPrefixes drops "module:" from every object member name.
func stripPrefixes(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(obj, len(x))
		for k, val := range x {
			out[k[strings.LastIndex(k, ":")+1:]] = stripPrefixes(val)
		}
		return out
	case []any:
		for i := range x {
			x[i] = stripPrefixes(x[i])
		}
	}
	return v
}
