package sonic

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Canonical returns p in the form PolicyWith reads it back, so that the two compare equal
// exactly when the device does what p asks (the driver compares Canonical(state) with the
// read, and keeps the configured form when they match). On SONiC a map sends each DSCP (and
// PCP) to a traffic class and nothing records which class "listed" it, so:
//   - when a class has default_traffic_class as its traffic class, the DSCPs (and, with
//     DOT1P_TO_TC_MAP, the PCPs) no class lists are that class's, and default_traffic_class
//     becomes 0: every DSCP is then listed and the default has no effect on the device;
//   - when the classes list all 64 DSCPs (and all 8 PCPs, if PCPs are written),
//     default_traffic_class is 0 for the same reason;
//   - with DOT1P_TO_TC_MAP written (fabric.WritesPCP: trust pcp or dscp_pcp, or any class with
//     pcp), a class without pcp has the empty set rather than null: the map is owned whole.
//
// Sets are sorted and de-duplicated (fabric.QoSPolicy.Normalize). p is not modified.
func Canonical(p fabric.QoSPolicy) fabric.QoSPolicy { return fabric.WholeMaps(p, fabric.WritesPCP(p)) }

// trust is what the candidate ports bind (the most common reading); for a policy no port binds
// cleanly, dscp when DOT1P_TO_TC_MAP|<name> does not exist (every other trust writes it), else
// known's trust, else "".
func (db *DB) trust(name string, hasDot1p bool, known *fabric.QoSPolicy) fabric.Trust {
	count := map[fabric.Trust]int{}
	for _, port := range db.candidates(name) {
		if t := db.portTrust(port, name); t != "" {
			count[t]++
		}
	}
	var best fabric.Trust
	for _, t := range []fabric.Trust{fabric.TrustDSCP, fabric.TrustPCP, fabric.TrustDSCPPCP} {
		if count[t] > count[best] {
			best = t
		}
	}
	switch {
	case best != "":
		return best
	case !hasDot1p:
		return fabric.TrustDSCP
	case known != nil:
		return known.Trust
	}
	return ""
}

// portTrust reads the trust a port bound to name has: which of the two classification maps it
// binds, the other field being absent; "" when the fields fit no trust.
func (db *DB) portTrust(port, name string) fabric.Trust {
	d, hasD := db.ref(tPortQoSMap, port, fDSCPToTC)
	o, hasO := db.ref(tPortQoSMap, port, fDot1pToTC)
	switch {
	case hasD && d == name && hasO && o == name:
		return fabric.TrustDSCPPCP
	case hasD && d == name && !hasO:
		return fabric.TrustDSCP
	case hasO && o == name && !hasD:
		return fabric.TrustPCP
	}
	return ""
}

// candidates lists the ports whose dscp_to_tc_map or dot1p_to_tc_map names the policy.
func (db *DB) candidates(name string) []string {
	var out []string
	for _, port := range db.keys(tPortQoSMap) {
		if port == "global" {
			continue
		}
		d, _ := db.ref(tPortQoSMap, port, fDSCPToTC)
		o, _ := db.ref(tPortQoSMap, port, fDot1pToTC)
		if d == name || o == name {
			out = append(out, port)
		}
	}
	return out
}

// integral reports whether the policy's fixed maps are as BuildSet writes them: identity
// TC_TO_QUEUE_MAP and MAP_PFC_PRIORITY_TO_QUEUE (the traffic class is the queue index) and a
// whole TC_TO_PRIORITY_GROUP_MAP. When they are not, no port counts as bound, so a refresh
// shows a difference and the next apply rewrites them.
func (db *DB) integral(name string) bool {
	for _, t := range []string{tTCToQueue, tPFCToQueue} {
		m, ok := db.intMap(t, name, 8)
		if !ok || len(m) != 8 {
			return false
		}
		for k, v := range m {
			if k != v {
				return false
			}
		}
	}
	m, ok := db.intMap(tTCToPG, name, 8)
	return ok && len(m) == 8
}

// bound reports whether port carries exactly the PORT_QOS_MAP fields and class queues
// BuildSet writes for p.
func (db *DB) bound(port string, p *fabric.QoSPolicy) bool {
	if p.Trust == "" {
		return false
	}
	var lossless []int
	for _, c := range p.Classes {
		if c.TrafficClass == Unknown {
			return false
		}
		if c.Lossless {
			lossless = append(lossless, c.TrafficClass)
		}
	}
	slices.Sort(lossless)
	for f, want := range portFields(p.Name, p.Trust, lossless) {
		got, ok := db.field(tPortQoSMap, port, f)
		switch {
		case f == fPFCEnable:
			if set, valid := prioritySet(got); !valid || pfcEnable(set) != *want {
				return false
			}
		case want == nil:
			if ok {
				return false
			}
		case !ok || normRef(got) != *want:
			return false
		}
	}
	for n, c := range p.Classes {
		e, ok := db.entry(tQueue, queueKey(port, c.TrafficClass))
		if !ok || normRef(e[fScheduler]) != objName(p.Name, n) {
			return false
		}
		w, hasW := e[fWRED]
		if (c.ECN != nil) != hasW || (hasW && normRef(w) != objName(p.Name, n)) {
			return false
		}
	}
	return db.losslessQueuesBuffered(port, lossless)
}

// prioritySet parses a priority list such as "3,4" (absent or "" is none) into sorted unique
// priorities; ok is false when an entry is not a priority 0-7.
func prioritySet(s string) ([]int, bool) {
	var out []int
	if s == "" {
		return nil, true
	}
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 0 || n > 7 {
			return nil, false
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, true
}
