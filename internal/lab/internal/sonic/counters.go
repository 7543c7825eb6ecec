package sonic

// COUNTERS_DB of the `sonic` switch (sonic-switch.md, "COUNTERS_DB"): the Redis hashes
// orchagent's flex counters, pfcwdorch and the watermark plugins keep, computed from the
// switch's clock at each read, and the names sonic-gnmi's DB client resolves a Get with
// prefix target COUNTERS_DB through (sonic_data_client/db_client.go parsePath, virtual_db.go).
//
// The lab's traffic model (assumed, the other lab switches' shape): every unicast queue sends
// at a steady rate; queues whose WRED profile marks ECN mark a few packets a second. While a
// port's storm is on, its link partner pauses the port's no-drop priorities (pfc_enable): the
// port counts PFC frames received on them, their queues stop draining (their watermark rises),
// and the other queues drop. While a queue is congested (Congest), it marks ECN fast if its
// WRED profile marks, its watermark rises, and when its priority is no-drop the lossless
// priority group fills (shared and headroom watermarks) and the port sends PFC frames on it;
// a lossy congested queue drops instead.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// Per-second rates and byte figures of the lab's model (assumed).
const (
	sonicQueuePPS         = 500_000
	sonicQueueMarkPPS     = 50
	sonicStormPausePPS    = 15_000
	sonicStormDropPPS     = 1_000
	sonicStormMarkPPS     = 20_000
	sonicCongestMarkPPS   = 40_000
	sonicCongestPausePPS  = 8_000
	sonicCongestDropPPS   = 5_000
	sonicPktBytes         = 1_024
	sonicIdleWatermark    = 2_048      // a queue's or PG's peak when nothing backs up
	sonicHeadroomUsed     = 48_000     // the xoff room a filling lossless PG takes
	sonicFallbackPool     = 12_000_000 // a pool CONFIG_DB gives no size (the dynamic model)
	sonicBusyShare        = 0.9        // a backed-up queue or PG peaks at 90 % of its pool
	sonicUnicastQueues    = 8
	sonicPriorityGroups   = 8
	watermarkTelemetryInt = 120 * time.Second // watermarkorch DEFAULT_TELEMETRY_INTERVAL
)

// SAI object types in the high bits of an object id (saitypes.h: PORT 1, QUEUE 21,
// INGRESS_PRIORITY_GROUP 26), as the OIDs of sonic-utilities' mock COUNTERS_DB show them.
const (
	saiPort  = 0x1
	saiQueue = 0x15
	saiPG    = 0x1a
)

// episodes is the on/off history of a storm or a congestion: start and end times (end zero
// while on).
type episodes struct{ list []episode }

type episode struct{ start, end time.Time }

func (e *episodes) set(on bool, now time.Time) {
	n := len(e.list)
	switch {
	case on && (n == 0 || !e.list[n-1].end.IsZero()):
		e.list = append(e.list, episode{start: now})
	case !on && n > 0 && e.list[n-1].end.IsZero():
		e.list[n-1].end = now
	}
}

func (e *episodes) on() bool { return len(e.list) > 0 && e.list[len(e.list)-1].end.IsZero() }

// elapsed is the time spent on up to now.
func (e *episodes) elapsed(now time.Time) time.Duration {
	var d time.Duration
	for _, ep := range e.list {
		end := ep.end
		if end.IsZero() {
			end = now
		}
		d += max(0, end.Sub(ep.start))
	}
	return d
}

// since reports whether it was on at some time after t.
func (e *episodes) since(t time.Time) bool {
	for _, ep := range e.list {
		if ep.end.IsZero() || ep.end.After(t) {
			return true
		}
	}
	return false
}

// sonicTraffic is the switch's storm and congestion history; the switch's mu guards it.
type sonicTraffic struct {
	boot      time.Time
	storms    map[string]*episodes         // by port
	congested map[string]map[int]*episodes // by port, then queue
}

func newSONiCTraffic(ports []string, now time.Time) sonicTraffic {
	t := sonicTraffic{boot: now, storms: map[string]*episodes{}, congested: map[string]map[int]*episodes{}}
	for _, p := range ports {
		t.storms[p], t.congested[p] = &episodes{}, map[int]*episodes{}
	}
	return t
}

