package nvued

// Operational counters of the switch's ports, served at GET /nvue_v1/interface/<swp>/counters/qos
// in the shape of NVUE's OpenAPI schema for Cumulus Linux 5.12 (cue-show-schema-qos-if-qos-stats:
// ingress-buffer-stats per priority group, egress-queue-stats per traffic class, pfc-stats per
// switch priority, port-stats per counter name; string keys, integer leaves). The numbers are
// the lab's own model, computed from the switch's clock at each read (the other lab switches'
// traffic shape): frames flow on every traffic class; ECN marks grow on the traffic classes of
// the port's congestion-control profile; while a port's storm is on, its link partner pauses
// the switch priorities of the port's PFC profile and the queues of the other traffic classes
// discard.

import (
	"strconv"
	"time"
)

// Per-second rates (the lab's model; assumed).
const (
	queueFPS          = 500_000
	frameBytes        = 1_024
	ecnMarkFPS        = 50
	stormPauseFPS     = 15_000
	stormECNMarkFPS   = 20_000
	stormDiscardFPS   = 1_000
	stormPauseMicros  = 50 // pause duration accumulated per pause frame
	countersPathDepth = 4  // interface, <swp>, counters, qos
)

// storm is one port's storm clock: total storm time before the current storm, and its start.
type storm struct {
	total time.Duration
	since time.Time // zero when off
}

func (s *storm) elapsed(now time.Time) time.Duration {
	if s.since.IsZero() {
		return s.total
	}
	return s.total + now.Sub(s.since)
}

// Storm starts or stops a PFC pause storm on port; false when the switch has no such port.
func (s *Switch) Storm(port string, on bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !contains(s.o.Ports, port) {
		return false
	}
	st := s.storms[port]
	if st == nil {
		st = &storm{}
		s.storms[port] = st
	}
	now := s.o.Clock()
	switch {
	case on && st.since.IsZero():
		st.since = now
	case !on && !st.since.IsZero():
		st.total += now.Sub(st.since)
		st.since = time.Time{}
	}
	return true
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// qosCounters renders port's counters now; s.mu is held.
func (s *Switch) qosCounters(port string) map[string]any {
	now := s.o.Clock()
	up := now.Sub(s.boot).Seconds()
	var stormed float64
	if st := s.storms[port]; st != nil {
		stormed = st.elapsed(now).Seconds()
	}
	lossless, ecn := s.portProfiles(port)
	ingress, egress, pfc := map[string]any{}, map[string]any{}, map[string]any{}
	var pauses, marks int64
	for i := range 8 {
		k := strconv.Itoa(i)
		frames := int64(queueFPS * up)
		entry := map[string]any{"tx-frames": frames, "tx-bytes": frames * frameBytes, "tx-uc-buffer-discards": int64(0),
			"wred-discards": int64(0), "ecn-marked-frames": int64(0)}
		if ecn[k] {
			m := int64(ecnMarkFPS*up + stormECNMarkFPS*stormed)
			entry["ecn-marked-frames"] = m
			marks += m
		}
		if !lossless[k] {
			entry["tx-uc-buffer-discards"] = int64(stormDiscardFPS * stormed)
		}
		egress[k] = entry
		ingress[k] = map[string]any{"rx-frames": frames, "rx-buffer-discards": int64(0), "rx-shared-buffer-discards": int64(0)}
		var rx int64
		if lossless[k] {
			rx = int64(stormPauseFPS * stormed)
			pauses += rx
		}
		pfc[k] = map[string]any{"rx-pause-frames": rx, "rx-pause-duration": rx * stormPauseMicros, "tx-pause-frames": int64(0), "tx-pause-duration": int64(0)}
	}
	return map[string]any{
		"ingress-buffer-stats": ingress,
		"egress-queue-stats":   egress,
		"pfc-stats":            pfc,
		"port-stats": map[string]any{
			"ECN Marked Packets": map[string]any{"receive": "n/a", "transmit": marks},
			"MC Buffer Discards": map[string]any{"receive": "n/a", "transmit": int64(0)},
			"Pause Frames":       map[string]any{"receive": pauses, "transmit": int64(0)},
			"Tx Wait":            map[string]any{"receive": "n/a", "transmit": int64(0)},
		},
	}
}

// portProfiles returns the switch priorities of the PFC profile port binds and the traffic
// classes of its congestion-control profile with ECN enabled, as applied.
func (s *Switch) portProfiles(port string) (lossless, ecn map[string]bool) {
	lossless, ecn = map[string]bool{}, map[string]bool{}
	binding := func(kind string) map[string]any {
		name, _ := at(s.applied, "interface", port, "qos", kind, "profile").(string)
		prof, _ := at(s.applied, "qos", kind, name).(map[string]any)
		return prof
	}
	if prof := binding("pfc"); prof != nil {
		sps, _ := prof["switch-priority"].(map[string]any)
		for sp := range sps {
			lossless[sp] = true
		}
	}
	if prof := binding("congestion-control"); prof != nil {
		tcs, _ := prof["traffic-class"].(map[string]any)
		for tc, v := range tcs {
			if m, ok := v.(map[string]any); ok && (m["ecn"] == "enable" || m["ecn"] == "enabled") {
				ecn[tc] = true
			}
		}
	}
	return lossless, ecn
}

func at(tree map[string]any, keys ...string) any {
	var v any = tree
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
