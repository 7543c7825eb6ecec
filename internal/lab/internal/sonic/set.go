package sonic

// A gNMI Set as a real SONiC switch applies it (sonic-switch.md, "Set", cites each step):
// sonic-gnmi's MixedDbClient.SetIncrementalConfig runs the deletes, then the replaces, then the
// updates against a copy of CONFIG_DB (its JsonClient), turning each into one JSON Patch
// operation; the Generic Config Updater (`config apply-patch`) applies that patch to the running
// CONFIG_DB with RFC 6902 rules, refuses a result with an empty table or one SONiC's YANG
// models refuse, and only then is the result written and saved (`config save -y`). Every error
// reaches the client as gRPC code Unknown with the one line sonic-host-services passes back.

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/py"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// patchOp is one JSON Patch operation as sonic-gnmi emits it: op "remove", "replace" or "add"
// (a gNMI Update), path "/TABLE[/KEY[/FIELD]]".
type patchOp struct {
	op   string
	at   dbAddr
	val  any // nil for remove
	path string
}

// setError is a refusal as the client sees it: code Unknown, the message sonic-gnmi returns.
func setError(msg string) error { return status.Error(codes.Unknown, msg) }

// jsonClientRemove is sonic_data_client/json_client.go (*JsonClient).Remove: every level must
// exist; an entry or table left empty is pruned. Its error texts embed Go's %v of the maps.
func (d configDB) jsonClientRemove(a dbAddr) error {
	keys, ok := d[a.table]
	if !ok {
		return fmt.Errorf("Invalid database %v -> %v", a.table, goMap(d)) //nolint:staticcheck // sonic-gnmi's text
	}
	if a.depth == 1 {
		delete(d, a.table)
		return nil
	}
	fields, ok := keys[a.key]
	if !ok {
		return fmt.Errorf("Invalid entry %v", goMap(keys)) //nolint:staticcheck // sonic-gnmi's text
	}
	if a.depth == 2 {
		delete(keys, a.key)
	} else {
		if _, ok := fields[a.field]; !ok {
			return fmt.Errorf("Invalid entry %v", goMap(fields)) //nolint:staticcheck // sonic-gnmi's text
		}
		delete(fields, a.field)
	}
	d.prune()
	return nil
}

// jsonClientAdd is (*JsonClient).Add: it creates a missing table or key on the way and
// overwrites what is there (a whole table, a whole key, one field).
func (d configDB) jsonClientAdd(a dbAddr, v any) {
	switch a.depth {
	case 1:
		d[a.table] = cloneTable(v.(map[string]map[string]string)) //nolint:forcetypeassert // decodeValue's shape for depth 1
		return
	}
	if d[a.table] == nil {
		d[a.table] = map[string]map[string]string{}
	}
	if a.depth == 2 {
		d[a.table][a.key] = maps.Clone(v.(map[string]string)) //nolint:forcetypeassert // decodeValue's shape for depth 2
		return
	}
	if d[a.table][a.key] == nil {
		d[a.table][a.key] = map[string]string{}
	}
	d[a.table][a.key][a.field] = v.(string) //nolint:forcetypeassert // decodeValue's shape for depth 3
}

func cloneTable(t map[string]map[string]string) map[string]map[string]string {
	out := make(map[string]map[string]string, len(t))
	for k, f := range t {
		out[k] = maps.Clone(f)
	}
	return out
}

// applyPatch is what GCU does with the patch on the running configuration: python-jsonpatch's
// apply (every op's parent must exist: "member 'X' not found in {...}"; remove and replace need
// their target), after sonic-utilities' append_emptytables_if_required gave each table the
// patch names but the database lacks an empty {} to add into. It works on a copy.
func (d configDB) applyPatch(ops []patchOp) (configDB, error) {
	work := d.clone()
	for _, o := range ops {
		if o.at.depth >= 2 && work[o.at.table] == nil && o.op == "add" {
			work[o.at.table] = map[string]map[string]string{} // append_emptytables_if_required
		}
		if err := work.patchOne(o); err != nil {
			return nil, err
		}
	}
	return work, nil
}

func (d configDB) patchOne(o patchOp) error {
	last := o.at.table
	// jsonpointer's walk to the parent: each member on the way must exist.
	if o.at.depth >= 2 {
		if _, ok := d[o.at.table]; !ok {
			return fmt.Errorf("member '%s' not found in %s", o.at.table, pyValueRepr(d.asAny()))
		}
		last = o.at.key
	}
	if o.at.depth == 3 {
		if _, ok := d[o.at.table][o.at.key]; !ok {
			return fmt.Errorf("member '%s' not found in %s", o.at.key, pyValueRepr(tableAny(d[o.at.table])))
		}
		last = o.at.field
	}
	exists := false
	switch o.at.depth {
	case 1:
		_, exists = d[o.at.table]
	case 2:
		_, exists = d[o.at.table][o.at.key]
	case 3:
		_, exists = d[o.at.table][o.at.key][o.at.field]
	}
	switch o.op {
	case "remove", "replace":
		if !exists {
			return fmt.Errorf("can't %s a non-existent object '%s'", o.op, last)
		}
	}
	switch o.op {
	case "remove":
		switch o.at.depth {
		case 1:
			delete(d, o.at.table)
		case 2:
			delete(d[o.at.table], o.at.key)
		case 3:
			delete(d[o.at.table][o.at.key], o.at.field)
		}
	default:
		d.jsonClientAdd(o.at, o.val)
	}
	return nil
}