// Storm starts or stops a PFC storm on a port: its link partner pauses the port's no-drop
// priorities, so PFC frames received grow, the paused queues back up and the PFC watchdog,
// where it runs on the port, detects a storm after its detection time and restores the queues
// once the storm has been over for its restoration time.
func (sw *Switch) Storm(ifname string, on bool) error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	st, ok := sw.traffic.storms[ifname]
	if !ok {
		return sw.noPort(ifname)
	}
	st.set(on, sw.clock())
	return nil
}

// Congest starts or stops congestion of egress queue on a port: the queue marks ECN fast
// (where its WRED profile marks), its watermark rises, and a no-drop queue's priority group
// fills while the port sends PFC frames on its priority; a lossy queue drops.
func (sw *Switch) Congest(ifname string, queue int, on bool) error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	qs, ok := sw.traffic.congested[ifname]
	if !ok {
		return sw.noPort(ifname)
	}
	if queue < 0 || queue >= sonicUnicastQueues {
		return fmt.Errorf("%s %s has unicast queues 0-%d, not %d", sw.Name(), ifname, sonicUnicastQueues-1, queue)
	}
	if qs[queue] == nil {
		qs[queue] = &episodes{}
	}
	qs[queue].set(on, sw.clock())
	return nil
}

func (sw *Switch) noPort(ifname string) error {
	return fmt.Errorf("%s has no interface %q (interfaces: %s)", sw.Name(), ifname, strings.Join(sw.ports, ", "))
}

func oid(objType, n int) string { return fmt.Sprintf("oid:0x%x", uint64(objType)<<48|uint64(n)) }

// portPlan is what CONFIG_DB says of a port's traffic: its no-drop priorities, the priority
// group each maps to, the queues whose WRED profile marks ECN, and its PFC watchdog.
type portPlan struct {
	lossless  map[int]bool
	pgOf      map[int]int // no-drop priority -> priority group
	ecn       map[int]bool
	wd        map[string]string // PFC_WD|<port>, nil without one
	wdQueues  map[int]bool
	poolBytes map[string]int64 // BUFFER_POOL sizes by pool name
}

func (sw *Switch) plan(port string) portPlan {
	db := sw.db
	p := portPlan{lossless: map[int]bool{}, pgOf: map[int]int{}, ecn: map[int]bool{}, wdQueues: map[int]bool{}, poolBytes: map[string]int64{}}
	qos := db.fields("PORT_QOS_MAP", port)
	pgMap := db.fields("TC_TO_PRIORITY_GROUP_MAP", qos["tc_to_pg_map"])
	for _, s := range strings.Split(qos["pfc_enable"], ",") {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 && n < 8 {
			p.lossless[n] = true
			p.pgOf[n] = n
			if g, err := strconv.Atoi(pgMap[strconv.Itoa(n)]); err == nil {
				p.pgOf[n] = g
			}
		}
	}
	for q := range sonicUnicastQueues {
		prof := db.fields("WRED_PROFILE", db.fields("QUEUE", port+"|"+strconv.Itoa(q))["wred_profile"])
		if e := prof["ecn"]; e != "" && e != "ecn_none" {
			p.ecn[q] = true
		}
	}
	// pfcwdorch watches the queues of the port's PFC-WD priorities (pfcwd_sw_enable, else
	// pfc_enable), priority i on queue i.
	if wd := db.fields("PFC_WD", port); len(wd) > 0 {
		p.wd = wd
		list := qos["pfcwd_sw_enable"]
		if _, ok := qos["pfcwd_sw_enable"]; !ok {
			list = qos["pfc_enable"]
		}
		for _, s := range strings.Split(list, ",") {
			if n, err := strconv.Atoi(s); err == nil && n >= 0 && n < 8 {
				p.wdQueues[n] = true
			}
		}
	}
	for name, f := range db["BUFFER_POOL"] {
		if n, err := strconv.ParseInt(f["size"], 10, 64); err == nil && n > 0 {
			p.poolBytes[name] = n
		}
	}
	return p
}

// busyBytes is a backed-up queue's or PG's peak: most of its pool.
func (p portPlan) busyBytes(pool string) int64 {
	size, ok := p.poolBytes[pool]
	if !ok {
		size = sonicFallbackPool
	}
	return int64(float64(size) * sonicBusyShare)
}

