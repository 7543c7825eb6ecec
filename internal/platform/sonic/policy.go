package sonic

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Unknown is the value the read reports for a number the device does not carry (a class whose
// traffic class no QUEUE entry shows, a map that is not whole, a WRED profile not written the
// way BuildSet writes it) or cannot hold: no valid value, so a refresh shows a difference and
// the next apply rewrites the objects.
const Unknown = -1

// Policy rebuilds the policy named name from CONFIG_DB; see PolicyWith.
func (db *DB) Policy(name string) (*fabric.QoSPolicy, bool) { return db.PolicyWith(name, nil) }

// PolicyWith rebuilds the policy named name, in the form Canonical gives, from what the
// device does rather than what the names promise:
//   - the policy exists when DSCP_TO_TC_MAP|<name> and at least one SCHEDULER|<name>-<class>
//     exist; classes are those schedulers (a scheduler whose name starts with the name of a
//     longer policy, <name>-x-..., with DSCP_TO_TC_MAP|<name>-x, belongs to that one);
//   - a class's traffic class is the queue whose QUEUE|<port>|<q>.scheduler names it, on any
//     port (the most common q); STRICT makes a strict class, DWRR's weight is the share;
//   - lossless classes are the TCs TC_TO_PRIORITY_GROUP_MAP|<name> gives a PG of their own;
//   - ECN comes from WRED_PROFILE|<name>-<class>: green min/max/probability, when yellow and
//     red equal green, all three are enabled and ecn is ecn_all (else the probability reads
//     Unknown);
//   - a class's DSCPs (PCPs) are those DSCP_TO_TC_MAP (DOT1P_TO_TC_MAP) sends to its TC;
//     default_traffic_class is the one TC without a class that the maps send anything to (0
//     when there is none, Unknown when a map is not whole or several such TCs exist);
//   - trust is what the candidate ports (dscp_to_tc_map or dot1p_to_tc_map = <name>) bind:
//     dscp, pcp or both maps; interfaces are the candidates whose six PORT_QOS_MAP fields and
//     class queues are exactly what BuildSet writes (a partly bound port is left out, so the
//     next apply binds it again).
//
// No SONiC object ties a scheduler to its traffic class except the QUEUE entries of bound
// ports, nor says which trust an unbound policy has when DOT1P_TO_TC_MAP exists. For such a
// policy known (the state, or nil) supplies the traffic class of a class the device shows no
// queue for, and the trust; without it they read Unknown and "".
func (db *DB) PolicyWith(name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, bool) {
	dscpMap, ok := db.intMap(tDSCPToTC, name, 64)
	if !ok {
		return nil, false
	}
	names := db.classesOf(name)
	if len(names) == 0 {
		return nil, false
	}
	p := &fabric.QoSPolicy{Name: name, Classes: map[string]fabric.Class{}}
	tcs := db.classTCs(name, names, known)
	lossless := db.losslessTCs(name)
	dot1pMap, hasDot1p := db.intMap(tDot1pToTC, name, 8)
	classTC := map[int]bool{}
	for _, n := range names {
		c := db.class(name, n, tcs[n])
		c.Lossless = tcs[n] != Unknown && slices.Contains(lossless, tcs[n])
		c.DSCP = sendersTo(dscpMap, tcs[n])
		if hasDot1p {
			c.PCP = sendersTo(dot1pMap, tcs[n])
			if c.PCP == nil {
				c.PCP = []int{}
			}
		}
		p.Classes[n] = c
		classTC[tcs[n]] = true
	}
	p.DefaultTrafficClass = defaultTC(classTC, wholeMap(dscpMap, 64), hasDot1p, wholeMap(dot1pMap, 8))
	p.Trust = db.trust(name, hasDot1p, known)
	if db.integral(name) {
		for _, port := range db.candidates(name) {
			if db.bound(port, p) {
				p.Interfaces = append(p.Interfaces, port)
			}
		}
	}
	return p, true
}

// classesOf lists the class names of policy name, from SCHEDULER|<name>-<class>.
func (db *DB) classesOf(name string) []string {
	var out []string
	for _, s := range db.keys(tScheduler) {
		class, ok := strings.CutPrefix(s, name+"-")
		if !ok || class == "" {
			continue
		}
		longer := false
		for i := range len(class) {
			if class[i] == '-' {
				if _, ok := db.entry(tDSCPToTC, name+"-"+class[:i]); ok {
					longer = true
				}
			}
		}
		if !longer {
			out = append(out, class)
		}
	}
	return out
}

// classTCs finds each class's traffic class from the QUEUE entries that reference its
// scheduler; known fills the classes no queue shows.
func (db *DB) classTCs(name string, classes []string, known *fabric.QoSPolicy) map[string]int {
	votes := map[string]map[int]int{}
	for _, k := range db.keys(tQueue) {
		i := strings.LastIndexByte(k, '|')
		q, err := strconv.Atoi(k[i+1:])
		if i < 0 || err != nil || q < 0 || q > 7 {
			continue
		}
		s, _ := db.ref(tQueue, k, fScheduler)
		if class, ok := strings.CutPrefix(s, name+"-"); ok {
			if votes[class] == nil {
				votes[class] = map[int]int{}
			}
			votes[class][q]++
		}
	}
	out := map[string]int{}
	taken := map[int]bool{}
	for _, c := range classes {
		out[c] = Unknown
		best := 0
		for _, q := range slices.Sorted(maps.Keys(votes[c])) {
			if votes[c][q] > best {
				out[c], best = q, votes[c][q]
			}
		}
		taken[out[c]] = true
	}
	for _, c := range classes {
		if kc, ok := known.KnownClass(c); ok && out[c] == Unknown && !taken[kc.TrafficClass] {
			out[c] = kc.TrafficClass
			taken[kc.TrafficClass] = true
		}
	}
	return out
}

// class reads a class's scheduler and WRED profile.
func (db *DB) class(policy, class string, tc int) fabric.Class {
	c := fabric.Class{TrafficClass: tc}
	obj := objName(policy, class)
	switch typ, _ := db.field(tScheduler, obj, "type"); typ {
	case "STRICT":
		c.StrictPriority = true
	case "DWRR":
		c.BandwidthPercent = fabric.Ptr(atoiOr(db.field(tScheduler, obj, "weight")))
	default:
		c.BandwidthPercent = fabric.Ptr(Unknown)
	}
	w, ok := db.entry(tWRED, obj)
	if !ok {
		return c
	}
	e := &fabric.ECN{
		MinThresholdBytes:      atoi64Or(w["green_min_threshold"]),
		MaxThresholdBytes:      atoi64Or(w["green_max_threshold"]),
		MarkProbabilityPercent: atoiOr(w["green_drop_probability"], true),
	}
	if w["ecn"] != "ecn_all" {
		e.MarkProbabilityPercent = Unknown
	}
	for _, colour := range []string{"green", "yellow", "red"} {
		if w["wred_"+colour+"_enable"] != "true" ||
			w[colour+"_min_threshold"] != w["green_min_threshold"] ||
			w[colour+"_max_threshold"] != w["green_max_threshold"] ||
			w[colour+"_drop_probability"] != w["green_drop_probability"] {
			e.MarkProbabilityPercent = Unknown
		}
	}
	c.ECN = e
	return c
}

// losslessTCs reads TC_TO_PRIORITY_GROUP_MAP|<name>: a TC is lossless when it is alone in the
// PG of its own number (the inverse of pgMap).
func (db *DB) losslessTCs(name string) []int {
	m, _ := db.intMap(tTCToPG, name, 8)
	var out []int
	for tc := range 8 {
		pg, ok := m[tc]
		if !ok || pg != tc {
			continue
		}
		alone := true
		for other, opg := range m {
			if other != tc && opg == pg {
				alone = false
			}
		}
		if alone {
			out = append(out, tc)
		}
	}
	return out
}

// sendersTo lists the map keys (DSCPs or PCPs) whose value is tc, sorted; nil for none.
func sendersTo(m map[int]int, tc int) []int {
	var out []int
	for k, v := range m {
		if v == tc && tc != Unknown {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func wholeMap(m map[int]int, n int) map[int]int {
	if len(m) != n {
		return nil
	}
	return m
}

// defaultTC is the one traffic class without a class that the maps send something to
// (fabric.LoneTC), Unknown when a map is unreadable or there are several.
func defaultTC(classTC map[int]bool, dscp map[int]int, hasDot1p bool, dot1p map[int]int) int {
	if dscp == nil || (hasDot1p && dot1p == nil) {
		return Unknown
	}
	if tc, ok := fabric.LoneTC(classTC, slices.Collect(maps.Values(dscp)), slices.Collect(maps.Values(dot1p))); ok {
		return tc
	}
	return Unknown
}

// atoiOr parses a non-negative decimal, Unknown when absent or not one.
func atoiOr(s string, ok bool) int {
	n, err := strconv.Atoi(s)
	if !ok || err != nil || n < 0 {
		return Unknown
	}
	return n
}

func atoi64Or(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return Unknown
	}
	return n
}
