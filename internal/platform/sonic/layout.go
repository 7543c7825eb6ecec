package sonic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Fields of PORT_QOS_MAP|<port> a policy writes while it binds the port, in write order.
const (
	fDSCPToTC   = "dscp_to_tc_map"
	fDot1pToTC  = "dot1p_to_tc_map"
	fTCToQueue  = "tc_to_queue_map"
	fTCToPG     = "tc_to_pg_map"
	fPFCToQueue = "pfc_to_queue_map"
	fPFCEnable  = "pfc_enable"
)

var policyPortFields = []string{fDSCPToTC, fDot1pToTC, fTCToQueue, fTCToPG, fPFCToQueue, fPFCEnable}

// fPFCToPG is PORT_QOS_MAP|<port>.pfc_to_pg_map, which only some ASICs use (qos_config.j2
// renders it for mellanox and barefoot). A policy binds its own PFC priority -> PG map on a
// port that has one, so PFC frames of each no-drop priority pause that priority's lossless PG;
// a port without one is left without.
const fPFCToPG = "pfc_to_pg_map"

// pfcPGFields maps each no-drop priority to its priority group (the same number, as pgMap
// gives the lossless traffic classes), and nothing else, as qos_config.j2's AZURE map does.
func pfcPGFields(lossless []int) map[string]string {
	m := map[string]string{}
	for _, p := range lossless {
		m[strconv.Itoa(p)] = strconv.Itoa(p)
	}
	return m
}

// Fields of QUEUE|<port>|<q>.
const (
	fScheduler = "scheduler"
	fWRED      = "wred_profile"
)

// layout is a policy resolved into the CONFIG_DB objects that carry it.
type layout struct {
	name     string
	trust    fabric.Trust
	dscp     [64]int
	dot1p    []int      // 8 entries; nil when DOT1P_TO_TC_MAP is not written
	lossless []int      // sorted traffic classes
	classes  []classObj // sorted by name
	ifaces   []string   // sorted, unique
}

type classObj struct {
	name   string
	tc     int
	strict bool
	weight int
	ecn    *fabric.ECN
}

// newLayout resolves p, refusing what sonic cannot carry exactly.
func newLayout(p *fabric.QoSPolicy) (*layout, error) {
	if p.Name == "" {
		return nil, fmt.Errorf("sonic: policy name is empty")
	}
	if err := fabric.RefuseUnsupported("sonic", p.Name, CheckSupported(*p)); err != nil {
		return nil, err
	}
	switch p.Trust {
	case fabric.TrustDSCP, fabric.TrustPCP, fabric.TrustDSCPPCP:
	default:
		return nil, fmt.Errorf("sonic: policy %q: invalid trust %q", p.Name, p.Trust)
	}
	if p.DefaultTrafficClass < 0 || p.DefaultTrafficClass > 7 {
		return nil, fmt.Errorf("sonic: default_traffic_class %d is outside 0-7", p.DefaultTrafficClass)
	}
	if len(p.Classes) == 0 {
		return nil, fmt.Errorf("sonic: policy %q has no class", p.Name)
	}
	l := &layout{name: p.Name, trust: p.Trust, dscp: p.DSCPMap(), ifaces: fabric.SortedSet(p.Interfaces)}
	tcs, dscps, pcps := map[int]string{}, map[int]string{}, map[int]string{}
	for _, n := range p.ClassNames() {
		c := p.Classes[n]
		if err := checkClass(n, c); err != nil {
			return nil, err
		}
		for _, claim := range []struct {
			what   string
			owners map[int]string
			vals   []int
		}{{"traffic_class", tcs, []int{c.TrafficClass}}, {"DSCP", dscps, c.DSCP}, {"PCP", pcps, c.PCP}} {
			for _, v := range claim.vals {
				if other, dup := claim.owners[v]; dup && other != n {
					return nil, fmt.Errorf("sonic: %s %d is used by classes %q and %q", claim.what, v, other, n)
				}
				claim.owners[v] = n
			}
		}
		co := classObj{name: n, tc: c.TrafficClass, strict: c.StrictPriority, ecn: c.ECN}
		if c.BandwidthPercent != nil {
			co.weight = *c.BandwidthPercent
		}
		l.classes = append(l.classes, co)
		if c.Lossless {
			l.lossless = append(l.lossless, c.TrafficClass)
		}
	}
	slices.Sort(l.lossless)
	if len(l.lossless) == 8 {
		return nil, fmt.Errorf("sonic: policy %q makes every traffic class lossless; lossy traffic needs a priority group of its own", p.Name)
	}
	if fabric.WritesPCP(*p) { // DOT1P_TO_TC_MAP
		l.dot1p = make([]int, 8)
		for i := range l.dot1p {
			l.dot1p[i] = p.DefaultTrafficClass
		}
		for _, c := range p.Classes {
			for _, v := range c.PCP {
				l.dot1p[v] = c.TrafficClass
			}
		}
	}
	return l, nil
}