// countersDB renders COUNTERS_DB as Redis holds it at now: key -> field -> value. The caller
// holds sw.mu.
func (sw *Switch) countersDB(now time.Time) configDB {
	t := &sw.traffic
	up := now.Sub(t.boot)
	// watermarkorch clears the periodic watermarks every telemetry interval.
	window := t.boot.Add(up.Truncate(watermarkTelemetryInt))
	out := configDB{}
	hash := func(key string) map[string]string {
		table, k, _ := strings.Cut(key, ":")
		if out[table] == nil {
			out[table] = map[string]map[string]string{}
		}
		if out[table][k] == nil {
			out[table][k] = map[string]string{}
		}
		return out[table][k]
	}
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	for i, port := range sw.ports {
		plan := sw.plan(port)
		storm := t.storms[port]
		stormed := storm.elapsed(now)
		portOID := oid(saiPort, i+1)
		hash("COUNTERS_PORT_NAME_MAP")[port] = portOID
		ph := hash("COUNTERS:" + portOID)
		pkts := traffic.Count(sonicQueuePPS*sonicUnicastQueues, up)
		for k, v := range map[string]uint64{
			"SAI_PORT_STAT_IF_IN_UCAST_PKTS": pkts, "SAI_PORT_STAT_IF_OUT_UCAST_PKTS": pkts,
			"SAI_PORT_STAT_IF_IN_OCTETS": pkts * sonicPktBytes, "SAI_PORT_STAT_IF_OUT_OCTETS": pkts * sonicPktBytes,
			"SAI_PORT_STAT_IF_IN_ERRORS": 0, "SAI_PORT_STAT_IF_OUT_ERRORS": 0, "SAI_PORT_STAT_IF_IN_DISCARDS": 0,
		} {
			ph[k] = u(v)
		}
		var outDiscards uint64
		for q := range sonicUnicastQueues {
			cong := t.congested[port][q]
			if cong == nil {
				cong = &episodes{}
			}
			congested := cong.elapsed(now)
			lossless := plan.lossless[q]
			rx, tx := uint64(0), uint64(0)
			if lossless {
				rx = traffic.Count(sonicStormPausePPS, stormed)
				tx = traffic.Count(sonicCongestPausePPS, congested)
			}
			ph[fmt.Sprintf("SAI_PORT_STAT_PFC_%d_RX_PKTS", q)] = u(rx)
			ph[fmt.Sprintf("SAI_PORT_STAT_PFC_%d_TX_PKTS", q)] = u(tx)

			n := i*sonicUnicastQueues + q + 1
			name := port + ":" + strconv.Itoa(q)
			qoid := oid(saiQueue, n)
			hash("COUNTERS_QUEUE_NAME_MAP")[name] = qoid
			qh := hash("COUNTERS:" + qoid)
			var dropped, marks uint64
			if !lossless {
				dropped = traffic.Count(sonicStormDropPPS, stormed) + traffic.Count(sonicCongestDropPPS, congested)
			}
			if plan.ecn[q] {
				marks = traffic.Count(sonicQueueMarkPPS, up) + traffic.Count(sonicStormMarkPPS, stormed) +
					traffic.Count(sonicCongestMarkPPS, congested)
			}
			outDiscards += dropped
			sent := traffic.Count(sonicQueuePPS, up)
			for k, v := range map[string]uint64{
				"SAI_QUEUE_STAT_PACKETS": sent, "SAI_QUEUE_STAT_BYTES": sent * sonicPktBytes,
				"SAI_QUEUE_STAT_DROPPED_PACKETS": dropped, "SAI_QUEUE_STAT_DROPPED_BYTES": dropped * sonicPktBytes,
				"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": marks, "SAI_QUEUE_STAT_WRED_ECN_MARKED_BYTES": marks * sonicPktBytes,
				"SAI_QUEUE_STAT_WRED_DROPPED_PACKETS": 0, "SAI_QUEUE_STAT_WRED_DROPPED_BYTES": 0,
			} {
				qh[k] = u(v)
			}
			// A queue backs up while it is congested or, for a no-drop queue, paused.
			busy := []*episodes{cong}
			if lossless {
				busy = append(busy, storm)
			}
			pool := "egress_lossy_pool"
			if lossless {
				pool = "egress_lossless_pool"
			}
			wm := func(active func(*episodes) bool) string {
				for _, e := range busy {
					if active(e) {
						return strconv.FormatInt(plan.busyBytes(pool), 10)
					}
				}
				return strconv.Itoa(sonicIdleWatermark)
			}
			const qwm = "SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES"
			qh[qwm] = wm((*episodes).on)
			hash("PERIODIC_WATERMARKS:" + qoid)[qwm] = wm(func(e *episodes) bool { return e.since(window) })
			ever := wm(func(e *episodes) bool { return len(e.list) > 0 })
			hash("USER_WATERMARKS:" + qoid)[qwm] = ever
			hash("PERSISTENT_WATERMARKS:" + qoid)[qwm] = ever
			if plan.wd != nil && plan.wdQueues[q] {
				sw.watchdog(qh, plan.wd, storm, now)
			}
		}
		ph["SAI_PORT_STAT_IF_OUT_DISCARDS"] = u(outDiscards)
		for g := range sonicPriorityGroups {
			name := port + ":" + strconv.Itoa(g)
			goid := oid(saiPG, i*sonicPriorityGroups+g+1)
			hash("COUNTERS_PG_NAME_MAP")[name] = goid
			// A lossless PG fills while a no-drop queue mapping to it is congested.
			var fills []*episodes
			for prio, pg := range plan.pgOf {
				if c := t.congested[port][prio]; pg == g && c != nil {
					fills = append(fills, c)
				}
			}
			pgwm := func(active func(*episodes) bool) (shared, headroom string) {
				for _, e := range fills {
					if active(e) {
						return strconv.FormatInt(plan.busyBytes("ingress_lossless_pool"), 10), strconv.Itoa(sonicHeadroomUsed)
					}
				}
				return strconv.Itoa(sonicIdleWatermark), "0"
			}
			put := func(key string, active func(*episodes) bool) {
				shared, headroom := pgwm(active)
				h := hash(key + goid)
				h["SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES"] = shared
				h["SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES"] = headroom
			}
			put("COUNTERS:", (*episodes).on)
			hash("COUNTERS:" + goid)["SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS"] = "0"
			put("PERIODIC_WATERMARKS:", func(e *episodes) bool { return e.since(window) })
			put("USER_WATERMARKS:", func(e *episodes) bool { return len(e.list) > 0 })
			put("PERSISTENT_WATERMARKS:", func(e *episodes) bool { return len(e.list) > 0 })
		}
	}
	return out
}

