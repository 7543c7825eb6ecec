package sonic

import (
	"encoding/json"
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
}

// Queue is one egress queue's counters. A nil pointer is a counter the switch does not keep
// (its flex counter group is off, or the ASIC has none).
type Queue struct {
	Packets, Dropped *int64 // SAI_QUEUE_STAT_PACKETS, SAI_QUEUE_STAT_DROPPED_PACKETS
	// ECNMarked is SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS (the WRED_ECN_QUEUE flex counters,
	// sonic-utilities' wredstat); WREDDropped SAI_QUEUE_STAT_WRED_DROPPED_PACKETS.
	ECNMarked, WREDDropped *int64
	// SharedWatermarkBytes is the queue's SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES in its own hash
	// (the QUEUE_WATERMARK flex counter's reading).
	SharedWatermarkBytes *int64
	// The PFC watchdog's view of the queue, where it runs (PFC_WD_* fields, pfcwdorch):
	// status "operational" or "stormed", deadlocks detected and restored.
	PFCWDStatus                          string
	DeadlocksDetected, DeadlocksRestored *int64
}

// CountersPaths are the sonic-gnmi virtual paths of port's counters, target COUNTERS_DB
// (sonic-gnmi sonic_data_client/virtual_db.go): COUNTERS/<port> is the port's counter hash,
// COUNTERS/<port>/Queues every queue's, keyed "<port>:<index>".
func CountersPaths(port string) []*gpb.Path {
	elems := func(names ...string) []*gpb.PathElem {
		out := make([]*gpb.PathElem, len(names))
		for i, n := range names {
			out[i] = &gpb.PathElem{Name: n}
		}
		return out
	}
	return []*gpb.Path{
		{Target: "COUNTERS_DB", Elem: elems("COUNTERS", port)},
		{Target: "COUNTERS_DB", Elem: elems("COUNTERS", port, "Queues")},
	}
}

// ParseCounters reads the JSON sonic-gnmi returns for CountersPaths(port): the port's hash and
// the queues' hashes (field -> decimal string). Queue keys other than "<port>:<index>" (the
// ":periodic" watermark copies) are not queues.
func ParseCounters(port string, portHash, queues []byte) (Counters, error) {
	var ph map[string]string
	if err := json.Unmarshal(portHash, &ph); err != nil {
		return Counters{}, fmt.Errorf("COUNTERS/%s: %w", port, err)
	}
	c := Counters{PFCRx: map[int]int64{}, PFCTx: map[int]int64{}, Queues: map[int]Queue{}}
	for p := range 8 {
		for dir, m := range map[string]map[int]int64{"RX": c.PFCRx, "TX": c.PFCTx} {
			if v, ok, err := count(ph, fmt.Sprintf("SAI_PORT_STAT_PFC_%d_%s_PKTS", p, dir)); err != nil {
				return Counters{}, fmt.Errorf("COUNTERS/%s: %w", port, err)
			} else if ok {
				m[p] = v
			}
		}
	}
	if len(queues) == 0 {
		return c, nil
	}
	var qs map[string]map[string]string
	if err := json.Unmarshal(queues, &qs); err != nil {
		return Counters{}, fmt.Errorf("COUNTERS/%s/Queues: %w", port, err)
	}
	for key, h := range qs {
		rest, ok := strings.CutPrefix(key, port+":")
		idx, err := strconv.Atoi(rest)
		if !ok || err != nil || idx < 0 {
			continue
		}
		var q Queue
		for field, dst := range map[string]**int64{
			"SAI_QUEUE_STAT_PACKETS": &q.Packets, "SAI_QUEUE_STAT_DROPPED_PACKETS": &q.Dropped,
			"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": &q.ECNMarked, "SAI_QUEUE_STAT_WRED_DROPPED_PACKETS": &q.WREDDropped,
			"SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": &q.SharedWatermarkBytes,
			"PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED":  &q.DeadlocksDetected, "PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED": &q.DeadlocksRestored,
		} {
			v, ok, err := count(h, field)
			if err != nil {
				return Counters{}, fmt.Errorf("COUNTERS/%s/Queues %s: %w", port, key, err)
			}
			if ok {
				*dst = &v
			}
		}
		q.PFCWDStatus = h["PFC_WD_STATUS"]
		c.Queues[idx] = q
	}
	return c, nil
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
