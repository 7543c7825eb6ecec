package sonic

// The SONiC switch's CONFIG_DB and how gNMI paths address it. SONiC keeps its configuration in
// Redis hashes named "TABLE|key" whose fields all hold strings; sonic-gnmi serves them under the
// origin "sonic-db" as /sonic-db:CONFIG_DB/localhost/<TABLE>/<KEY>/<FIELD>, where the key is one
// path element even when it contains "|" (QUEUE key "Ethernet0|3"). The lab takes exactly that
// form: origin "sonic-db" (in Path.origin, the prefix's origin, or written as "sonic-db:" on the
// first element), then CONFIG_DB, localhost, and up to three more elements.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// configDB is table -> key -> field -> value. A key without fields does not exist, as an empty
// Redis hash does not; prune enforces that after every change.
type configDB map[string]map[string]map[string]string

func (d configDB) clone() configDB {
	out := make(configDB, len(d))
	for t, keys := range d {
		out[t] = make(map[string]map[string]string, len(keys))
		for k, fields := range keys {
			out[t][k] = maps.Clone(fields)
		}
	}
	return out
}

func (d configDB) prune() {
	for t, keys := range d {
		for k, fields := range keys {
			if len(fields) == 0 {
				delete(keys, k)
			}
		}
		if len(keys) == 0 {
			delete(d, t)
		}
	}
}

// fields returns the fields of TABLE|key, nil when it does not exist.
func (d configDB) fields(table, key string) map[string]string { return d[table][key] }

// has reports whether TABLE|key exists.
func (d configDB) has(table, key string) bool { return len(d[table][key]) > 0 }

const (
	sonicOrigin  = "sonic-db"
	configDBName = "CONFIG_DB"
	sonicNS      = "localhost" // sonic-gnmi's namespace element on a single-ASIC switch
)

// dbAddr is what a path names: the whole database (depth 0), a table (1), a key (2) or a
// field (3).
type dbAddr struct {
	db                string
	table, key, field string
	depth             int
	extra             []string // TABLE, KEY, FIELD and the elements past them, when there are any
}

func (a dbAddr) String() string {
	parts := []string{a.table, a.key, a.field}[:a.depth]
	if a.depth == 0 {
		return a.db
	}
	return strings.Join(parts, "|")
}

