package sonic

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// Counters are a port's RoCE counters as SONiC keeps them in COUNTERS_DB (orchagent's flex
// counters, SAI statistic names), read through sonic-gnmi's virtual paths.
type Counters struct {
	// PFC pause frames received and sent per priority: SAI_PORT_STAT_PFC_<n>_RX_PKTS and
	// _TX_PKTS (the fields sonic-utilities' pfcstat reads).
	PFCRx, PFCTx map[int]int64
	// Queues by queue index (unicast queues 0-7 of the port; the rest are multicast).
	Queues map[int]Queue
	// PGs are the port's ingress priority groups by index, with their periodic watermarks.
	PGs map[int]PG
}

// Queue is one egress queue's counters. A nil pointer is a counter the switch does not keep
// (its flex counter group is off, or the ASIC has none).
type Queue struct {
	Packets, Dropped *int64 // SAI_QUEUE_STAT_PACKETS, SAI_QUEUE_STAT_DROPPED_PACKETS
	// ECNMarked is SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS (the WRED_ECN_QUEUE flex counters,
	// sonic-utilities' wredstat); WREDDropped SAI_QUEUE_STAT_WRED_DROPPED_PACKETS.
	ECNMarked, WREDDropped *int64
	// SharedWatermarkBytes is the queue's SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES: the periodic
	// copy (PERIODIC_WATERMARKS, the peak since watermarkorch last cleared it, every telemetry
	// interval: 120 s by default) where sonic-gnmi serves one, else the queue hash's own (the
	// last QUEUE_WATERMARK poll's reading).
	SharedWatermarkBytes *int64
	// The PFC watchdog's view of the queue, where it runs (PFC_WD_* fields, pfcwdorch):
	// status "operational" or "stormed", deadlocks detected and restored.
	PFCWDStatus                          string
	DeadlocksDetected, DeadlocksRestored *int64
}

// PG is one ingress priority group's periodic watermarks (watermark_pg.lua's copies of the
// PG_WATERMARK flex counters): the headroom (SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_
// WATERMARK_BYTES) and shared-buffer (..._SHARED_WATERMARK_BYTES) peaks in bytes.
type PG struct {
	HeadroomWatermarkBytes, SharedWatermarkBytes *int64
}

// CountersTarget is the gNMI prefix target of a counters read: sonic-gnmi routes it to its
// DB client (sonic_data_client/db_client.go), which answers only Gets of type ALL.
const CountersTarget = "COUNTERS_DB"

// CountersPaths are the sonic-gnmi virtual paths of port's counters under CountersTarget
// (sonic_data_client/virtual_db.go): COUNTERS/<port> is the port's counter hash,
// COUNTERS/<port>/Queues every queue's (keyed "<port>:<index>", with "<port>:<index>:periodic"
// holding the periodic watermark), PERIODIC_WATERMARKS/<port>/PriorityGroups every priority
// group's periodic watermarks (keyed "<port>:<index>"). One GetRequest reads all three.
func CountersPaths(port string) []*gpb.Path {
	elems := func(names ...string) []*gpb.PathElem {
		out := make([]*gpb.PathElem, len(names))
		for i, n := range names {
			out[i] = &gpb.PathElem{Name: n}
		}
		return out
	}
	return []*gpb.Path{
		{Elem: elems("COUNTERS", port)},
		{Elem: elems("COUNTERS", port, "Queues")},
		{Elem: elems("PERIODIC_WATERMARKS", port, "PriorityGroups")},
	}
}

// PortsCountersPaths are the paths of many ports' counters in one GetRequest: CountersPaths
// of each port, or, with no port, their wildcard forms (COUNTERS/Ethernet*, ...), which
// sonic-gnmi's virtual_db.go answers for every port in COUNTERS_PORT_NAME_MAP, keyed by the
// port's alias (ParseAllCounters).
func PortsCountersPaths(ports []string) []*gpb.Path {
	if len(ports) == 0 {
		return CountersPaths("Ethernet*")
	}
	out := make([]*gpb.Path, 0, 3*len(ports))
	for _, p := range ports {
		out = append(out, CountersPaths(p)...)
	}
	return out
}

