package sonic

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Effective reads the QoS each port applies, whatever its objects are called (a hand-made or
// stock configuration, e.g. qos_config.j2's AZURE maps, as much as this provider's): a port is
// bound when PORT_QOS_MAP|<port> names a DSCP or DOT1P map. Per port it returns one policy named
// after that map, with Interfaces [port]:
//   - trust: dscp_to_tc_map (dscp), dot1p_to_tc_map (pcp), both (dscp_pcp);
//   - a class "tc<N>" per traffic class that a map sends anything to or whose queue
//     (tc_to_queue_map, else the same number) has a scheduler; lossless when pfc_enable lists
//     N; strict for a STRICT scheduler, the DWRR weight as share; ECN from the queue's
//     wred_profile when it marks (ecn_all, ecn_green...), green thresholds;
//   - the DSCPs (PCPs) the maps send to N; unlisted DSCPs go to the map's absent entries, so
//     default_traffic_class is 0.
//
// and the port's PFC (PFC: pfc_enable, its watchdog). Ports are sorted.
func (db *DB) Effective() ([]fabric.QoSPolicy, []fabric.PFCInterface) {
	var policies []fabric.QoSPolicy
	var pfcs []fabric.PFCInterface
	ports := db.keys(tPortQoSMap)
	slices.SortFunc(ports, fabric.ComparePorts)
	for _, port := range ports {
		dscpName, hasDSCP := db.ref(tPortQoSMap, port, fDSCPToTC)
		dot1pName, hasDot1p := db.ref(tPortQoSMap, port, fDot1pToTC)
		if _, isPort := db.entry(tPort, port); !isPort || (!hasDSCP && !hasDot1p) {
			continue // the "global" key, or a port with no classification
		}
		p := fabric.QoSPolicy{Name: dscpName, Trust: fabric.TrustDSCP, Classes: map[string]fabric.Class{}, Interfaces: []string{port}}
		switch {
		case hasDSCP && hasDot1p:
			p.Trust = fabric.TrustDSCPPCP
		case hasDot1p:
			p.Name, p.Trust = dot1pName, fabric.TrustPCP
		}
		dscp, _ := db.intMap(tDSCPToTC, dscpName, 64)
		dot1p, _ := db.intMap(tDot1pToTC, dot1pName, 8)
		toQueue := identityQueues()
		if name, ok := db.ref(tPortQoSMap, port, fTCToQueue); ok {
			if m, ok := db.intMap(tTCToQueue, name, 8); ok {
				for tc, q := range m {
					toQueue[tc] = q
				}
			}
		}
		lossless, _ := db.priorities(port)
		for tc := range 8 {
			c, has := db.queueClass(port, toQueue[tc])
			c.TrafficClass = tc
			if hasDSCP {
				c.DSCP = sendersTo(dscp, tc)
			}
			if hasDot1p {
				c.PCP = sendersTo(dot1p, tc)
			}
			if !has && c.DSCP == nil && c.PCP == nil {
				continue
			}
			c.Lossless = slices.Contains(lossless, tc)
			p.Classes["tc"+strconv.Itoa(tc)] = c
		}
		policies = append(policies, p)
		if pfc, ok := db.PFC(port); ok {
			pfcs = append(pfcs, *pfc)
		}
	}
	return policies, pfcs
}

func identityQueues() map[int]int {
	m := map[int]int{}
	for i := range 8 {
		m[i] = i
	}
	return m
}

// queueClass reads the scheduler and WRED profile of QUEUE|<port>|<q> (or of a range key
// holding q); has is false when the queue has neither.
func (db *DB) queueClass(port string, q int) (c fabric.Class, has bool) {
	var fields map[string]string
	for _, k := range db.keys(tQueue) {
		p, r, ok := strings.Cut(k, "|")
		if !ok || p != port {
			continue
		}
		if lo, hi, ok := queueRange(r); ok && lo <= q && q <= hi {
			fields = db.tables[tQueue][k]
			break
		}
	}
	if fields == nil {
		return c, false
	}
	if s := normRef(fields[fScheduler]); s != "" {
		has = true
		switch typ, _ := db.field(tScheduler, s, "type"); typ {
		case "STRICT":
			c.StrictPriority = true
		case "DWRR", "WRR":
			c.BandwidthPercent = fabric.Ptr(atoiOr(db.field(tScheduler, s, "weight")))
		}
	}
	if w, ok := db.entry(tWRED, normRef(fields[fWRED])); ok {
		has = true
		if strings.HasPrefix(w["ecn"], "ecn_") && w["ecn"] != "ecn_none" {
			c.ECN = &fabric.ECN{MinThresholdBytes: atoi64Or(w["green_min_threshold"]),
				MaxThresholdBytes: atoi64Or(w["green_max_threshold"]), MarkProbabilityPercent: atoiOr(w["green_drop_probability"], true)}
		}
	}
	return c, has
}
