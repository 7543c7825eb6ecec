package sonic

import (
	"fmt"
	"strconv"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// PriorField is one field of a shared key as it was before roce_pfc_interface wrote it; a nil
// Value means the field was absent.
type PriorField struct {
	Table string  `json:"table"`
	Key   string  `json:"key"`
	Field string  `json:"field"`
	Value *string `json:"value"`
}

// PFCPrior holds the prior values of exactly the shared fields a roce_pfc_interface writes:
// CABLE_LENGTH|<key>.<port>, BUFFER_PG|<port>|<pg>.profile, PFC_WD|<port>.{action,
// detection_time, restoration_time} and PORT_QOS_MAP|<port>.pfcwd_sw_enable. It is
// JSON-encodable for private state.
type PFCPrior struct {
	Fields []PriorField `json:"fields,omitempty"`
}

// PFCPrior captures, before BuildPFCSet writes next, the current values of the fields it will
// write.
func (db *DB) PFCPrior(port string, next fabric.PFCInterface) PFCPrior {
	var out PFCPrior
	for _, w := range db.pfcWrites(port, &next) {
		f := PriorField{Table: w.table, Key: w.key, Field: w.field}
		if v, ok := db.field(w.table, w.key, w.field); ok {
			f.Value = &v
		}
		out.Fields = append(out.Fields, f)
	}
	return out
}

// Merge keeps p's values and adds later's for fields p does not hold: an update records the
// prior of a field it touches for the first time, never overwriting an older one.
func (p PFCPrior) Merge(later PFCPrior) PFCPrior {
	out := PFCPrior{Fields: append([]PriorField(nil), p.Fields...)}
	for _, f := range later.Fields {
		if !p.has(f.Table, f.Key, f.Field) {
			out.Fields = append(out.Fields, f)
		}
	}
	return out
}

func (p PFCPrior) has(table, key, field string) bool {
	for _, f := range p.Fields {
		if f.Table == table && f.Key == key && f.Field == field {
			return true
		}
	}
	return false
}

// fieldWrite is one shared field roce_pfc_interface sets.
type fieldWrite struct{ table, key, field, value string }

// category tells which attribute of the resource a shared field serves.
func category(table string) string {
	switch table {
	case tCableLength:
		return "cable"
	case tBufferPG:
		return "buffer"
	}
	return "watchdog" // PFC_WD and PORT_QOS_MAP.pfcwd_sw_enable
}

// manages reports which categories p writes.
func manages(p *fabric.PFCInterface) map[string]bool {
	m := map[string]bool{}
	if p == nil {
		return m
	}
	if b := p.Buffer; b != nil {
		m["cable"] = b.CableLengthM != nil
		m["buffer"] = b.XoffBytes != nil && b.XonBytes != nil
	}
	m["watchdog"] = p.Watchdog != nil
	return m
}

// pfcWrites lists the shared fields p writes on port, given the device as db describes it.
func (db *DB) pfcWrites(port string, p *fabric.PFCInterface) []fieldWrite {
	var out []fieldWrite
	m := manages(p)
	if m["cable"] {
		out = append(out, fieldWrite{tCableLength, db.cableKey(port), port, strconv.Itoa(*p.Buffer.CableLengthM) + "m"})
	}
	if m["buffer"] {
		for _, k := range db.pgKeys(port, db.losslessPGs(port)) {
			out = append(out, fieldWrite{tBufferPG, k, fProfile, bufferProfileName(port, *p.Buffer.XoffBytes, *p.Buffer.XonBytes)})
		}
	}
	if m["watchdog"] {
		w := p.Watchdog
		prios, _ := db.priorities(port)
		out = append(out,
			fieldWrite{tPFCWatchdog, port, fWDAction, w.Action},
			fieldWrite{tPFCWatchdog, port, fWDDetection, strconv.Itoa(w.DetectionTimeMs)},
			fieldWrite{tPFCWatchdog, port, fWDRestoration, strconv.Itoa(w.RestorationTimeMs)},
			fieldWrite{tPortQoSMap, port, fPFCWDSwEnable, pfcEnable(prios)})
	}
	return out
}

// BuildPFCSet returns the one SetRequest that takes port from prior to next (create when prior
// is nil, delete when next is nil), writing only what roce_pfc_interface owns:
//   - BUFFER_PROFILE|roce-<port>-lossless, whole (Replace): pool ingress_lossless_pool,
//     xoff, xon, size = xoff + xon, dynamic_th "0", when buffer xoff/xon are set;
//   - fields of shared keys, each by a field-level Update: BUFFER_PG|<port>|<pg>.profile of
//     each lossless PG (see pgKeys), CABLE_LENGTH|<key>.<port> = "<n>m",
//     PFC_WD|<port>.{action, detection_time, restoration_time} (ms) and
//     PORT_QOS_MAP|<port>.pfcwd_sw_enable = the port's no-drop priorities, when a watchdog is
//     set. pfc_enable and every other policy field are never written.
//
// Fields prior wrote that next does not get back their value from restore (absent: deleted;
// without a recorded prior, as after import, deleted too). db is the device as read before
// the request; next is checked against it (CheckPFCAgainst). mode = on writes nothing: it
// asserts the port's pfc_enable, which the bound policy writes.
func BuildPFCSet(port string, prior, next *fabric.PFCInterface, db *DB, restore PFCPrior) (*gpb.SetRequest, error) {
	if prior == nil && next == nil {
		return nil, fmt.Errorf("sonic: BuildPFCSet needs a prior or a next PFC interface")
	}
	if db == nil {
		return nil, fmt.Errorf("sonic: BuildPFCSet needs the device's CONFIG_DB")
	}
	b := newSetBuilder(db)
	nextM, priorM := manages(next), manages(prior)
	profile := ""
	if m := manages(next); m["buffer"] {
		profile = bufferProfileName(port, *next.Buffer.XoffBytes, *next.Buffer.XonBytes)
	}
	if next != nil {
		if next.Interface != port {
			return nil, fmt.Errorf("sonic: PFC interface %q built for port %q", next.Interface, port)
		}
		if err := CheckPFCAgainst(*next, db); err != nil {
			return nil, err
		}
		if err := CheckBufferModel(*next, db); err != nil {
			return nil, err
		}
		if nextM["buffer"] {
			xoff, xon := *next.Buffer.XoffBytes, *next.Buffer.XonBytes
			b.replace(tBufferProf, profile, map[string]string{"pool": losslessPool, "xoff": strconv.FormatInt(xoff, 10),
				"xon": strconv.FormatInt(xon, 10), "size": strconv.FormatInt(xoff+xon, 10), "dynamic_th": "0"})
		}
		for _, w := range db.pfcWrites(port, next) {
			b.set(w.table, w.key, w.field, w.value)
		}
	}
	if prior != nil {
		// What prior wrote: the fields recorded before it did, and those it writes on today's
		// device (a lossless PG added since, or no recorded prior at all).
		undo := append([]PriorField(nil), restore.Fields...)
		for _, w := range db.pfcWrites(port, prior) {
			if !restore.has(w.table, w.key, w.field) {
				undo = append(undo, PriorField{Table: w.table, Key: w.key, Field: w.field})
			}
		}
		for _, f := range undo {
			if !priorM[category(f.Table)] {
				continue // prior left this setting alone; a path next writes is claimed already
			}
			v := f.Value
			if v != nil && isOurProfile(port, normRef(*v)) {
				v = nil
			}
			if f.Table == tBufferPG {
				if _, exists := db.entry(tBufferPG, f.Key); !exists {
					continue // the key is gone (the policy that made it let go): nothing of ours is there
				}
			}
			if f.Table == tBufferPG && v == nil && db.BufferModel() == "dynamic" && db.keyHoldsLossless(port, f.Key) {
				// A lossless PG keeps a key on the dynamic model: back to the computed headroom.
				null := "NULL"
				v = &null
			}
			if f.Table == tPortQoSMap && f.Field == fPFCWDSwEnable && v != nil && *v != "" {
				// A watchdog that was on before stays on the port's no-drop priorities as they are
				// now, which a policy may have changed since (followWatchdog).
				v = nil
				if now, ok := db.field(tPortQoSMap, port, fPFCEnable); ok {
					v = &now
				}
			}
			b.setOrDelete(f.Table, f.Key, f.Field, v)
		}
		if priorM["buffer"] {
			// The profiles of earlier headrooms (or all, when next lets go of the headroom): the
			// PGs move to next's in the same request.
			for _, name := range db.ourProfiles(port) {
				if name != profile {
					b.del(tBufferProf, name)
				}
			}
		}
	}
	return b.done()
}
