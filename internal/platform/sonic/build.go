package sonic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// PortBinding is what a port had, before a policy bound it, in the settings a policy writes:
// the PORT_QOS_MAP|<port> fields (dscp_to_tc_map, dot1p_to_tc_map, tc_to_queue_map,
// tc_to_pg_map, pfc_to_queue_map, pfc_enable) and the QUEUE|<port>|<q> entries of queues 0-7,
// byte for byte as the device held them. A field or queue missing here was absent; the zero
// PortBinding is a port with none of them. It is JSON-encodable for private state.
type PortBinding struct {
	QoSMap map[string]string            `json:"qos_map,omitempty"`
	Queues map[string]map[string]string `json:"queues,omitempty"` // queue index ("3") -> fields
	// PGs are the port's BUFFER_PG keys ("3" or "3-4" -> profile) before the binding, when
	// PGsRecorded: on the dynamic buffer model the policy adds a key for a lossless PG no key
	// covers, and removes on unbind only the keys that were not there; a range it split
	// (pg_split.go) comes back. Versions before ranges were recorded kept single PGs only.
	PGs         map[string]string `json:"pgs,omitempty"`
	PGsRecorded bool              `json:"pgs_recorded,omitempty"`
	// QueueBuffers are the port's BUFFER_QUEUE keys before the binding (qindex "0-2" ->
	// profile), when QueueBuffersRecorded: the layout the policy moves its lossless queues
	// onto the lossless egress profile from, and puts back on unbind (queue_buffer.go).
	QueueBuffers         map[string]string `json:"queue_buffers,omitempty"`
	QueueBuffersRecorded bool              `json:"queue_buffers_recorded,omitempty"`
}

// PortFields reports the settings of port a policy writes, as the device has them now: the
// prior values BuildSet restores when the policy lets go of the port.
func (db *DB) PortFields(port string) PortBinding {
	var b PortBinding
	for _, f := range append(slices.Clone(policyPortFields), fPFCToPG) {
		if v, ok := db.field(tPortQoSMap, port, f); ok {
			if b.QoSMap == nil {
				b.QoSMap = map[string]string{}
			}
			b.QoSMap[f] = v
		}
	}
	for q := range 8 {
		if e, ok := db.entry(tQueue, queueKey(port, q)); ok {
			if b.Queues == nil {
				b.Queues = map[string]map[string]string{}
			}
			b.Queues[strconv.Itoa(q)] = copyFields(e)
		}
	}
	b.PGsRecorded = true
	for _, k := range db.keys(tBufferPG) {
		rest, ok := strings.CutPrefix(k, port+"|")
		if _, _, valid := pgRange(rest); !ok || !valid {
			continue
		}
		if v, ok := db.field(tBufferPG, k, fProfile); ok {
			if b.PGs == nil {
				b.PGs = map[string]string{}
			}
			b.PGs[rest] = v
		}
	}
	b.QueueBuffersRecorded = true
	if qb := db.queueBuffers(port); len(qb) > 0 {
		b.QueueBuffers = qb
	}
	return b
}

