package cumulus

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// QoS counters are read for many ports in one operational GET of InterfacesPath, trimmed with
// NVUE's include parameter to each port's counters/qos branch (/swp1/counters/qos, ...; every
// port: /*/counters/qos). NVIDIA's own NVUE client (NVIDIA/nv-config-manager,
// temporal/client/device/cumulus.py) reads all interfaces' counters so ("GET
// /nvue_v1/interface?include=/*/counters", "nv show interface --view counters") and keeps
// whole-interface GETs small the same way, since full answers are large on big switches; the
// answer keeps the tree, {"swp1": {"counters": {"qos": {...}}}, ...}, and leaves out what no
// include reaches. A port's counters/qos is what GET /interface/<swp>/counters/qos answers
// (Cumulus Linux 5.5 and later).

// CountersInclude are the include parameters of the counters read of ports (validated with
// ValidPort), or of every switch port when ports is empty. A port given twice is read once.
func CountersInclude(ports []string) []string {
	if len(ports) == 0 {
		return []string{"/*/counters/qos"}
	}
	var out []string
	for _, p := range ports {
		if inc := "/" + p + "/counters/qos"; !slices.Contains(out, inc) {
			out = append(out, inc)
		}
	}
	return out
}

// ParseInterfaceCounters reads the body of the counters read of ports (CountersInclude): each
// port's counters; with no ports, those of every switch port (swp<N>, swp<N>s<M>) the answer
// holds. It fails for a port the answer lacks (the switch has no such port) or a counter that
// is not a count.
func ParseInterfaceCounters(ports []string, body []byte) (map[string]Counters, error) {
	var ifs map[string]struct {
		Counters struct {
			QoS json.RawMessage `json:"qos"`
		} `json:"counters"`
	}
	if err := json.Unmarshal(body, &ifs); err != nil {
		return nil, fmt.Errorf("NVUE interface counters: %w", err)
	}
	if len(ports) == 0 {
		for name, i := range ifs {
			if ValidPort(name) && len(i.Counters.QoS) > 0 {
				ports = append(ports, name)
			}
		}
		if len(ports) == 0 {
			return nil, fmt.Errorf("NVUE reports QoS counters for no switch port")
		}
		slices.Sort(ports)
	}
	out := make(map[string]Counters, len(ports))
	for _, port := range ports {
		qos := ifs[port].Counters.QoS
		if len(qos) == 0 || strings.TrimSpace(string(qos)) == "null" {
			return nil, fmt.Errorf("NVUE reports no QoS counters for %s: the switch has no such port", port)
		}
		c, err := ParseCounters(qos)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", port, err)
		}
		out[port] = c
	}
	return out, nil
}

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

// ParseCounters reads one port's counters/qos branch (the body of GET
// /interface/<swp>/counters/qos).
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