// sonicAddr resolves a request path (with its prefix) to a database address, refusing what
// sonic-gnmi refuses before it touches the database (sonic-net/sonic-gnmi 5ec1c20b):
//   - an origin other than sonic-db: a Set is gnmi_server/server.go's `Translib write is
//     disabled` (Unimplemented; translib writes are off by default); a Get would go to the
//     translib (OpenConfig) client, which this lab does not have (its text: assumed);
//   - no element, one element, a database name not in database_config.json:
//     mixed_db_client.go ParseDatabase / NewMixedDbClient (`No target specified in path`,
//     `Invalid elem length`, `Invalid target: ns , container `), codes.Unimplemented, which
//     server.go wraps again as NotFound (so the client reads `rpc error: code = Unimplemented
//     desc = ...`). The namespace element is not checked on a single-ASIC switch: any name
//     works like `localhost`;
//   - a database other than CONFIG_DB, APPL_DB and DPU_APPL_DB: Set is `Set RPC does not
//     support <DB>` (mixed_db_client.go Set, :1675-1684; Unknown);
//   - a Set of APPL_DB or DPU_APPL_DB, which sonic-gnmi takes and writes through swsscommon
//     ProducerStateTables (mixed_db_client.go SetDB, handleTableData, GetTable :286), and a Get of
//     a database the lab does not hold: NotFound with the lab's own text (assumed: the lab has no
//     producer tables, and serves APPL_DB's LLDP_ENTRY_TABLE for reading only);
//   - [k=v] keys and wildcards are refused with the lab's own texts (assumed: sonic-gnmi
//     ignores keys other than `key` and passes `*` to Redis or to GCU as a name).
//
// Elements past TABLE/KEY/FIELD are returned in extra for the caller to refuse as the RPC does.
func sonicAddr(prefix, p *gpb.Path, set bool) (dbAddr, error) {
	origin := p.GetOrigin()
	if origin == "" {
		origin = prefix.GetOrigin()
	}
	elems := append(slices.Clone(prefix.GetElem()), p.GetElem()...)
	if origin == "" && len(elems) > 0 {
		if o, name, ok := strings.Cut(elems[0].GetName(), ":"); ok {
			origin = o
			elems[0] = &gpb.PathElem{Name: name, Key: elems[0].GetKey()}
		}
	}
	names := make([]string, len(elems))
	for i, e := range elems {
		names[i] = e.GetName()
	}
	where := "/" + strings.Join(names, "/")
	if origin != sonicOrigin {
		if set {
			return dbAddr{}, status.Error(codes.Unimplemented, "Translib write is disabled")
		}
		return dbAddr{}, status.Errorf(codes.InvalidArgument,
			"unsupported origin %q at %s: this device serves origin %q, paths /sonic-db:CONFIG_DB/localhost/<TABLE>/<KEY>/<FIELD>",
			origin, where, sonicOrigin)
	}
	wrapped := func(msg string) error { // server.go: status.Error(codes.NotFound, err.Error())
		return status.Error(codes.NotFound, status.Error(codes.Unimplemented, msg).Error())
	}
	switch {
	case len(names) == 0:
		return dbAddr{}, wrapped("No target specified in path")
	case len(names) < 2:
		return dbAddr{}, wrapped("Invalid elem length")
	case !slices.Contains(sonicDatabases, names[0]):
		return dbAddr{}, wrapped("Invalid target: ns , container ")
	}
	for _, e := range elems {
		switch {
		case len(e.GetKey()) > 0:
			return dbAddr{}, status.Errorf(codes.InvalidArgument,
				"%s: sonic-db path elements take no [key=value]: write the CONFIG_DB key as its own element, e.g. /CONFIG_DB/localhost/QUEUE/Ethernet0|3", where)
		case e.GetName() == "" || e.GetName() == "*" || e.GetName() == "...":
			return dbAddr{}, status.Errorf(codes.InvalidArgument, "%s: empty or wildcard path elements are not supported", where)
		}
	}
	switch {
	case names[0] == configDBName:
	case set && names[0] != "APPL_DB" && names[0] != "DPU_APPL_DB":
		return dbAddr{}, setError("Set RPC does not support " + names[0])
	case names[0] != "APPL_DB" || set:
		return dbAddr{}, status.Errorf(codes.NotFound, "%s: this switch serves %s, and %s for reading (LLDP_ENTRY_TABLE), only", where, configDBName, "APPL_DB")
	}
	rest := names[2:]
	a := dbAddr{db: names[0], depth: min(len(rest), 3)}
	if len(rest) > 3 {
		a.extra = rest
	}
	rest = append(rest, "", "", "")
	a.table, a.key, a.field = rest[0], rest[1], rest[2]
	return a, nil
}

// sonicDatabases are the database names sonic-buildimage's
// dockers/docker-database/database_config.json.j2 (086b03bd) can emit: a path naming another is
// `Invalid target`.
var sonicDatabases = []string{"APPL_DB", "APPL_STATE_DB", "ASIC_DB", "BMP_STATE_DB", "CHASSIS_APP_DB",
	"CHASSIS_STATE_DB", "CONFIG_DB", "COUNTERS_DB", "DPU_APPL_DB", "DPU_APPL_STATE_DB", "DPU_COUNTERS_DB",
	"DPU_STATE_DB", "EVENT_DB", "FLEX_COUNTER_DB", "GB_ASIC_DB", "GB_COUNTERS_DB", "GB_FLEX_COUNTER_DB",
	"LOGLEVEL_DB", "PFC_WD_DB", "RESTAPI_DB", "SNMP_OVERLAY_DB", "STATE_DB"}

// tooDeep is what sonic-gnmi answers for elements past TABLE/KEY/FIELD (sonic-net/sonic-gnmi
// 5ec1c20b): one more is `Invalid index <it>` (json_client.go Add, :283-286, for a Set;
// mixed_db_client.go getDbtablePath, :888-891, for a Get), as long as it is no number (a number
// reads a list field `FIELD@`, which the lab's databases do not hold: not imitated); more are
// `Invalid db table Path ...`, printed as json_client.go Add prints its path for a Set
// (`[TABLE KEY FIELD ...]`, :322-324) and as getDbtablePath joins it with the database's
// separator for a Get (`TABLE|KEY|FIELD|...`, :893-895).
func (a dbAddr) tooDeep(set bool) string {
	if len(a.extra) == 4 {
		return "Invalid index " + a.extra[3]
	}
	if set {
		return fmt.Sprintf("Invalid db table Path %v", a.extra)
	}
	sep := "|"
	if a.db != configDBName {
		sep = ":"
	}
	return "Invalid db table Path " + strings.Join(a.extra, sep)
}

// errNoEntry is a key or field that is not there: sonic-gnmi's MixedDbClient finds nothing to
// render, which its Get answers with `No valid entry found for path <path>` and its OnceRun
// skips (sonic_data_client/mixed_db_client.go at 5ec1c20b, :1766-1773, :1816-1827).
var errNoEntry = errors.New("no valid entry")

