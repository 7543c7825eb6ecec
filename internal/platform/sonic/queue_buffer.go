package sonic

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Egress buffers of lossless queues (BUFFER_QUEUE|<port>|<qindex>.profile).
//
// A no-drop priority needs its egress queue on the lossless egress pool as well as its
// priority group on the lossless ingress pool: a queue left on a lossy profile drops once its
// dynamic threshold is reached, whatever PFC does upstream. SONiC's stock configuration
// (buffers_config.j2) gives queues 3-4 egress_lossless_profile and 0-2 and 5-6 a lossy one, and
// neither buffer manager changes BUFFER_QUEUE when pfc_enable changes (cfgmgr/buffermgr.cpp
// copies the table to APPL_DB as it is; buffermgrdyn.cpp only swaps in zero profiles on admin
// down). So a policy that makes TC 2 or 5 lossless must move that queue itself.
//
// While a policy binds a port, the port's BUFFER_QUEUE keys are the layout it had before the
// binding (PortBinding.QueueBuffers) with each lossless queue of the policy on the lossless
// egress profile: a key whose queues all keep their profile stays as it is; a range holding a
// lossless queue on a lossy profile is split into runs ("0-2" -> "0-1" lossy, "2" lossless);
// a lossless queue no key holds gets its own key. Queues that stop being lossless go back to
// their earlier profile, and unbinding puts back the earlier keys exactly.

const (
	tBufferQueue = "BUFFER_QUEUE"
	// egressLosslessPool and egressLosslessProfile are the names SONiC's buffer templates
	// give the lossless egress pool and profile (buffers_defaults_*.j2 on every vendor).
	egressLosslessPool    = "egress_lossless_pool"
	egressLosslessProfile = "egress_lossless_profile"
	// maxQueue is the highest queue index sonic-buffer-queue.yang's qindex takes.
	maxQueue = 15
)

// queueBuffers are port's BUFFER_QUEUE keys now, as qindex ("0-2") -> profile.
func (db *DB) queueBuffers(port string) map[string]string {
	out := map[string]string{}
	for _, k := range db.keys(tBufferQueue) {
		rest, ok := strings.CutPrefix(k, port+"|")
		if !ok {
			continue
		}
		if _, _, ok := queueRange(rest); !ok {
			continue
		}
		v, _ := db.ref(tBufferQueue, k, fProfile)
		out[rest] = v
	}
	return out
}

// queueRange parses a BUFFER_QUEUE qindex: "3" or "0-2".
func queueRange(s string) (int, int, bool) { return indexRange(s, maxQueue) }

// losslessEgressProfile is the profile a lossless queue gets: egress_lossless_profile when the
// switch has it, else the first profile on egress_lossless_pool; "" when the switch has
// neither (no buffer configuration to follow: BUFFER_QUEUE is left alone).
func (db *DB) losslessEgressProfile() string {
	if _, ok := db.entry(tBufferProf, egressLosslessProfile); ok {
		return egressLosslessProfile
	}
	for _, k := range db.keys(tBufferProf) {
		if v, _ := db.ref(tBufferProf, k, "pool"); v == egressLosslessPool {
			return k
		}
	}
	return ""
}

// isLosslessEgress reports whether a queue on profile already drains into the lossless pool.
func (db *DB) isLosslessEgress(profile, lossless string) bool {
	if profile == lossless {
		return true
	}
	v, _ := db.ref(tBufferProf, profile, "pool")
	return v == egressLosslessPool
}

// queueBufferLayout is the layout base becomes with the lossless queues on profile (see the
// top of this file). base is not changed.
func (db *DB) queueBufferLayout(base map[string]string, lossless []int, profile string) map[string]string {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	if profile == "" || len(lossless) == 0 {
		return out
	}
	need := map[int]bool{}
	for _, q := range lossless {
		need[q] = true
	}
	covered := map[int]bool{}
	for _, k := range slices.Sorted(maps.Keys(base)) {
		lo, hi, _ := queueRange(k)
		p := base[k]
		split := false
		for q := lo; q <= hi; q++ {
			covered[q] = true
			split = split || (need[q] && !db.isLosslessEgress(p, profile))
		}
		if !split {
			continue
		}
		delete(out, k)
		at := func(q int) string {
			if need[q] {
				return profile
			}
			return p
		}
		for start, q := lo, lo; q <= hi; q++ {
			if q < hi && at(q+1) == at(q) {
				continue
			}
			out[qindex(start, q)] = at(q)
			start = q + 1
		}
	}
	for q := range need {
		if !covered[q] {
			out[strconv.Itoa(q)] = profile
		}
	}
	return out
}

func qindex(lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return strconv.Itoa(lo) + "-" + strconv.Itoa(hi)
}

// losslessQueuesBuffered reports whether each lossless queue of port sits on the lossless
// egress pool (always true on a switch without a lossless egress profile): a port where
// someone put a lossless queue back on a lossy profile reads as not bound, so the plan shows
// it and the next apply moves the queue again.
func (db *DB) losslessQueuesBuffered(port string, lossless []int) bool {
	profile := db.losslessEgressProfile()
	if profile == "" {
		return true
	}
	now := db.queueBuffers(port)
	for _, q := range lossless {
		ok := false
		for k, p := range now {
			if lo, hi, _ := queueRange(k); q >= lo && q <= hi && db.isLosslessEgress(p, profile) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// writeQueueBuffers takes port's BUFFER_QUEUE keys from what the device has to want: keys
// want lacks are deleted, the others written whole (one field, profile).
func writeQueueBuffers(b *setBuilder, db *DB, port string, want map[string]string) {
	now := db.queueBuffers(port)
	for k := range now {
		if _, ok := want[k]; !ok {
			b.del(tBufferQueue, port+"|"+k)
		}
	}
	for k, v := range want {
		if cur, ok := now[k]; !ok || cur != v {
			b.replace(tBufferQueue, port+"|"+k, map[string]string{fProfile: v})
		}
	}
}
