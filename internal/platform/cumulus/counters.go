package cumulus

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// CountersPath is the NVUE path of a port's QoS counters (Cumulus Linux 5.5 and later; an
// operational read).
func CountersPath(port string) string { return path("interface", port, "counters", "qos") }

// Counters are a port's QoS counters as NVUE reports them. A nil pointer (or a missing map
// entry) is a counter NVUE reports as "n/a", "unknown" or null.
type Counters struct {
	// PFC pause frames received and sent, by switch priority (pfc-stats).
	PFCRx, PFCTx map[int]int64
	// Per traffic class (egress-queue-stats): ECN-marked frames, and frames discarded by the
	// queue (tx-uc-buffer-discards, a frame count whatever the CLI table prints) or by WRED.
	ECNMarked, Discards, WREDDiscards map[int]int64
}

type counterLeaf struct {
	v  int64
	ok bool
}

// UnmarshalJSON takes an integer, or NVUE's "n/a", "unknown" or null for a counter it lacks.
func (c *counterLeaf) UnmarshalJSON(b []byte) error {
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil && n != "" {
		v, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || v < 0 {
			return fmt.Errorf("counter %s is not a count", b)
		}
		*c = counterLeaf{v, true}
		return nil
	}
	var s *string
	if err := json.Unmarshal(b, &s); err != nil || (s != nil && *s != "n/a" && *s != "unknown") {
		return fmt.Errorf("counter %s is not a count", b)
	}
	*c = counterLeaf{}
	return nil
}

// ParseCounters reads the body of GET CountersPath(port).
func ParseCounters(body []byte) (Counters, error) {
	var raw struct {
		Egress map[string]map[string]counterLeaf `json:"egress-queue-stats"`
		PFC    map[string]map[string]counterLeaf `json:"pfc-stats"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return Counters{}, fmt.Errorf("NVUE counters qos: %w", err)
	}
	c := Counters{PFCRx: map[int]int64{}, PFCTx: map[int]int64{}, ECNMarked: map[int]int64{}, Discards: map[int]int64{}, WREDDiscards: map[int]int64{}}
	fill := func(table map[string]map[string]counterLeaf, field string, into map[int]int64) {
		for k, leaves := range table {
			n, ok := number(k, 8)
			if l := leaves[field]; ok && l.ok {
				into[n] = l.v
			}
		}
	}
	fill(raw.PFC, "rx-pause-frames", c.PFCRx)
	fill(raw.PFC, "tx-pause-frames", c.PFCTx)
	fill(raw.Egress, "ecn-marked-frames", c.ECNMarked)
	fill(raw.Egress, "tx-uc-buffer-discards", c.Discards)
	fill(raw.Egress, "wred-discards", c.WREDDiscards)
	return c, nil
}