// emptyTables lists the tables of d without a key, as GCU's get_empty_tables.
func (d configDB) emptyTables() []string {
	var out []string
	for t, keys := range d {
		if len(keys) == 0 {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

func (d configDB) asAny() map[string]any {
	out := make(map[string]any, len(d))
	for t, keys := range d {
		out[t] = tableAny(keys)
	}
	return out
}

func tableAny(keys map[string]map[string]string) map[string]any {
	out := make(map[string]any, len(keys))
	for k, f := range keys {
		out[k] = fieldsAny(f)
	}
	return out
}

func fieldsAny(f map[string]string) map[string]any {
	out := make(map[string]any, len(f))
	for k, v := range f {
		out[k] = v
	}
	return out
}

// goMap converts a CONFIG_DB subtree to the map[string]interface{} JsonClient holds, so %v
// prints it as sonic-gnmi's errors do (map[k:v ...], keys sorted).
func goMap(v any) map[string]any {
	switch x := v.(type) {
	case configDB:
		return x.asAny()
	case map[string]map[string]string:
		return tableAny(x)
	case map[string]string:
		return fieldsAny(x)
	}
	return nil
}

// pyValueRepr renders a value as Python's repr prints the dicts and strings GCU holds
// ({'key': 'value'}), keys in sorted order as `show runningconfiguration all` gives them.
func pyValueRepr(v any) string {
	switch x := v.(type) {
	case string:
		return py.Repr(x)
	case map[string]any:
		parts := make([]string, 0, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			parts = append(parts, py.Repr(k)+": "+pyValueRepr(x[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, it := range x {
			parts[i] = pyValueRepr(it)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case nil:
		return "None"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []patchOp:
		parts := make([]string, 0, len(x))
		for _, o := range x {
			s := "{'op': " + py.Repr(o.op) + ", 'path': " + py.Repr(o.path)
			if o.op != "remove" {
				s += ", 'value': " + pyValueRepr(patchValue(o.val))
			}
			parts = append(parts, s+"}")
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

func patchValue(v any) any {
	switch x := v.(type) {
	case map[string]map[string]string:
		return tableAny(x)
	case map[string]string:
		return fieldsAny(x)
	}
	return v
}

// gcuValidateFailure is the line a client gets when GCU's validate_patch fails (sonic-utilities
// generic_config_updater/main.py; sonic-host-services passes back the first stderr line holding
// "Error", which is click's `Error: <exception>` line).
func gcuValidateFailure(ops []patchOp, cause string) error {
	return setError(fmt.Sprintf("Error: Validate json patch: %s failed due to: %s", pyValueRepr(ops), cause))
}

// gcuScopeFailure is the line a client gets when PatchApplier.apply fails for the localhost
// scope: the exception is several lines long, and the first holding "Error" is click's.
const gcuScopeFailure = "Error: Failed to apply patch on the following scopes:"

// emptyTableText is GCU's EmptyTableError message (generic_updater.py PatchApplier.apply); the
// runs of 33 spaces are the line continuations inside its f-string.
func emptyTableText(tables []string) string {
	pad := strings.Repeat(" ", 33)
	word := "Tables"
	if len(tables) == 1 {
		word = "Table"
	}
	return "localhost: given patch is not valid because it will result in empty tables " + pad +
		"which is not allowed in ConfigDb. " + pad + word + ": " + strings.Join(tables, ", ")
}

// fieldOperations is GCU's validate_field_operation (generic_config_updater/gu_common.py, with
// gcu_field_operation_validators.conf.json at sonic-utilities 691b1bbc) on the change from old
// to next, which it judges by the diff, not by the request's operations: removing
// PFC_WD|GLOBAL or its POLL_INTERVAL is illegal; every BUFFER_POOL change is refused; of a
// BUFFER_PROFILE that exists before and after, only dynamic_th and xoff may change (replace),
// while whole profiles may come and go (buffer_profile_config_update_validator). It returns
// GCU's message, "" when the change passes.
func fieldOperations(old, next configDB) string {
	if _, had := old["PFC_WD"]["GLOBAL"]; had {
		if _, has := next["PFC_WD"]["GLOBAL"]; !has {
			return "Given patch operation is invalid. Operation: remove is illegal on field: /PFC_WD/GLOBAL"
		}
		if _, was := old["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"]; was {
			if _, is := next["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"]; !is {
				return "Given patch operation is invalid. Operation: remove is illegal on field: /PFC_WD/GLOBAL/POLL_INTERVAL"
			}
		}
	}
	illegal := func(table, fn string) string {
		return "Modification of " + table + " table is illegal- validating function generic_config_updater.field_operation_validators." +
			fn + " returned False"
	}
	if !maps.EqualFunc(old["BUFFER_POOL"], next["BUFFER_POOL"], maps.Equal) {
		return illegal("BUFFER_POOL", "rdma_config_update_validator")
	}
	for name, before := range old["BUFFER_PROFILE"] {
		after, ok := next["BUFFER_PROFILE"][name]
		if !ok {
			continue // a whole profile removed: allowed
		}
		for f := range mergedKeys(before, after) {
			v1, in1 := before[f]
			v2, in2 := after[f]
			if in1 && in2 && v1 == v2 {
				continue
			}
			if !in1 || !in2 || (f != "dynamic_th" && f != "xoff") {
				return illegal("BUFFER_PROFILE", "buffer_profile_config_update_validator")
			}
		}
	}
	return ""
}

func mergedKeys(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
