package sonic

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// ErrNotKnown is AfterSet's answer when CONFIG_DB after the request cannot be told from the
// request: only a fresh read knows it.
var ErrNotKnown = errors.New("CONFIG_DB after this Set is known only by reading it")

// AfterSet is CONFIG_DB as the switch holds it once it has accepted req, a request this
// package built against db: db with req's deletes and updates applied the way sonic-gnmi
// applies them (DESIGN.md, "SONiC writes"). It lets a writer keep the switch's CONFIG_DB
// within the process instead of reading it before every write. db is left as it is (it may
// be shared with readers): tables the request touches are copied, the others shared.
//
// What the switch does with an accepted Set (sonic-net/sonic-gnmi at 5ec1c20b):
// gnmi_server/server.go `Set` hands a request of origin sonic-db to MixedDbClient (the
// validation-bypass fast path needs a request header this provider never sends and other
// tables); mixed_db_client.go `SetIncrementalConfig` turns the deletes, then the replaces, then
// the updates, in request order, into one JSON Patch, checking each against a copy of the
// running CONFIG_DB (json_client.go): `Remove` of an absent table, key or field is skipped, a
// key or field whose removal empties its parent removes the parent too; `Add` of a table or a
// key sets it whole (the JSON Patch "add" of RFC 6902 replaces what is there), of a field
// sets the field, creating a missing table or key. The Generic Config Updater applies the
// patch (sonic-utilities generic_config_updater: change_applier.py writes each changed key
// whole with ConfigDBConnector.set_entry) and checks that CONFIG_DB then equals the patched
// document, except BUFFER_PG, BUFFER_PROFILE and FLEX_COUNTER_TABLE, its "backend tables"
// (generic_updater.py PatchApplier.apply, change_applier.py remove_backend_tables_from_config):
// those the switch's own daemons rewrite.
//
// Of those daemons, the traditional buffer model's buffermgrd writes CONFIG_DB in reaction to
// a Set (sonic-net/sonic-swss cfgmgr/buffermgr.cpp: a change of PORT, CABLE_LENGTH or a port's
// PORT_QOS_MAP pfc_enable runs doSpeedUpdateTask, which sets BUFFER_PROFILE and BUFFER_PG,
// and may delete a lossless PG of an admin-down port; it follows DEVICE_METADATA
// buffer_model), while the dynamic model's buffermgrd only reads CONFIG_DB
// (cfgmgr/buffermgrdyn.cpp: DEFAULT_LOSSLESS_BUFFER_PARAMETER and DEVICE_METADATA; it computes
// into APPL_DB). So AfterSet answers ErrNotKnown for a request that touches DEVICE_METADATA,
// or, on a switch whose buffer model is not dynamic, PORT, CABLE_LENGTH or PORT_QOS_MAP.
//
// It also answers an error for what this package never builds, so a writer re-reads rather
// than guess: a Replace, another origin or target, a path outside CONFIG_DB/localhost or with
// keyed elements, a value that is not JSON_IETF.
func (db *DB) AfterSet(req *gpb.SetRequest) (*DB, error) {
	if err := db.knowable(req); err != nil {
		return nil, err
	}
	return db.applySet(req)
}

// knowable reports why CONFIG_DB after req cannot be told from req, or nil.
func (db *DB) knowable(req *gpb.SetRequest) error {
	dynamic := db.BufferModel() == "dynamic"
	for _, p := range setPaths(req) {
		el, err := setElems(req.GetPrefix(), p)
		if err != nil {
			return err
		}
		switch table := el[0]; {
		case table == "DEVICE_METADATA":
			return fmt.Errorf("%w: it changes DEVICE_METADATA (the buffer model buffermgrd follows)", ErrNotKnown)
		case !dynamic && (table == tPort || table == tCableLength || table == tPortQoSMap):
			return fmt.Errorf("%w: buffermgrd of the %s buffer model rewrites BUFFER_PROFILE and BUFFER_PG after a change of %s",
				ErrNotKnown, db.BufferModel(), table)
		}
	}
	return nil
}

func setPaths(req *gpb.SetRequest) []*gpb.Path {
	out := append([]*gpb.Path(nil), req.GetDelete()...)
	for _, u := range req.GetUpdate() {
		out = append(out, u.GetPath())
	}
	return out
}

