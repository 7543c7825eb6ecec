package sonic

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// fakeDB is a minimal CONFIG_DB: table -> key -> field -> value. apply runs a SetRequest with
// the rules a real switch's sonic-gnmi and Generic Config Updater hold it to (the lab's sonic
// switch imitates them in full, sonic-switch.md): deletes first, the delete of an absent target
// skipped; an Update of a table or key replaces it, and needs its parent (a key its table, a
// field its key); no Replace (it fails on an absent target, and this package needs none); a
// delete that leaves a table empty is refused (EmptyTableError); a key losing its last field
// disappears, as in Redis. Then the final document is validated once (references, ranges), as
// GCU's YANG validation does, and a failing request leaves the database unchanged.
type fakeDB map[string]map[string]map[string]string

func (d fakeDB) clone() fakeDB {
	out := fakeDB{}
	for t, keys := range d {
		out[t] = map[string]map[string]string{}
		for k, e := range keys {
			out[t][k] = maps.Clone(e)
		}
	}
	return out
}

// merge adds a nested ({"TABLE": {"KEY": {...}}}) or flat ({"TABLE|KEY": {...}}) document,
// field by field.
func (d fakeDB) merge(doc map[string]any) {
	for name, v := range doc {
		if table, key, flat := strings.Cut(name, "|"); flat {
			d.mergeEntry(table, key, v)
			continue
		}
		for key, ev := range v.(map[string]any) {
			d.mergeEntry(name, key, ev)
		}
	}
}

func (d fakeDB) mergeEntry(table, key string, v any) {
	for f, fv := range v.(map[string]any) {
		d.setField(table, key, f, fv.(string))
	}
}

func (d fakeDB) setField(table, key, field, value string) {
	if d[table] == nil {
		d[table] = map[string]map[string]string{}
	}
	if d[table][key] == nil {
		d[table][key] = map[string]string{}
	}
	d[table][key][field] = value
}

func (d fakeDB) remove(table, key string, field ...string) {
	if len(field) == 0 {
		delete(d[table], key)
	} else {
		delete(d[table][key], field[0])
		if len(d[table][key]) == 0 {
			delete(d[table], key)
		}
	}
	if len(d[table]) == 0 {
		delete(d, table)
	}
}

// dbOf parses the fake database through ParseDB, as a Get of ReadPaths returns it.
func (d fakeDB) dbOf(t *testing.T) *DB {
	t.Helper()
	doc := map[string]any{}
	for tn, keys := range d {
		doc[tn] = keys
	}
	return mustParse(t, rootUpdate(t, doc))
}

// set returns a function that applies what a builder returns, failing the test on an error:
// d.set(t)(BuildSet(prior, next, restore)). Every request applied so also checks the
// writer's own model of the switch (applySet, what AfterSet answers where the switch's daemons
// leave CONFIG_DB alone): CONFIG_DB as read before, with the request applied, must be CONFIG_DB
// as a read after the request returns it.
func (d fakeDB) set(t *testing.T) func(*gpb.SetRequest, error) {
	return func(req *gpb.SetRequest, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		before := d.dbOf(t)
		if err := d.apply(req); err != nil {
			t.Fatalf("the device refuses the request: %v\n%s", err, renderSet(t, req))
		}
		kept, err := before.applySet(req)
		if err != nil {
			t.Fatalf("applySet of an accepted request: %v\n%s", err, renderSet(t, req))
		}
		if diff := cmp.Diff(d.dbOf(t).tables, kept.tables); diff != "" {
			t.Errorf("CONFIG_DB kept after the Set differs from a fresh read (-read +kept):\n%s\n%s", diff, renderSet(t, req))
		}
	}
}