// BuildSet returns the one SetRequest that takes the device from prior to next: create when
// prior is nil, delete when next is nil, update (a rename included) otherwise.
//
// Objects the policy owns are written whole with Replace at key level: DSCP_TO_TC_MAP|<name>
// (all 64 DSCPs), DOT1P_TO_TC_MAP|<name> (all 8 PCPs, when trust or a class uses PCP),
// TC_TO_QUEUE_MAP|<name> and MAP_PFC_PRIORITY_TO_QUEUE|<name> (identity),
// TC_TO_PRIORITY_GROUP_MAP|<name> (see pgMap), SCHEDULER|<name>-<class> and, per ECN class,
// WRED_PROFILE|<name>-<class>. While a port is bound, its QUEUE|<port>|<tc> key of each
// class is the policy's too (Replace). PORT_QOS_MAP|<port> is shared: only its six policy
// fields are written, each by its own field-level Update or Delete; the key is never replaced.
//
// A port that stops being bound, and every port on delete, gets back restore[port]: fields
// and queues as they were before (an Update or a Replace of the queue), absent ones deleted.
// A prior value naming one of this policy's own objects (old or new name) counts as absent:
// that object may be going away. Owned objects next no longer has are deleted. The device
// validates references once, after the whole request, so the order within it is free.
func BuildSet(prior, next *fabric.QoSPolicy, restore map[string]PortBinding, db *DB) (*gpb.SetRequest, error) {
	if prior == nil && next == nil {
		return nil, fmt.Errorf("sonic: BuildSet needs a prior or a next policy")
	}
	var pl, nl *layout
	var err error
	if prior != nil {
		if pl, err = newLayout(sanitizePrior(*prior)); err != nil {
			return nil, fmt.Errorf("prior: %w", err)
		}
	}
	if next != nil {
		if nl, err = newLayout(next); err != nil {
			return nil, err
		}
	}
	ours := ownNames(pl, nl)
	if db == nil {
		return nil, fmt.Errorf("sonic: BuildSet needs the device's CONFIG_DB")
	}
	b := newSetBuilder(db)
	// Writes first: a path is touched once, so what next writes is never deleted or restored.
	if nl != nil {
		for _, o := range nl.objects() {
			b.replace(o.table, o.key, o.fields)
		}
		fields := portFields(nl.name, nl.trust, nl.lossless)
		pfcPG := false
		for _, port := range nl.ifaces {
			for _, f := range policyPortFields {
				b.setOrDelete(tPortQoSMap, port, f, fields[f])
			}
			followWatchdog(b, db, port, fields[fPFCEnable])
			splitPGRanges(b, db, port, nl.lossless)      // before followBuffer: a split range is claimed
			followBuffer(b, db, port, nl.lossless, true) // pgMap: a lossless TC's PG is its number
			base := restore[port]
			if !base.QueueBuffersRecorded {
				base = db.PortFields(port) // a create, or a binding recorded by an older version
			}
			writeQueueBuffers(b, db, port, db.queueBufferLayout(base.QueueBuffers, nl.lossless, db.losslessEgressProfile()))
			if _, ok := db.field(tPortQoSMap, port, fPFCToPG); ok {
				if len(nl.lossless) > 0 {
					b.set(tPortQoSMap, port, fPFCToPG, nl.name)
					pfcPG = true
				} else {
					b.setOrDelete(tPortQoSMap, port, fPFCToPG, restoredField(restore[port], fPFCToPG, ours))
				}
			}
		}
		if pfcPG {
			b.replace(tPFCToPG, nl.name, pfcPGFields(nl.lossless))
		}
		for _, port := range nl.ifaces {
			for _, c := range nl.classes {
				b.replace(tQueue, queueKey(port, c.tc), queueFields(nl.name, c.name, c.ecn != nil))
			}
		}
	}
	if pl != nil {
		for _, port := range pl.ifaces {
			prev := restore[port]
			if nl == nil || !slices.Contains(nl.ifaces, port) {
				for _, f := range policyPortFields {
					b.setOrDelete(tPortQoSMap, port, f, restoredField(prev, f, ours))
				}
				followWatchdog(b, db, port, restoredField(prev, fPFCEnable, ours))
				b.setOrDelete(tPortQoSMap, port, fPFCToPG, restoredField(prev, fPFCToPG, ours))
				removeAddedPGs(b, db, port, pl.lossless, prev)
				if prev.PGsRecorded {
					restorePGRanges(b, db, port, prev)
				}
				followBuffer(b, db, port, restoredLosslessPGs(db, prev, ours), false)
				if prev.QueueBuffersRecorded {
					writeQueueBuffers(b, db, port, prev.QueueBuffers)
				}
			} else {
				// Still bound: the single-PG keys followBuffer made for TCs that stop being
				// lossless go, or an update from TC 2 to 5 would leave PG 2's headroom behind
				// for good (delete removes only the keys of the last lossless set).
				removeAddedPGs(b, db, port, without(pl.lossless, nl.lossless), prev)
			}
			for _, c := range pl.classes {
				if q := restoredQueue(prev, c.tc, ours); q != nil {
					b.replace(tQueue, queueKey(port, c.tc), q)
				} else {
					b.del(tQueue, queueKey(port, c.tc))
				}
			}
		}
		for _, o := range pl.objects() {
			b.del(o.table, o.key)
		}
		b.del(tPFCToPG, pl.name) // written only where a port uses pfc_to_pg_map; absent is skipped
	}
	return b.done()
}

// followWatchdog keeps a port's PFC watchdog on its no-drop priorities when the policy changes
// them: where PORT_QOS_MAP|<port>.pfcwd_sw_enable is set (by roce_pfc_interface or the stock
// configuration), it becomes the new pfc_enable (deleted with it). The watchdog can only guard
// no-drop priorities, and roce_pfc_interface reads its watchdog as configured only while the two
// agree; without this, a policy applied after the PFC interface (Terraform may order them
// either way) would leave the watchdog on the old priorities and a non-empty plan.
func followWatchdog(b *setBuilder, db *DB, port string, pfcEnable *string) {
	if v, ok := db.field(tPortQoSMap, port, fPFCWDSwEnable); ok && v != "" {
		b.setOrDelete(tPortQoSMap, port, fPFCWDSwEnable, pfcEnable)
	}
}

