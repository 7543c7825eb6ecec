package sonic

import (
	"maps"
	"slices"
	"sort"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/ietfjson"
)

// Origin is the gNMI origin of every path this package reads or writes (sonic-gnmi's
// "sonic-db" model: the Redis databases addressed as DB/namespace/TABLE/KEY/FIELD).
const Origin = "sonic-db"

const (
	dbName    = "CONFIG_DB"
	namespace = "localhost"
)

// CONFIG_DB tables this package reads or writes.
const (
	tDSCPToTC     = "DSCP_TO_TC_MAP"
	tDot1pToTC    = "DOT1P_TO_TC_MAP"
	tTCToQueue    = "TC_TO_QUEUE_MAP"
	tTCToPG       = "TC_TO_PRIORITY_GROUP_MAP"
	tPFCToQueue   = "MAP_PFC_PRIORITY_TO_QUEUE"
	tPFCToPG      = "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"
	tScheduler    = "SCHEDULER"
	tWRED         = "WRED_PROFILE"
	tQueue        = "QUEUE"
	tPortQoSMap   = "PORT_QOS_MAP"
	tPort         = "PORT"
	tCableLength  = "CABLE_LENGTH"
	tBufferProf   = "BUFFER_PROFILE"
	tBufferPG     = "BUFFER_PG"
	tPFCWatchdog  = "PFC_WD"
	keyPFCWDGlobl = "GLOBAL"
)

// ReadPaths lists what a read needs: the CONFIG_DB root, in one Get. A Get of one path per
// table would be smaller, but sonic-gnmi fails a table path whose table has no key ("Failed
// to find"), and a switch commonly lacks DOT1P_TO_TC_MAP or WRED_PROFILE until someone writes
// one; one failing path fails the whole Get. The root always exists and is also the device
// snapshot every resource on the switch reads (DESIGN section 6).
func ReadPaths() []*gpb.Path {
	return []*gpb.Path{{Origin: Origin, Elem: []*gpb.PathElem{{Name: dbName}, {Name: namespace}}}}
}

// PFCReadPaths lists what a read of roce_pfc_interface on port needs: the same CONFIG_DB root
// as ReadPaths. The port's rows live in tables whose other keys are unknown before the read
// (the CABLE_LENGTH key, range keys of BUFFER_PG such as "Ethernet0|3-4", the bound
// TC_TO_PRIORITY_GROUP_MAP), so nothing narrower is reliable; port names nothing the read
// could leave out.
func PFCReadPaths(port string) []*gpb.Path {
	_ = port
	return ReadPaths()
}

// dbPath builds a path below CONFIG_DB/localhost: a table, then optionally a key (one element
// even when the key holds "|", such as "Ethernet0|3") and a field. Paths carry no origin: the
// SetRequest prefix does.
func dbPath(table string, keyField ...string) *gpb.Path {
	elems := []*gpb.PathElem{{Name: dbName}, {Name: namespace}, {Name: table}}
	for _, f := range keyField {
		elems = append(elems, &gpb.PathElem{Name: f})
	}
	return &gpb.Path{Elem: elems}
}

// pathKey renders a path for sorting, de-duplication and golden files:
// /CONFIG_DB/localhost/TABLE/KEY[/FIELD].
func pathKey(p *gpb.Path) string {
	s := ""
	for _, e := range p.GetElem() {
		s += "/" + e.GetName()
	}
	return s
}

// jsonIETF is v as a JSON_IETF value; an error names the platform.
func jsonIETF(v any) (*gpb.TypedValue, error) { return ietfjson.Value(v, "sonic") }

// setBuilder collects what one SetRequest must change, as whole keys (objects this package
// owns) and single fields (of shared keys), and renders it the way sonic-gnmi and the Generic
// Config Updater accept it, given the device as db read it just before (DESIGN.md, "SONiC
// writes"). sonic-gnmi turns a Set into one JSON Patch (RFC 6902) on the running CONFIG_DB:
// a Delete of an absent target is skipped, but a Replace is a remove then an add and fails when
// the target is absent; an Update of a key is an add that replaces the whole key and needs its
// table; an Update of a field needs its key; and GCU refuses a patch that leaves a table empty.
// So the request uses Delete and Update only:
//   - a table that ends up empty is deleted whole; a table that did not exist is written
//     whole (Update of the table, holding only the keys written here);
//   - a key that ends up with no field is deleted; a key written whole, or a key that did not
//     exist, is written whole (Update of the key);
//   - otherwise each field is updated or deleted on its own, so other writers' fields of a
//     shared key stay as they are.
//
// Nothing that already holds its final value is written.
type setBuilder struct {
	db     *DB
	seen   map[string]bool                 // tables, keys and fields already claimed: each is touched once
	whole  map[tableKey]map[string]string  // keys written whole; nil: deleted
	fields map[tableKey]map[string]*string // fields of shared keys; nil: deleted
}

