package sonic

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/ietfjson"
)

// DB is the part of CONFIG_DB a Get returned: table -> key -> field -> value, every value a
// string as Redis holds it. Keys keep their "|" ("Ethernet0|3"). A key without fields does
// not exist (Redis keeps no empty hash).
type DB struct {
	tables map[string]map[string]map[string]string
}

// ParseDB reads the updates of a Get below CONFIG_DB/localhost (paths complete, the response
// prefix joined). Each update may be the root (tables as members, nested
// {"TABLE": {"KEY": {...}}} as sonic-gnmi answers or flat {"TABLE|KEY": {...}} as Redis dumps
// show), one table ({"KEY": {...}}), one key ({"field": "value"}) or one field. Values are
// JSON_IETF or JSON; strings are kept byte for byte, numbers and booleans take their JSON
// text, lists (sonic-gnmi renders "field@" lists as arrays) are joined with ",", null and the
// placeholder field "NULL" are dropped. A later update replaces what an earlier one gave at
// the same level.
func ParseDB(updates []*gpb.Update) (*DB, error) {
	db := &DB{tables: map[string]map[string]map[string]string{}}
	for _, u := range updates {
		if err := db.add(u); err != nil {
			return nil, fmt.Errorf("sonic: parse CONFIG_DB %s: %w", pathKey(u.GetPath()), err)
		}
	}
	return db, nil
}

func (db *DB) add(u *gpb.Update) error {
	var names []string
	for _, e := range u.GetPath().GetElem() {
		names = append(names, e.GetName())
	}
	if len(names) < 2 || names[0] != dbName || names[1] != namespace {
		return fmt.Errorf("path does not start with %s/%s", dbName, namespace)
	}
	rest := names[2:]
	v, err := decodeValue(u.GetVal())
	if err != nil {
		return err
	}
	switch len(rest) {
	case 0:
		root, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("want a JSON object of tables, got %T", v)
		}
		for name, tv := range root {
			if table, key, flat := strings.Cut(name, "|"); flat {
				if err := db.setEntry(table, key, tv); err != nil {
					return err
				}
				continue
			}
			if err := db.setTable(name, tv); err != nil {
				return err
			}
		}
		return nil
	case 1:
		return db.setTable(rest[0], v)
	case 2:
		return db.setEntry(rest[0], rest[1], v)
	case 3:
		s, ok, err := fieldString(rest[2], v)
		if err != nil || !ok {
			return err
		}
		db.entryFor(rest[0], rest[1])[rest[2]] = s
		return nil
	}
	return fmt.Errorf("path is deeper than TABLE/KEY/FIELD")
}

func decodeValue(tv *gpb.TypedValue) (any, error) {
	var raw []byte
	switch x := tv.GetValue().(type) {
	case *gpb.TypedValue_JsonIetfVal:
		raw = x.JsonIetfVal
	case *gpb.TypedValue_JsonVal:
		raw = x.JsonVal
	case *gpb.TypedValue_StringVal:
		return x.StringVal, nil
	default:
		return nil, fmt.Errorf("want a JSON_IETF value, got %T", tv.GetValue())
	}
	// A value with more after it ("00", `{} x`) is garbled, not CONFIG_DB. Regression seed:
	// testdata/fuzz/FuzzParseDB/trailing-data.
	return ietfjson.Decode(raw)
}

func (db *DB) setTable(table string, v any) error {
	keys, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("table %s: want a JSON object of keys, got %T", table, v)
	}
	for key, ev := range keys {
		if err := db.setEntry(table, key, ev); err != nil {
			return err
		}
	}
	return nil
}

func (db *DB) setEntry(table, key string, v any) error {
	fields, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s|%s: want a JSON object of fields, got %T", table, key, v)
	}
	entry := map[string]string{}
	for f, fv := range fields {
		s, ok, err := fieldString(f, fv)
		if err != nil {
			return fmt.Errorf("%s|%s: %w", table, key, err)
		}
		if ok && f != "NULL" {
			entry[strings.TrimSuffix(f, "@")] = s
		}
	}
	if len(entry) == 0 {
		delete(db.tables[table], key)
		return nil
	}
	if db.tables[table] == nil {
		db.tables[table] = map[string]map[string]string{}
	}
	db.tables[table][key] = entry
	return nil
}

// fieldString renders one field value; ok is false for null.
func fieldString(name string, v any) (string, bool, error) {
	switch x := v.(type) {
	case nil:
		return "", false, nil
	case string:
		return x, true, nil
	case json.Number:
		return x.String(), true, nil
	case bool:
		return strconv.FormatBool(x), true, nil
	case []any:
		parts := make([]string, len(x))
		for i, item := range x {
			s, _, err := fieldString(name, item)
			if err != nil {
				return "", false, err
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), true, nil
	}
	return "", false, fmt.Errorf("field %q: want a string, got %T", name, v)
}

func (db *DB) entryFor(table, key string) map[string]string {
	if db.tables[table] == nil {
		db.tables[table] = map[string]map[string]string{}
	}
	if db.tables[table][key] == nil {
		db.tables[table][key] = map[string]string{}
	}
	return db.tables[table][key]
}

// entry returns the fields of TABLE|KEY; ok is false when the key does not exist.
func (db *DB) entry(table, key string) (map[string]string, bool) {
	e, ok := db.tables[table][key]
	return e, ok && len(e) > 0
}

// field returns one field of TABLE|KEY.
func (db *DB) field(table, key, field string) (string, bool) {
	v, ok := db.tables[table][key][field]
	return v, ok
}

// ref returns a field that references another table's key, normalised: older databases write
// references in the ABNF form "[SCHEDULER|scheduler.1]", newer ones the bare name.
func (db *DB) ref(table, key, field string) (string, bool) {
	v, ok := db.field(table, key, field)
	return normRef(v), ok
}

func normRef(v string) string {
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		v = v[1 : len(v)-1]
		if _, name, ok := strings.Cut(v, "|"); ok {
			return name
		}
	}
	return v
}

// keys returns the keys of a table, sorted.
func (db *DB) keys(table string) []string {
	out := make([]string, 0, len(db.tables[table]))
	for k, e := range db.tables[table] {
		if len(e) > 0 {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// intMap reads a map table entry ("0": "3", ...) whose keys and values are small integers;
// entries that are not integers in [0, limit) are left out.
func (db *DB) intMap(table, key string, limit int) (map[int]int, bool) {
	e, ok := db.entry(table, key)
	if !ok {
		return nil, false
	}
	out := map[int]int{}
	for k, v := range e {
		from, err1 := strconv.Atoi(k)
		to, err2 := strconv.Atoi(v)
		if err1 == nil && err2 == nil && from >= 0 && from < limit && to >= 0 && to <= 7 {
			out[from] = to
		}
	}
	return out, true
}