func (d fakeDB) apply(req *gpb.SetRequest) error {
	if req.GetPrefix().GetOrigin() != Origin {
		return fmt.Errorf("prefix origin %q, want %q", req.GetPrefix().GetOrigin(), Origin)
	}
	work := d.clone()
	wholeDeleted := map[string]bool{}
	for _, p := range req.Delete {
		t, k, f, err := split(p)
		if err != nil {
			return err
		}
		switch {
		case !work.has(t, k, f...): // sonic-gnmi skips the delete of an absent target
		case k == "":
			delete(work, t)
			wholeDeleted[t] = true
		case len(f) == 0:
			delete(work[t], k) // jsonpatch leaves the table, empty or not
		default:
			delete(work[t][k], f[0])
		}
	}
	if len(req.Replace) > 0 {
		// A Replace is a remove then an add: it fails on an absent target. This package never
		// needs one (an Update of a key already replaces it).
		return fmt.Errorf("%s: Replace used; an Update of a key replaces it, and a Replace fails where the key is absent", pathKey(req.Replace[0].Path))
	}
	for _, u := range req.Update {
		t, k, f, err := split(u.Path)
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(u.GetVal().GetJsonIetfVal(), &v); err != nil {
			return err
		}
		switch {
		case k == "": // the whole table, replaced
			keys, ok := v.(map[string]any)
			if !ok || len(keys) == 0 {
				return fmt.Errorf("%s: want an object of keys", pathKey(u.Path))
			}
			delete(work, t)
			for key, ev := range keys {
				if err := work.putEntry(t, key, ev, pathKey(u.Path)); err != nil {
					return err
				}
			}
		case len(f) == 0: // a whole key, replaced; its table must exist (jsonpatch add)
			if _, ok := work[t]; !ok && !wholeDeleted[t] && d[t] == nil {
				return fmt.Errorf("%s: member '%s' not found (the table is absent: write the table)", pathKey(u.Path), t)
			}
			work.remove(t, k)
			if err := work.putEntry(t, k, v, pathKey(u.Path)); err != nil {
				return err
			}
		default: // one field; its key must exist
			if !work.has(t, k) {
				return fmt.Errorf("%s: member '%s' not found (the key is absent: write the key)", pathKey(u.Path), k)
			}
			sv, ok := v.(string)
			if !ok {
				return fmt.Errorf("%s: CONFIG_DB values are strings, got %T", pathKey(u.Path), v)
			}
			work.setField(t, k, f[0], sv)
		}
	}
	for t, keys := range work {
		for k, e := range keys {
			if len(e) == 0 {
				delete(keys, k) // Redis keeps no empty hash
			}
		}
		if len(keys) == 0 && d[t] != nil {
			return fmt.Errorf("EmptyTableError: the request leaves table %s empty (delete the table instead)", t)
		}
	}
	if err := work.validate(); err != nil {
		return err
	}
	for t := range d {
		delete(d, t)
	}
	maps.Copy(d, work)
	return nil
}

func (d fakeDB) has(table, key string, field ...string) bool {
	if key == "" {
		_, ok := d[table]
		return ok
	}
	e, ok := d[table][key]
	if !ok || len(field) == 0 {
		return ok
	}
	_, ok = e[field[0]]
	return ok
}

func (d fakeDB) putEntry(table, key string, v any, where string) error {
	entry, ok := v.(map[string]any)
	if !ok || len(entry) == 0 {
		return fmt.Errorf("%s: want an object of fields", where)
	}
	for fn, fv := range entry {
		s, ok := fv.(string)
		if !ok {
			return fmt.Errorf("%s/%s: CONFIG_DB values are strings, got %T", where, fn, fv)
		}
		d.setField(table, key, fn, s)
	}
	return nil
}

func split(p *gpb.Path) (table, key string, field []string, err error) {
	var n []string
	for _, e := range p.GetElem() {
		if len(e.GetKey()) > 0 {
			return "", "", nil, fmt.Errorf("%s: sonic-db paths carry no keyed elements", pathKey(p))
		}
		n = append(n, e.GetName())
	}
	if len(n) < 3 || len(n) > 5 || n[0] != "CONFIG_DB" || n[1] != "localhost" {
		return "", "", nil, fmt.Errorf("%s: want CONFIG_DB/localhost/TABLE[/KEY[/FIELD]]", pathKey(p))
	}
	if len(n) == 3 {
		return n[2], "", nil, nil
	}
	return n[2], n[3], n[4:], nil
}