// ParseAllCounters reads the answer to PortsCountersPaths(nil): the ports' hashes keyed by
// alias ({"<alias>": {field: value}}), the queues' and priority groups' by "<alias>:<n>".
// aliases maps each CONFIG_DB port to the alias its keys use (PortAliases); a port the answer has
// no hash for (no flex counters yet) is left out.
func ParseAllCounters(aliases map[string]string, portHashes, queues, pgs []byte) (map[string]Counters, error) {
	var hashes map[string]json.RawMessage
	if err := json.Unmarshal(portHashes, &hashes); err != nil {
		return nil, fmt.Errorf("COUNTERS/Ethernet*: %w", err)
	}
	out := map[string]Counters{}
	for name, alias := range aliases {
		h, ok := hashes[alias]
		if !ok {
			continue
		}
		c, err := ParseCounters(alias, h, queues, pgs)
		if err != nil {
			return nil, err
		}
		out[name] = c
	}
	return out, nil
}

// PortAliases are CONFIG_DB's ports, each with the name sonic-gnmi's wildcard counters use for
// it: its alias (PORT|<name> alias, sonic-gnmi's GetAliasMap), else its name.
func (db *DB) PortAliases() map[string]string {
	out := map[string]string{}
	for _, name := range db.Ports() {
		alias, ok := db.field(tPort, name, "alias")
		if !ok || alias == "" {
			alias = name
		}
		out[name] = alias
	}
	return out
}

// ParseCounters reads the JSON sonic-gnmi returns for CountersPaths(port): the port's hash,
// the queues' hashes and the priority groups' (field -> decimal string; queues and pgs may be
// empty). Keys other than "<port>:<index>" and the queues' "<port>:<index>:periodic" are not
// the port's.
func ParseCounters(port string, portHash, queues, pgs []byte) (Counters, error) {
	var ph map[string]string
	if err := json.Unmarshal(portHash, &ph); err != nil {
		return Counters{}, fmt.Errorf("COUNTERS/%s: %w", port, err)
	}
	c := Counters{PFCRx: map[int]int64{}, PFCTx: map[int]int64{}, Queues: map[int]Queue{}, PGs: map[int]PG{}}
	for p := range 8 {
		for dir, m := range map[string]map[int]int64{"RX": c.PFCRx, "TX": c.PFCTx} {
			if v, ok, err := count(ph, fmt.Sprintf("SAI_PORT_STAT_PFC_%d_%s_PKTS", p, dir)); err != nil {
				return Counters{}, fmt.Errorf("COUNTERS/%s: %w", port, err)
			} else if ok {
				m[p] = v
			}
		}
	}
	err := eachIndexed(port, "COUNTERS/"+port+"/Queues", queues, func(n int, h, periodic map[string]string) error {
		var q Queue
		if err := counts(h, map[string]**int64{
			"SAI_QUEUE_STAT_PACKETS": &q.Packets, "SAI_QUEUE_STAT_DROPPED_PACKETS": &q.Dropped,
			"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": &q.ECNMarked, "SAI_QUEUE_STAT_WRED_DROPPED_PACKETS": &q.WREDDropped,
			"SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": &q.SharedWatermarkBytes,
			"PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED":  &q.DeadlocksDetected, "PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED": &q.DeadlocksRestored,
		}); err != nil {
			return err
		}
		if periodic != nil {
			if err := counts(periodic, map[string]**int64{"SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": &q.SharedWatermarkBytes}); err != nil {
				return periodicError{err}
			}
		}
		q.PFCWDStatus = h["PFC_WD_STATUS"]
		c.Queues[n] = q
		return nil
	})
	if err != nil {
		return Counters{}, err
	}
	err = eachIndexed(port, "PERIODIC_WATERMARKS/"+port+"/PriorityGroups", pgs, func(n int, h, _ map[string]string) error {
		var pg PG
		err := counts(h, map[string]**int64{
			"SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES": &pg.HeadroomWatermarkBytes,
			"SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES":    &pg.SharedWatermarkBytes,
		})
		c.PGs[n] = pg
		return err
	})
	if err != nil {
		return Counters{}, err
	}
	return c, nil
}