// watchdog writes pfcwdorch's fields into a watched queue's hash (pfcwdorch.cpp,
// pfcactionhandler.cpp): a storm counts as detected once it has lasted the detection time,
// and as restored once it has been over for the restoration time. Times in CONFIG_DB are ms;
// COUNTERS_DB holds them in us, as pfcwdorch writes them.
func (sw *Switch) watchdog(qh map[string]string, wd map[string]string, storm *episodes, now time.Time) {
	ms := func(field string, def int) time.Duration {
		if n, err := strconv.Atoi(wd[field]); err == nil && n > 0 {
			return time.Duration(n) * time.Millisecond
		}
		return time.Duration(def) * time.Millisecond
	}
	detect, restore := ms("detection_time", 200), ms("restoration_time", 200)
	var detected, restored int
	status := "operational"
	for _, ep := range storm.list {
		end := ep.end
		if end.IsZero() {
			end = now
		}
		if end.Sub(ep.start) < detect {
			continue
		}
		detected++
		if !ep.end.IsZero() && now.Sub(ep.end) >= restore {
			restored++
		} else {
			status = "stormed"
		}
	}
	action := wd["action"]
	if action == "" {
		action = "drop"
	}
	qh["PFC_WD_STATUS"] = status
	qh["PFC_WD_ACTION"] = action
	qh["PFC_WD_DETECTION_TIME"] = strconv.FormatInt(detect.Microseconds(), 10)
	qh["PFC_WD_RESTORATION_TIME"] = strconv.FormatInt(restore.Microseconds(), 10)
	qh["PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED"] = strconv.Itoa(detected)
	qh["PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED"] = strconv.Itoa(restored)
	qh["SAI_QUEUE_ATTR_PAUSE_STATUS"] = strconv.FormatBool(storm.on())
}