type tableKey struct{ table, key string }

func newSetBuilder(db *DB) *setBuilder {
	if db == nil {
		db = &DB{}
	}
	return &setBuilder{db: db, seen: map[string]bool{},
		whole: map[tableKey]map[string]string{}, fields: map[tableKey]map[string]*string{}}
}

// claim reports whether table|key (or table|key|field) is still free; a key claimed whole also
// claims its fields.
func (b *setBuilder) claim(table, key string, field ...string) bool {
	k := table + "|" + key
	if b.seen[k] {
		return false
	}
	if len(field) > 0 {
		k += "|" + field[0]
		if b.seen[k] {
			return false
		}
	}
	b.seen[k] = true
	return true
}

// del deletes a whole key (an object this package owns).
func (b *setBuilder) del(table, key string) {
	if b.claim(table, key) {
		b.whole[tableKey{table, key}] = nil
	}
}

// replace writes a whole key (an object this package owns).
func (b *setBuilder) replace(table, key string, fields map[string]string) {
	if b.claim(table, key) {
		b.whole[tableKey{table, key}] = fields
	}
}

// set writes one field of a key: the only way this package writes shared keys.
func (b *setBuilder) set(table, key, field, value string) { b.setOrDelete(table, key, field, &value) }

// setOrDelete writes a field, or deletes it when v is nil.
func (b *setBuilder) setOrDelete(table, key, field string, v *string) {
	if !b.claim(table, key, field) {
		return
	}
	tk := tableKey{table, key}
	if b.fields[tk] == nil {
		b.fields[tk] = map[string]*string{}
	}
	b.fields[tk][field] = v
}

// final is what table|key holds after the request; nil when it has no field.
func (b *setBuilder) final(tk tableKey) map[string]string {
	if f, ok := b.whole[tk]; ok {
		if len(f) == 0 {
			return nil
		}
		return f
	}
	cur, _ := b.db.entry(tk.table, tk.key)
	out := copyFields(cur)
	for f, v := range b.fields[tk] {
		if v == nil {
			delete(out, f)
		} else {
			out[f] = *v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (b *setBuilder) done() (*gpb.SetRequest, error) {
	req := &gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin}}
	touched := map[string][]tableKey{}
	for tk := range b.whole {
		touched[tk.table] = append(touched[tk.table], tk)
	}
	for tk := range b.fields {
		if _, ok := b.whole[tk]; !ok {
			touched[tk.table] = append(touched[tk.table], tk)
		}
	}
	tables := make([]string, 0, len(touched))
	for t := range touched {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	for _, table := range tables {
		tks := touched[table]
		sort.Slice(tks, func(i, j int) bool { return tks[i].key < tks[j].key })
		// The table as it ends up: its untouched keys plus the final form of the touched ones.
		left := 0
		written := map[string]map[string]string{}
		for _, k := range b.db.keys(table) {
			if !slices.Contains(tks, tableKey{table, k}) {
				left++
			}
		}
		for _, tk := range tks {
			if f := b.final(tk); f != nil {
				written[tk.key] = f
				left++
			}
		}
		switch {
		case left == 0:
			if len(b.db.keys(table)) > 0 {
				req.Delete = append(req.Delete, dbPath(table))
			}
			continue
		case len(b.db.keys(table)) == 0:
			if err := b.update(req, dbPath(table), written); err != nil {
				return nil, err
			}
			continue
		}
		for _, tk := range tks {
			if err := b.renderKey(req, tk); err != nil {
				return nil, err
			}
		}
	}
	return req, nil
}

// renderKey adds the operations for one key of a table that exists before and after.
func (b *setBuilder) renderKey(req *gpb.SetRequest, tk tableKey) error {
	cur, exists := b.db.entry(tk.table, tk.key)
	next := b.final(tk)
	_, whole := b.whole[tk]
	switch {
	case next == nil:
		if exists {
			req.Delete = append(req.Delete, dbPath(tk.table, tk.key))
		}
		return nil
	case maps.Equal(cur, next):
		return nil
	case whole || !exists:
		return b.update(req, dbPath(tk.table, tk.key), next)
	}
	names := make([]string, 0, len(b.fields[tk]))
	for f := range b.fields[tk] {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		v, had := cur[f]
		switch nv := b.fields[tk][f]; {
		case nv == nil && had:
			req.Delete = append(req.Delete, dbPath(tk.table, tk.key, f))
		case nv != nil && (!had || v != *nv):
			if err := b.update(req, dbPath(tk.table, tk.key, f), *nv); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *setBuilder) update(req *gpb.SetRequest, p *gpb.Path, v any) error {
	tv, err := jsonIETF(v)
	if err != nil {
		return err
	}
	req.Update = append(req.Update, &gpb.Update{Path: p, Val: tv})
	return nil
}