// errNoTableData is a table path that matches a Redis key (the KEYS `<name>*` check of
// getDbtablePath, :853-859) but names no table with keys (`<name>|*`, tableData2Msi): sonic-gnmi
// renders nothing for it and skips it quietly, in Get as in OnceRun.
var errNoTableData = errors.New("no table data")

// read returns the subtree at a. What is not there is errNoEntry (a key or field), errNoTableData,
// or, for a table path that no Redis key starts with, getDbtablePath's NotFound `Failed to find
// <DB> <TABLE> <nil> []` (:855-858: the target, the path, go-redis's nil error, its empty KEYS
// result).
func (d configDB) read(a dbAddr) (any, error) {
	if a.depth == 0 {
		if len(d) == 0 {
			return nil, errNoTableData
		}
		return d, nil
	}
	keys := d[a.table]
	if a.depth == 1 {
		if len(keys) > 0 {
			return keys, nil
		}
		sep := "|"
		if a.db != configDBName {
			sep = ":"
		}
		for t, ks := range d {
			for k := range ks {
				if strings.HasPrefix(t+sep+k, a.table) {
					return nil, errNoTableData
				}
			}
		}
		return nil, status.Errorf(codes.NotFound, "Failed to find %s %s <nil> []", a.db, a.table)
	}
	fields := keys[a.key]
	if a.depth == 2 && len(fields) > 0 {
		return fields, nil
	}
	if v, ok := fields[a.field]; ok && a.depth == 3 {
		return v, nil
	}
	return nil, errNoEntry
}

// decodeValue turns an update's value into the shape its depth holds: JSON objects down to
// JSON strings. CONFIG_DB holds strings only (its YANG types are carried as text), so a JSON
// number, boolean, array or null is refused rather than converted.
func decodeValue(a dbAddr, tv *gpb.TypedValue) (any, error) {
	var body []byte
	switch v := tv.GetValue().(type) {
	case *gpb.TypedValue_JsonIetfVal:
		body = v.JsonIetfVal
	case *gpb.TypedValue_JsonVal:
		body = v.JsonVal
	case *gpb.TypedValue_StringVal:
		if a.depth != 3 {
			return nil, status.Errorf(codes.InvalidArgument, "%s: a string_val only sets a field; use JSON_IETF for a table or key", a)
		}
		return v.StringVal, nil
	default:
		return nil, status.Errorf(codes.InvalidArgument, "%s: value encoding %T is not supported: use JSON_IETF", a, tv.GetValue())
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%s: value is not JSON: %v", a, err)
	}
	return shape(raw, a.depth, a.String())
}

func shape(raw any, depth int, where string) (any, error) {
	if depth == 3 {
		switch v := raw.(type) {
		case string:
			return v, nil
		case json.Number, bool:
			return nil, status.Errorf(codes.InvalidArgument,
				"%s: value %v is a JSON %s; CONFIG_DB values are strings: write \"%v\"", where, v, jsonKind(v), v)
		}
		return nil, status.Errorf(codes.InvalidArgument,
			"%s: value %s is a JSON %s; CONFIG_DB values are strings", where, jsonText(raw), jsonKind(raw))
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		what := []string{"tables", "keys", "fields"}[depth]
		return nil, status.Errorf(codes.InvalidArgument, "%s: value must be a JSON object of %s, got a JSON %s", where, what, jsonKind(raw))
	}
	sub := func(k string) string {
		if depth == 0 {
			return k
		}
		return where + "|" + k
	}
	switch depth {
	case 0:
		out := map[string]map[string]map[string]string{}
		for k, v := range obj {
			s, err := shape(v, 1, sub(k))
			if err != nil {
				return nil, err
			}
			out[k] = s.(map[string]map[string]string) //nolint:forcetypeassert // shape's result for depth 1
		}
		return out, nil
	case 1:
		out := map[string]map[string]string{}
		for k, v := range obj {
			s, err := shape(v, 2, sub(k))
			if err != nil {
				return nil, err
			}
			out[k] = s.(map[string]string) //nolint:forcetypeassert // shape's result for depth 2
		}
		return out, nil
	}
	out := map[string]string{}
	for k, v := range obj {
		s, err := shape(v, 3, sub(k))
		if err != nil {
			return nil, err
		}
		out[k] = s.(string) //nolint:forcetypeassert // shape's result for depth 3
	}
	return out, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case nil:
		return "null"
	case string:
		return "string"
	}
	return "object"
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