// applySet applies req's deletes, then its updates, in order, to a copy of db.
func (db *DB) applySet(req *gpb.SetRequest) (*DB, error) {
	if o := req.GetPrefix().GetOrigin(); o != Origin {
		return nil, fmt.Errorf("sonic: SetRequest prefix origin %q, want %q", o, Origin)
	}
	if t := req.GetPrefix().GetTarget(); t != "" {
		return nil, fmt.Errorf("sonic: SetRequest prefix target %q: this package addresses CONFIG_DB by path", t)
	}
	if len(req.GetReplace()) > 0 {
		return nil, fmt.Errorf("sonic: SetRequest with a Replace (%s): this package writes with Delete and Update only", pathKey(req.GetReplace()[0].GetPath()))
	}
	next := &DB{tables: maps.Clone(db.tables)}
	if next.tables == nil {
		next.tables = map[string]map[string]map[string]string{}
	}
	owned := map[string]bool{}
	// own copies a table before its first change: db's maps stay as they are.
	own := func(table string) map[string]map[string]string {
		if !owned[table] {
			owned[table] = true
			cp := make(map[string]map[string]string, len(next.tables[table]))
			for k, e := range next.tables[table] {
				cp[k] = maps.Clone(e)
			}
			next.tables[table] = cp
		}
		return next.tables[table]
	}
	for _, p := range req.GetDelete() {
		el, err := setElems(req.GetPrefix(), p)
		if err != nil {
			return nil, err
		}
		removeFrom(own(el[0]), el)
	}
	for _, u := range req.GetUpdate() {
		el, err := setElems(req.GetPrefix(), u.GetPath())
		if err != nil {
			return nil, err
		}
		if _, ok := u.GetVal().GetValue().(*gpb.TypedValue_JsonIetfVal); !ok {
			// sonic-gnmi reads json_ietf_val only (ConvertToJsonPatch, JsonClient Add).
			return nil, fmt.Errorf("sonic: update of %s is not JSON_IETF", pathKey(u.GetPath()))
		}
		v, err := decodeValue(u.GetVal())
		if err != nil {
			return nil, fmt.Errorf("sonic: update of %s: %w", pathKey(u.GetPath()), err)
		}
		table := own(el[0])
		switch len(el) {
		case 1: // the table, whole
			clear(table)
			err = next.setTable(el[0], v)
		case 2: // a key, whole
			err = next.setEntry(el[0], el[1], v)
		case 3: // one field
			err = next.setField(el[0], el[1], el[2], v)
		}
		if err != nil {
			return nil, fmt.Errorf("sonic: update of %s: %w", pathKey(u.GetPath()), err)
		}
	}
	for t, keys := range next.tables {
		if owned[t] && len(keys) == 0 {
			delete(next.tables, t) // as JsonClient Remove does, and Redis holds no empty table
		}
	}
	return next, nil
}

// removeFrom applies one Delete (table, key or field elements) to the table's own copy; an
// absent target is skipped, and a key left without fields goes.
func removeFrom(table map[string]map[string]string, el []string) {
	switch len(el) {
	case 1:
		clear(table)
	case 2:
		delete(table, el[1])
	case 3:
		e, ok := table[el[1]]
		if !ok {
			return
		}
		delete(e, el[2])
		if len(e) == 0 {
			delete(table, el[1])
		}
	}
}

// setField sets one field as a key's field in a Get reads back (ParseDB): a string, or a list
// joined with ","; null and the placeholder "NULL" write nothing.
func (db *DB) setField(table, key, field string, v any) error {
	s, ok, err := fieldString(field, v)
	if err != nil {
		return err
	}
	if _, isString := v.(string); !isString {
		if _, isList := v.([]any); !isList {
			// JsonClient Add takes a string or a list of strings only ("Invalid field").
			return fmt.Errorf("field %q: want a string or a list, got %T", field, v)
		}
	}
	if !ok || field == "NULL" {
		return nil
	}
	db.entryFor(table, key)[strings.TrimSuffix(field, "@")] = s
	return nil
}

// setElems are the table, key and field (as many as the path has) of a path below
// CONFIG_DB/localhost, the prefix's elements first (sonic-gnmi's gnmiFullPath).
func setElems(prefix, p *gpb.Path) ([]string, error) {
	var names []string
	for _, e := range append(append([]*gpb.PathElem(nil), prefix.GetElem()...), p.GetElem()...) {
		if len(e.GetKey()) > 0 {
			return nil, fmt.Errorf("sonic: %s: sonic-db paths carry no keyed elements", pathKey(p))
		}
		names = append(names, e.GetName())
	}
	if len(names) < 3 || len(names) > 5 || names[0] != dbName || names[1] != namespace {
		return nil, fmt.Errorf("sonic: %s: want %s/%s/TABLE[/KEY[/FIELD]]", pathKey(p), dbName, namespace)
	}
	return names[2:], nil
}