// checkClass refuses what fabric.CheckClassBounds does, a share outside the SCHEDULER
// weight's 1-100, a PCP outside 0-7 and ECN thresholds whose maximum is below their minimum.
func checkClass(n string, c fabric.Class) error {
	if err := fabric.CheckClassBounds("sonic", n, c); err != nil {
		return err
	}
	if c.BandwidthPercent != nil && (*c.BandwidthPercent < 1 || *c.BandwidthPercent > 100) {
		return fmt.Errorf("sonic: classes[%q].bandwidth_percent %d is outside 1-100 (SCHEDULER weight)", n, *c.BandwidthPercent)
	}
	for _, v := range c.PCP {
		if v < 0 || v > 7 {
			return fmt.Errorf("sonic: classes[%q].pcp %d is outside 0-7", n, v)
		}
	}
	if e := c.ECN; e != nil && e.MaxThresholdBytes < e.MinThresholdBytes {
		return fmt.Errorf("sonic: classes[%q].ecn.max_threshold_bytes is below min_threshold_bytes", n)
	}
	return nil
}

type object struct {
	table, key string
	fields     map[string]string
}

// objects lists the keys the policy owns, written whole: the maps, then per class its
// SCHEDULER and (with ECN) WRED_PROFILE, classes in name order.
func (l *layout) objects() []object {
	out := []object{{tDSCPToTC, l.name, intFields(l.dscp[:])}}
	if l.dot1p != nil {
		out = append(out, object{tDot1pToTC, l.name, intFields(l.dot1p)})
	}
	pg := pgMap(l.lossless)
	out = append(out,
		object{tTCToQueue, l.name, intFields(identity[:])},
		object{tTCToPG, l.name, intFields(pg[:])},
		object{tPFCToQueue, l.name, intFields(identity[:])})
	for _, c := range l.classes {
		out = append(out, object{tScheduler, objName(l.name, c.name), schedulerFields(c.strict, c.weight)})
	}
	for _, c := range l.classes {
		if c.ecn != nil {
			out = append(out, object{tWRED, objName(l.name, c.name), wredFields(*c.ecn)})
		}
	}
	return out
}

var identity = [8]int{0, 1, 2, 3, 4, 5, 6, 7}

func intFields(vals []int) map[string]string {
	m := make(map[string]string, len(vals))
	for i, v := range vals {
		m[strconv.Itoa(i)] = strconv.Itoa(v)
	}
	return m
}

// pgMap is TC_TO_PRIORITY_GROUP_MAP: each lossless TC has the priority group of its own
// number; every lossy TC shares one priority group, the lowest TC that is not lossless (0
// unless TC 0 is lossless). Lossy traffic thus never shares a lossless PG's headroom, and a
// read tells lossless TCs apart exactly: a TC is lossless when it is the only TC in its PG and
// that PG has its number.
func pgMap(lossless []int) [8]int {
	lossy := 0
	for slices.Contains(lossless, lossy) {
		lossy++
	}
	var m [8]int
	for tc := range m {
		m[tc] = lossy
		if slices.Contains(lossless, tc) {
			m[tc] = tc
		}
	}
	return m
}

func schedulerFields(strict bool, weight int) map[string]string {
	if strict {
		return map[string]string{"type": "STRICT"}
	}
	return map[string]string{"type": "DWRR", "weight": strconv.Itoa(weight)}
}

// wredFields writes the green, yellow and red thresholds alike, so colour marking by a
// policer cannot bypass ECN marking; WRED is enabled for all three and marks instead of
// dropping (ecn_all). Thresholds are decimal byte strings, exactly the configured bytes.
func wredFields(e fabric.ECN) map[string]string {
	m := map[string]string{"ecn": "ecn_all"}
	for _, colour := range []string{"green", "yellow", "red"} {
		m[colour+"_min_threshold"] = strconv.FormatInt(e.MinThresholdBytes, 10)
		m[colour+"_max_threshold"] = strconv.FormatInt(e.MaxThresholdBytes, 10)
		m[colour+"_drop_probability"] = strconv.Itoa(e.MarkProbabilityPercent)
		m["wred_"+colour+"_enable"] = "true"
	}
	return m
}

// portFields are the PORT_QOS_MAP|<port> fields of a port bound to policy name; nil deletes
// the field (the map the trust does not use, so no stock map classifies beside ours).
func portFields(name string, trust fabric.Trust, lossless []int) map[string]*string {
	n := &name
	out := map[string]*string{fTCToQueue: n, fTCToPG: n, fPFCToQueue: n, fDSCPToTC: nil, fDot1pToTC: nil}
	if trust == fabric.TrustDSCP || trust == fabric.TrustDSCPPCP {
		out[fDSCPToTC] = n
	}
	if trust == fabric.TrustPCP || trust == fabric.TrustDSCPPCP {
		out[fDot1pToTC] = n
	}
	pfc := pfcEnable(lossless)
	out[fPFCEnable] = &pfc
	return out
}

// pfcEnable renders the no-drop priorities the way SONiC writes them: "3,4"; "" for none
// (sonic-port-qos-map allows the empty string to turn PFC off on every priority).
func pfcEnable(tcs []int) string {
	parts := make([]string, len(tcs))
	for i, tc := range tcs {
		parts[i] = strconv.Itoa(tc)
	}
	return strings.Join(parts, ",")
}

// queueFields is QUEUE|<port>|<tc> of a class: its scheduler and, with ECN, its WRED profile.
func queueFields(policy, class string, ecn bool) map[string]string {
	m := map[string]string{fScheduler: objName(policy, class)}
	if ecn {
		m[fWRED] = objName(policy, class)
	}
	return m
}