// refs are the leafrefs of sonic-yang-models that the tables we touch hold.
var refs = []struct{ table, field, target string }{
	{tPortQoSMap, fDSCPToTC, tDSCPToTC}, {tPortQoSMap, fDot1pToTC, tDot1pToTC},
	{tPortQoSMap, fTCToQueue, tTCToQueue}, {tPortQoSMap, fTCToPG, tTCToPG},
	{tPortQoSMap, fPFCToQueue, tPFCToQueue}, {tPortQoSMap, "scheduler", tScheduler},
	{tQueue, fScheduler, tScheduler}, {tQueue, fWRED, tWRED},
	{tBufferPG, fProfile, tBufferProf}, {tBufferProf, "pool", "BUFFER_POOL"},
}

var (
	prioList  = regexp.MustCompile(`^([0-7](,[0-7])*)?$`)
	cableRule = regexp.MustCompile(`^([0-9]+m|None)$`)
)

func (d fakeDB) validate() error {
	for _, r := range refs {
		for k, e := range d[r.table] {
			v, ok := e[r.field]
			if !ok || (r.table == tBufferPG && v == "NULL") {
				continue
			}
			if _, ok := d[r.target][normRef(v)]; !ok {
				return fmt.Errorf("%s|%s.%s = %q: no %s|%s", r.table, k, r.field, v, r.target, normRef(v))
			}
		}
	}
	for _, t := range []string{tPortQoSMap, tQueue, tBufferPG, tPFCWatchdog} {
		for k := range d[t] {
			port, _, _ := strings.Cut(k, "|")
			_, isPort := d[tPort][port]
			if !isPort && k != "global" && k != keyPFCWDGlobl && strings.Count(k, "|") < 3 {
				return fmt.Errorf("%s|%s: no PORT|%s", t, k, port)
			}
		}
	}
	for k, e := range d[tPortQoSMap] {
		for _, f := range []string{fPFCEnable, fPFCWDSwEnable} {
			if v, ok := e[f]; ok && !prioList.MatchString(v) {
				return fmt.Errorf("PORT_QOS_MAP|%s.%s = %q is not a priority list", k, f, v)
			}
		}
	}
	for _, e := range d[tCableLength] {
		for port, v := range e {
			if _, ok := d[tPort][port]; !ok || !cableRule.MatchString(v) {
				return fmt.Errorf("CABLE_LENGTH %s = %q: unknown port or invalid length", port, v)
			}
		}
	}
	return d.validateRanges()
}

func (d fakeDB) validateRanges() error {
	poll := d[tPFCWatchdog][keyPFCWDGlobl][fPollInterval]
	for k, e := range d[tPFCWatchdog] {
		for _, f := range []string{fWDDetection, fWDRestoration} {
			if v, ok := e[f]; ok && poll != "" && atoiOr(v, true) < atoiOr(poll, true) {
				return fmt.Errorf("PFC_WD|%s.%s %s is below POLL_INTERVAL %s", k, f, v, poll)
			}
		}
	}
	for k, e := range d[tWRED] {
		for _, c := range []string{"green", "yellow", "red"} {
			if atoi64Or(e[c+"_max_threshold"]) < atoi64Or(e[c+"_min_threshold"]) {
				return fmt.Errorf("WRED_PROFILE|%s: %s max threshold below min", k, c)
			}
		}
	}
	for k, e := range d[tScheduler] {
		if w, ok := e["weight"]; ok {
			if n, err := strconv.Atoi(w); err != nil || n < 1 || n > 100 {
				return fmt.Errorf("SCHEDULER|%s.weight %q is outside 1-100", k, w)
			}
		}
	}
	return nil
}