// followBuffer keeps the headroom of a port on the dynamic buffer model on its lossless PGs
// (pgs) as the policy changes them: each lossless PG gets a BUFFER_PG key when no key covers
// it (without one it would have no headroom), and where roce_pfc_interface's profile is the
// port's headroom now (every lossless key references it), the new lossless keys take it too,
// so the PFC interface reads as configured whichever of the two was applied first. Otherwise a
// new key is NULL (the switch computes the headroom). Keys that stop being lossless are left
// (a stock 3-4 range stays when only 3 is lossless: headroom reserved for nothing, no loss),
// except those the policy made (removeAddedPGs). The traditional model's buffermgrd writes
// these keys itself.
//
// On unbind (add false) no key is made: the port gets back the keys it had.
func followBuffer(b *setBuilder, db *DB, port string, pgs []int, add bool) {
	if db.BufferModel() != "dynamic" || len(pgs) == 0 {
		return
	}
	profile := "NULL"
	if now, pfc := db.pgKeys(port, db.losslessPGs(port)), db.pfcProfile(port); len(now) > 0 && pfc != "" {
		uses := true
		for _, k := range now {
			if v, _ := db.ref(tBufferPG, k, fProfile); v != pfc {
				uses = false
			}
		}
		if uses {
			profile = pfc
		}
	}
	for _, k := range db.pgKeys(port, pgs) {
		v, exists := db.ref(tBufferPG, k, fProfile)
		switch {
		case !exists && add:
			b.set(tBufferPG, k, fProfile, profile)
		case exists && profile != "NULL" && v != profile:
			b.set(tBufferPG, k, fProfile, profile)
		}
	}
}

// restoredLosslessPGs are the lossless PGs a port has once the policy gives back its prior
// pfc_enable and tc_to_pg_map.
func restoredLosslessPGs(db *DB, prev PortBinding, ours map[string]bool) []int {
	v := restoredField(prev, fPFCEnable, ours)
	if v == nil {
		return nil
	}
	prios, _ := prioritySet(*v)
	mapName := ""
	if name := restoredField(prev, fTCToPG, ours); name != nil {
		mapName = normRef(*name)
	}
	return db.mapPriorities(tTCToPG, mapName, prios)
}

// removeAddedPGs deletes, when a port leaves the policy, the single-PG keys of its lossless PGs
// that the port did not have before the binding (followBuffer made them).
func removeAddedPGs(b *setBuilder, db *DB, port string, lossless []int, prev PortBinding) {
	if !prev.PGsRecorded {
		return // recorded by an older version: what was there is unknown, so nothing is removed
	}
	for _, pg := range lossless {
		n := strconv.Itoa(pg)
		if _, was := prev.PGs[n]; was {
			continue
		}
		if _, ok := db.entry(tBufferPG, port+"|"+n); ok {
			b.del(tBufferPG, port+"|"+n)
		}
	}
}

// without is the members of a not in b.
func without(a, b []int) []int {
	var out []int
	for _, v := range a {
		if !slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

// ownNames lists the object names of both layouts: map names and per-class names.
func ownNames(ls ...*layout) map[string]bool {
	out := map[string]bool{}
	for _, l := range ls {
		if l == nil {
			continue
		}
		out[l.name] = true
		for _, c := range l.classes {
			out[objName(l.name, c.name)] = true
		}
	}
	return out
}

// restoredField is the value field f of PORT_QOS_MAP goes back to; nil deletes it.
func restoredField(prev PortBinding, f string, ours map[string]bool) *string {
	v, ok := prev.QoSMap[f]
	if !ok || (f != fPFCEnable && ours[normRef(v)]) {
		return nil
	}
	return &v
}

// restoredQueue is the entry QUEUE|<port>|<tc> goes back to, without fields that name our
// objects; nil deletes the key.
func restoredQueue(prev PortBinding, tc int, ours map[string]bool) map[string]string {
	out := map[string]string{}
	for f, v := range prev.Queues[strconv.Itoa(tc)] {
		if !ours[normRef(v)] {
			out[f] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func queueKey(port string, q int) string { return port + "|" + strconv.Itoa(q) }

func copyFields(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sanitizePrior makes a policy read back from a drifted device usable as the prior of a
// request: prior only names what to delete or rewrite, so numbers the device held in a form we
// read as Unknown (say, WRED colours that no longer agree) are replaced by valid placeholders.
func sanitizePrior(p fabric.QoSPolicy) *fabric.QoSPolicy {
	classes := make(map[string]fabric.Class, len(p.Classes))
	for n, c := range p.Classes {
		if c.ECN != nil {
			e := *c.ECN
			if e.MinThresholdBytes < 0 || e.MaxThresholdBytes < e.MinThresholdBytes {
				e.MinThresholdBytes, e.MaxThresholdBytes = 0, 0
			}
			if e.MarkProbabilityPercent < 0 || e.MarkProbabilityPercent > 100 {
				e.MarkProbabilityPercent = 0
			}
			c.ECN = &e
		}
		if c.BandwidthPercent != nil && (*c.BandwidthPercent < 1 || *c.BandwidthPercent > 100) {
			c.BandwidthPercent = fabric.Ptr(1)
		}
		classes[n] = c
	}
	p.Classes = classes
	if p.DefaultTrafficClass < 0 || p.DefaultTrafficClass > 7 {
		p.DefaultTrafficClass = 0
	}
	return &p
}