// periodicError is a refusal of an index's ":periodic" copy (eachIndexed names the copy).
type periodicError struct{ error }

func (e periodicError) Unwrap() error { return e.error }

// eachIndexed hands read each queue's or priority group's hash of port in body (a reply keyed
// "<port>:<n>"), with its ":periodic" copy (nil when there is none); where is the reply's path
// in errors ("COUNTERS/<port>/Queues").
func eachIndexed(port, where string, body []byte, read func(n int, h, periodic map[string]string) error) error {
	hs, err := hashesByIndex(port, body)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	for idx, h := range hs {
		if idx.periodic {
			continue
		}
		err := read(idx.n, h, hs[hashIndex{idx.n, true}])
		var pe periodicError
		switch {
		case errors.As(err, &pe):
			return fmt.Errorf("%s %s:%d:periodic: %w", where, port, idx.n, pe.error)
		case err != nil:
			return fmt.Errorf("%s %s:%d: %w", where, port, idx.n, err)
		}
	}
	return nil
}

// hashIndex is a queue's or priority group's key below a port: "<port>:<n>", or
// "<port>:<n>:periodic" for a queue's periodic watermark.
type hashIndex struct {
	n        int
	periodic bool
}

// hashesByIndex reads {"<port>:<n>[:periodic]": {field: value}}; other keys are skipped.
func hashesByIndex(port string, body []byte) (map[hashIndex]map[string]string, error) {
	out := map[hashIndex]map[string]string{}
	if len(body) == 0 {
		return out, nil
	}
	var hs map[string]map[string]string
	if err := json.Unmarshal(body, &hs); err != nil {
		return nil, err
	}
	for key, h := range hs {
		rest, ok := strings.CutPrefix(key, port+":")
		if !ok {
			continue
		}
		rest, periodic := strings.CutSuffix(rest, ":periodic")
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 {
			continue
		}
		out[hashIndex{n, periodic}] = h
	}
	return out, nil
}

// counts sets each destination whose field the hash has.
func counts(h map[string]string, dst map[string]**int64) error {
	for field, d := range dst {
		v, ok, err := count(h, field)
		if err != nil {
			return err
		}
		if ok {
			*d = &v
		}
	}
	return nil
}

// count reads a counter field; ok is false when the hash has no such field.
func count(h map[string]string, field string) (int64, bool, error) {
	s, ok := h[field]
	if !ok {
		return 0, false, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, false, fmt.Errorf("%s = %q is not a counter", field, s)
	}
	return v, true, nil
}

// LosslessBuffers says which of port's counters are its lossless traffic's, from CONFIG_DB:
// the egress queues of its no-drop priorities (pfc_enable through the port's
// pfc_to_queue_map, MAP_PFC_PRIORITY_TO_QUEUE; the priority's own number without one), its
// lossless priority groups (through tc_to_pg_map), and the size in bytes of the pool those
// queues draw from (BUFFER_POOL|egress_lossless_pool size, SONiC's buffer templates' name;
// nil when CONFIG_DB gives it no size).
func (db *DB) LosslessBuffers(port string) (queues, pgs []int, poolBytes *int64) {
	prios, _ := db.priorities(port)
	mapName, _ := db.ref(tPortQoSMap, port, fPFCToQueue)
	queues = db.mapPriorities(tPFCToQueue, mapName, prios)
	if v, ok := db.field("BUFFER_POOL", egressLosslessPool, "size"); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			poolBytes = &n
		}
	}
	return queues, db.losslessPGs(port), poolBytes
}
