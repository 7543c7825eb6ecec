package cumulus

import (
	"maps"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Op is one change staged into an NVUE revision: PATCH merges Body into Path (a JSON null
// inside Body unsets that key), DELETE removes Path. Paths are below /nvue_v1.
type Op struct {
	Method string
	Path   string
	Body   any
}

// Methods of Op.
const (
	Patch  = "PATCH"
	Delete = "DELETE"
)

// Unknown is what a read reports for a number the device does not carry in the form this
// package writes: no valid value, so a refresh shows a difference and the next apply rewrites.
const Unknown = -1

// Trust values of a qos mapping profile.
var trustOf = map[fabric.Trust]string{fabric.TrustDSCP: "l3", fabric.TrustPCP: "l2", fabric.TrustDSCPPCP: "both"}

// Prior is what a policy's writes replaced in objects it shares: the egress-queue-mapping
// default-global traffic class of each switch priority it set, as it was before (nil: NVUE had
// no entry, which is the identity).
type Prior struct {
	QueueMapping map[string]*int `json:"egress_queue_mapping,omitempty"`
}

// profileKinds are the qos objects holding a profile named after the policy, in the order they
// are deleted and bound.
var profileKinds = []string{"mapping", "egress-scheduler", "congestion-control", "pfc"}

func path(elems ...string) string {
	var b strings.Builder
	for _, e := range elems {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(e))
	}
	return b.String()
}

// usedTCs lists the traffic classes p sends anything to: its classes' and the default.
func usedTCs(p fabric.QoSPolicy) []int {
	tcs := []int{p.DefaultTrafficClass}
	for _, c := range p.Classes {
		tcs = append(tcs, c.TrafficClass)
	}
	slices.Sort(tcs)
	return slices.Compact(tcs)
}

// profiles renders p's own profiles and its egress-queue-mapping entries.
func profiles(p fabric.QoSPolicy) map[string]any {
	m := &Mapping{Trust: trustOf[p.Trust], DSCP: map[string]SP{}}
	for d := range 64 {
		m.DSCP[key(d)] = SP{p.DefaultTrafficClass}
	}
	if fabric.WritesPCP(p) {
		m.PCP = map[string]SP{}
		for q := range 8 {
			m.PCP[key(q)] = SP{p.DefaultTrafficClass}
		}
	}
	sched := &Scheduler{TrafficClass: map[string]ETS{}}
	cong := &Congestion{TrafficClass: map[string]ECNConfig{}}
	pfc := &PFCProfile{SwitchPriority: map[string]struct{}{}, Tx: enable, Rx: enable}
	for _, c := range p.Classes {
		tc := key(c.TrafficClass)
		for _, d := range c.DSCP {
			m.DSCP[key(d)] = SP{c.TrafficClass}
		}
		for _, q := range c.PCP {
			m.PCP[key(q)] = SP{c.TrafficClass}
		}
		if c.StrictPriority {
			sched.TrafficClass[tc] = ETS{Mode: "strict"}
		} else {
			sched.TrafficClass[tc] = ETS{Mode: "dwrr", BWPercent: c.BandwidthPercent}
		}
		if e := c.ECN; e != nil {
			cong.TrafficClass[tc] = ECNConfig{ECN: enable, RED: disable, MinThreshold: fabric.Ptr(e.MinThresholdBytes),
				MaxThreshold: fabric.Ptr(e.MaxThresholdBytes), Probability: fabric.Ptr(e.MarkProbabilityPercent)}
		}
		if c.Lossless {
			pfc.SwitchPriority[tc] = struct{}{}
		}
	}
	qos := map[string]any{
		"mapping":          map[string]any{p.Name: m},
		"egress-scheduler": map[string]any{p.Name: sched},
	}
	if len(cong.TrafficClass) > 0 {
		qos["congestion-control"] = map[string]any{p.Name: cong}
	}
	if len(pfc.SwitchPriority) > 0 {
		qos["pfc"] = map[string]any{p.Name: pfc}
	}
	eqm := &QueueMapping{SwitchPriority: map[string]TC{}}
	for _, tc := range usedTCs(p) {
		eqm.SwitchPriority[key(tc)] = TC{tc}
	}
	qos["egress-queue-mapping"] = map[string]any{"default-global": eqm}
	return qos
}

// bindings renders the profile bindings of p's ports.
func bindings(p fabric.QoSPolicy, kinds map[string]any) map[string]any {
	out := map[string]any{}
	for _, port := range p.Interfaces {
		q := &InterfaceQoS{Mapping: &Binding{p.Name}, EgressScheduler: &Binding{p.Name}}
		if _, ok := kinds["congestion-control"]; ok {
			q.CongestionControl = &Binding{p.Name}
		}
		if _, ok := kinds["pfc"]; ok {
			q.PFC = &Binding{p.Name}
		}
		out[port] = Interface{QoS: q}
	}
	return out
}

// write is the one root PATCH that creates p's profiles and binds its ports.
func write(p fabric.QoSPolicy) Op {
	qos := profiles(p)
	body := map[string]any{"qos": qos}
	if len(p.Interfaces) > 0 {
		body["interface"] = bindings(p, qos)
	}
	return Op{Method: Patch, Path: "/", Body: body}
}

// remove deletes the profiles named name and every port binding that names them, as t has
// them (NVUE refuses a DELETE of what does not exist in the revision).
func (t *Tree) remove(name string) []Op {
	var ops []Op
	for _, kind := range profileKinds {
		if t.QoS.has(kind, name) {
			ops = append(ops, Op{Method: Delete, Path: path("qos", kind, name)})
		}
	}
	for _, port := range slices.Sorted(maps.Keys(t.Interface)) {
		for _, kind := range t.Interface[port].boundTo(name) {
			ops = append(ops, Op{Method: Delete, Path: path("interface", port, "qos", kind)})
		}
	}
	return ops
}

func (q QoS) has(kind, name string) bool {
	switch kind {
	case "mapping":
		return q.Mapping[name] != nil
	case "egress-scheduler":
		return q.EgressScheduler[name] != nil
	case "congestion-control":
		return q.CongestionControl[name] != nil
	case "pfc":
		return q.PFC[name] != nil
	}
	return false
}

// boundTo lists the qos objects whose binding on the port names profile name.
func (i Interface) boundTo(name string) []string {
	if i.QoS == nil {
		return nil
	}
	var out []string
	for _, kind := range profileKinds {
		if b := i.QoS.binding(kind); b != nil && b.Profile == name {
			out = append(out, kind)
		}
	}
	return out
}

func (q *InterfaceQoS) binding(kind string) *Binding {
	if b := q.bindingPtr(kind); b != nil {
		return *b
	}
	return nil
}

// bindingPtr is where the binding of kind lives; nil for a kind that is not a profile.
func (q *InterfaceQoS) bindingPtr(kind string) **Binding {
	switch kind {
	case "mapping":
		return &q.Mapping
	case "egress-scheduler":
		return &q.EgressScheduler
	case "congestion-control":
		return &q.CongestionControl
	case "pfc":
		return &q.PFC
	}
	return nil
}

// queueMapping returns the egress-queue-mapping traffic class of switch priority sp as t has
// it, nil when NVUE has no entry.
func (t *Tree) queueMapping(sp string) *int {
	if m := t.QoS.EgressQueueMapping["default-global"]; m != nil {
		if tc, ok := m.SwitchPriority[sp]; ok {
			return fabric.Ptr(tc.TrafficClass)
		}
	}
	return nil
}

// record adds to prior the entries next sets that prior does not hold yet, and returns the
// ops that put back the entries prior holds and next no longer sets.
func (t *Tree) record(prior Prior, next *fabric.QoSPolicy) (Prior, []Op) {
	out := Prior{QueueMapping: map[string]*int{}}
	maps.Copy(out.QueueMapping, prior.QueueMapping)
	used := map[string]bool{}
	if next != nil {
		for _, tc := range usedTCs(*next) {
			used[key(tc)] = true
			if _, ok := out.QueueMapping[key(tc)]; !ok {
				out.QueueMapping[key(tc)] = t.queueMapping(key(tc))
			}
		}
	}
	var ops []Op
	for _, sp := range slices.Sorted(maps.Keys(out.QueueMapping)) {
		if used[sp] {
			continue
		}
		at := path("qos", "egress-queue-mapping", "default-global", "switch-priority", sp)
		switch was := out.QueueMapping[sp]; {
		case was != nil:
			ops = append(ops, Op{Method: Patch, Path: at, Body: TC{*was}})
		case t.queueMapping(sp) != nil:
			ops = append(ops, Op{Method: Delete, Path: at})
		}
		delete(out.QueueMapping, sp)
	}
	if len(out.QueueMapping) == 0 {
		out.QueueMapping = nil
	}
	return out, ops
}

// Create returns the ops that write p on a switch whose applied configuration is t, and what
// they replace in shared objects.
func (t *Tree) Create(p fabric.QoSPolicy) ([]Op, Prior) {
	prior, _ := t.record(Prior{}, &p)
	return []Op{write(p)}, prior
}

// Update returns the ops that move the switch from old to next (a rename included): old's
// profiles and bindings go, next's are written whole, in one revision.
func (t *Tree) Update(old, next fabric.QoSPolicy, prior Prior) ([]Op, Prior) {
	prior, restore := t.record(prior, &next)
	ops := append(t.remove(old.Name), restore...)
	ops = append(ops, t.watchdogsLosingPFC(old.Name, &next)...)
	return append(ops, write(next)), prior
}

// Delete returns the ops that remove old and put back what it replaced.
func (t *Tree) Delete(old fabric.QoSPolicy, prior Prior) []Op {
	_, restore := t.record(prior, nil)
	ops := append(t.remove(old.Name), restore...)
	return append(ops, t.watchdogsLosingPFC(old.Name, nil)...)
}

// watchdogsLosingPFC unsets the PFC watchdog of the ports whose PFC profile the change takes
// away (next nil: the policy goes): NVUE refuses a watchdog on a port without PFC, so the
// watchdog follows the port's no-drop priorities, as SONiC's pfcwd_sw_enable does, and the
// policy and its PFC interfaces can be destroyed in any order. The interface then reads its
// watchdog off until a lossless policy binds the port again.
func (t *Tree) watchdogsLosingPFC(name string, next *fabric.QoSPolicy) []Op {
	keeps := map[string]bool{}
	if next != nil && slices.ContainsFunc(slices.Collect(maps.Values(next.Classes)), func(c fabric.Class) bool { return c.Lossless }) {
		for _, port := range next.Interfaces {
			keeps[port] = true
		}
	}
	var ops []Op
	for _, port := range slices.Sorted(maps.Keys(t.Interface)) {
		if keeps[port] || !enabled(t.WatchdogState(port)) || !slices.Contains(t.Interface[port].boundTo(name), "pfc") {
			continue
		}
		ops = append(ops, Op{Method: Delete, Path: path("interface", port, "qos", "pfc-watchdog")})
	}
	return ops
}

// Canonical returns p in the form Policy reads it back (fabric.WholeMaps: the mapping profile
// holds every DSCP, and every PCP when written), so the driver can tell a device that does what
// p asks from one that does not.
func Canonical(p fabric.QoSPolicy) fabric.QoSPolicy { return fabric.WholeMaps(p, fabric.WritesPCP(p)) }

// Policy reads the policy named name; ok is false unless both its mapping and its
// egress-scheduler profile exist. known (the state, or nil on import) supplies class names by
// traffic class.
//   - a class is a traffic class of the egress-scheduler profile: strict, or dwrr with
//     bw-percent (any other form reads bandwidth Unknown);
//   - its DSCPs (PCPs) are those the mapping sends to a switch priority the egress-queue-mapping
//     sends to its traffic class (identity where NVUE has no entry);
//   - default_traffic_class is the one traffic class without a class that DSCPs reach (0 when
//     none does, Unknown when several do or the DSCP map is not whole);
//   - lossless classes are the traffic classes of the PFC profile's switch priorities;
//   - ECN comes from the congestion-control profile's traffic class when ecn is enabled; with
//     red enabled (which also drops) the probability reads Unknown;
//   - trust l3, l2, both read dscp, pcp, dscp_pcp; anything else "";
//   - interfaces are the ports binding every profile the policy has, and no other.
func (t *Tree) Policy(name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, bool) {
	m, sched := t.QoS.Mapping[name], t.QoS.EgressScheduler[name]
	if m == nil || sched == nil {
		return nil, false
	}
	p := &fabric.QoSPolicy{Name: name, Classes: map[string]fabric.Class{}}
	for tr, v := range trustOf {
		if m.Trust == v {
			p.Trust = tr
		}
	}
	tcOf := func(sp int) int {
		if tc := t.queueMapping(key(sp)); tc != nil {
			return *tc
		}
		return sp
	}
	names := classNames(known)
	classTC := map[int]string{}
	for k, ets := range sched.TrafficClass {
		tc, ok := number(k, 8)
		if !ok {
			continue
		}
		c := fabric.Class{TrafficClass: tc}
		switch {
		case ets.Mode == "strict":
			c.StrictPriority = true
		case ets.Mode == "dwrr" && ets.BWPercent != nil:
			c.BandwidthPercent = fabric.Ptr(*ets.BWPercent)
		default:
			c.BandwidthPercent = fabric.Ptr(Unknown)
		}
		n := names[tc]
		if n == "" {
			n = "tc" + key(tc)
		}
		p.Classes[n] = c
		classTC[tc] = n
	}
	if len(p.Classes) == 0 {
		return nil, false
	}
	reached := map[int]bool{}
	whole := len(m.DSCP) == 64
	for k, sp := range m.DSCP {
		d, ok := number(k, 64)
		if !ok {
			whole = false
			continue
		}
		tc := tcOf(sp.SwitchPriority)
		if n, ok := classTC[tc]; ok {
			c := p.Classes[n]
			c.DSCP = append(c.DSCP, d)
			p.Classes[n] = c
		} else {
			reached[tc] = true
		}
	}
	for k, sp := range m.PCP {
		q, ok := number(k, 8)
		if !ok {
			continue
		}
		if n, ok := classTC[tcOf(sp.SwitchPriority)]; ok {
			c := p.Classes[n]
			c.PCP = append(c.PCP, q)
			p.Classes[n] = c
		}
	}
	if m.PCP != nil {
		for n, c := range p.Classes {
			if c.PCP == nil {
				c.PCP = []int{}
				p.Classes[n] = c
			}
		}
	}
	switch {
	case !whole || len(reached) > 1:
		p.DefaultTrafficClass = Unknown
	case len(reached) == 1:
		for tc := range reached {
			p.DefaultTrafficClass = tc
		}
	}
	if pfc := t.QoS.PFC[name]; pfc != nil {
		for k := range pfc.SwitchPriority {
			if sp, ok := number(k, 8); ok {
				if n, ok := classTC[tcOf(sp)]; ok {
					c := p.Classes[n]
					c.Lossless = true
					p.Classes[n] = c
				}
			}
		}
	}
	if cong := t.QoS.CongestionControl[name]; cong != nil {
		for k, e := range cong.TrafficClass {
			tc, ok := number(k, 8)
			n, isClass := classTC[tc]
			if !ok || !isClass || !enabled(e.ECN) || e.MinThreshold == nil || e.MaxThreshold == nil {
				continue
			}
			ecn := &fabric.ECN{MinThresholdBytes: *e.MinThreshold, MaxThresholdBytes: *e.MaxThreshold, MarkProbabilityPercent: 100}
			if e.Probability != nil {
				ecn.MarkProbabilityPercent = *e.Probability
			}
			if enabled(e.RED) {
				ecn.MarkProbabilityPercent = Unknown
			}
			c := p.Classes[n]
			c.ECN = ecn
			p.Classes[n] = c
		}
	}
	want := map[string]bool{}
	for _, kind := range profileKinds {
		want[kind] = t.QoS.has(kind, name)
	}
	for _, port := range slices.Sorted(maps.Keys(t.Interface)) {
		bound := t.Interface[port].boundTo(name)
		if len(bound) == 0 {
			continue
		}
		all := len(bound) == countTrue(want)
		for _, kind := range bound {
			all = all && want[kind]
		}
		if all {
			p.Interfaces = append(p.Interfaces, port)
		}
	}
	p.Normalize()
	return p, true
}

func countTrue(m map[string]bool) int {
	n := 0
	for _, v := range m {
		if v {
			n++
		}
	}
	return n
}

// classNames maps the known policy's traffic classes to their class names.
func classNames(known *fabric.QoSPolicy) map[int]string {
	out := map[int]string{}
	if known == nil {
		return out
	}
	names := known.ClassNames()
	sort.Strings(names)
	for _, n := range names {
		if _, ok := out[known.Classes[n].TrafficClass]; !ok {
			out[known.Classes[n].TrafficClass] = n
		}
	}
	return out
}
