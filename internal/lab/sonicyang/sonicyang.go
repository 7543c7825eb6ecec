// Package sonicyang checks a CONFIG_DB against SONiC's own YANG models with libyang's yanglint,
// as a real switch's Generic Config Updater validates a change (sonic-yang-mgmt). It is the
// independent judge of the lab's sonic switch: tests run it on the CONFIG_DB a scenario leaves,
// so the lab's own validation (internal/lab/internal/sonic/validate.go) cannot agree with the provider
// by accident.
//
// The models are sonic-net/sonic-buildimage src/sonic-yang-models, rendered (their README says
// how); the conversion follows sonic-yang-mgmt's sonic_yang_ext.py `_xlateConfigDB`: module
// `sonic-x:sonic-x`, container TABLE, the list whose key has as many leaves as the Redis key has
// `|`-separated parts, each part on its key leaf, fields on leaves (a leaf-list takes the
// comma-separated parts), and fields that are not leaves on the list's inner list of one key and
// one leaf (DSCP_TO_TC_MAP's `"26": "3"` becomes {dscp: "26", tc: "3"}). Tables without a model
// are left out, as sonic-yang-mgmt leaves them. Values are encoded by their leaf's YANG type as
// RFC 7951 wants it (libyang is strict: numbers for 8- to 32-bit integers, true/false).
//
// This package imports no project package.
package sonicyang

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/openconfig/goyang/pkg/yang"
)

// DB is CONFIG_DB: table -> key -> field -> value.
type DB = map[string]map[string]map[string]string

// Models is a directory of SONiC's YANG models, parsed.
type Models struct {
	dir    string
	tables map[string]*table // CONFIG_DB table name -> its model
}

type table struct {
	module     string // "sonic-queue"
	lists      []*yang.Entry
	containers map[string]*yang.Entry // keys modelled as containers (DEVICE_METADATA|localhost)
}

// ErrUnavailable says why a check cannot run here (no models, no yanglint).
var ErrUnavailable = errors.New("SONiC YANG check unavailable")

// Find locates the models: $ROCE_SONIC_YANG_DIR, else the copy in this repository
// (internal/lab/sonicyang/models, see its README), and yanglint on PATH. The error wraps
// ErrUnavailable and says what is missing.
func Find() (*Models, error) {
	dir := os.Getenv("ROCE_SONIC_YANG_DIR")
	if dir == "" {
		root, err := repoRoot()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		dir = filepath.Join(root, "internal", "lab", "sonicyang", "models")
	}
	if _, err := os.Stat(filepath.Join(dir, "sonic-types.yang")); err != nil { //nolint:gosec // the developer's own models directory
		return nil, fmt.Errorf("%w: no SONiC YANG models at %s (set ROCE_SONIC_YANG_DIR)", ErrUnavailable, dir)
	}
	if _, err := exec.LookPath("yanglint"); err != nil {
		return nil, fmt.Errorf("%w: no yanglint on PATH (Debian: apt-get install libyang2-tools)", ErrUnavailable)
	}
	return load(dir)
}

// ForTest returns the models for a test, or skips it saying what is missing; with
// ROCE_REQUIRE_YANGLINT=1 (CI) a missing one fails the test instead.
func ForTest(t testing.TB) *Models {
	t.Helper()
	m, err := Find()
	if errors.Is(err, ErrUnavailable) && os.Getenv("ROCE_REQUIRE_YANGLINT") == "" {
		t.Skipf("%v (CI sets ROCE_REQUIRE_YANGLINT=1 and has both)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*Models{}
)

func load(dir string) (*Models, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if m, ok := cache[dir]; ok {
		return m, nil
	}
	ms := yang.NewModules()
	ms.AddPath(dir)
	files, err := filepath.Glob(filepath.Join(dir, "sonic-*.yang"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no sonic-*.yang in %s", dir)
	}
	for _, f := range files {
		if err := ms.Read(f); err != nil {
			return nil, fmt.Errorf("parse %s: %w", f, err)
		}
	}
	if errs := ms.Process(); len(errs) > 0 {
		return nil, fmt.Errorf("process the models: %v", errs[0])
	}
	m := &Models{dir: dir, tables: map[string]*table{}}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yang")
		mod, err := ms.GetModule(name)
		if err != nil || mod == nil {
			continue // a submodule or an include
		}
		top := mod.Dir[name]
		if top == nil {
			continue // sonic-types and other modules without CONFIG_DB tables
		}
		for tname, t := range top.Dir {
			tb := &table{module: name, containers: map[string]*yang.Entry{}}
			for _, l := range t.Dir {
				switch {
				case l.IsList():
					tb.lists = append(tb.lists, l)
				case l.IsContainer():
					tb.containers[l.Name] = l
				}
			}
			slices.SortFunc(tb.lists, func(a, b *yang.Entry) int { return strings.Compare(a.Name, b.Name) })
			m.tables[tname] = tb
		}
	}
	cache[dir] = m
	return m, nil
}

// Check validates db with yanglint and returns its complaint, or nil.
func (m *Models) Check(ctx context.Context, db DB) error {
	doc, err := m.Instance(db)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp("", "config_db-*.json")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(doc); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	files, _ := filepath.Glob(filepath.Join(m.dir, "*.yang"))
	args := append([]string{"-Q", "-t", "config", "-p", m.dir}, files...)
	cmd := exec.CommandContext(ctx, "yanglint", append(args, tmp.Name())...) //nolint:gosec // fixed program; the models and a temporary file as arguments
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("yanglint refuses the CONFIG_DB: %v\n%s", err, strings.TrimSpace(out.String()))
	}
	if s := strings.TrimSpace(out.String()); strings.Contains(s, "libyang err") {
		return fmt.Errorf("yanglint refuses the CONFIG_DB:\n%s", s)
	}
	return nil
}

// Instance converts db to the sonic-yang instance document yanglint reads.
func (m *Models) Instance(db DB) ([]byte, error) {
	doc := map[string]map[string]any{}
	for _, tname := range slices.Sorted(maps.Keys(db)) {
		t, ok := m.tables[tname]
		if !ok {
			continue // no model: sonic-yang-mgmt leaves the table out too
		}
		byList := map[string][]any{}
		lists := map[string]any{}
		for _, key := range slices.Sorted(maps.Keys(db[tname])) {
			if c, ok := t.containers[key]; ok {
				entry, err := convertEntry(c, nil, db[tname][key])
				if err != nil {
					return nil, fmt.Errorf("%s|%s: %w", tname, key, err)
				}
				lists[key] = entry
				continue
			}
			parts := strings.Split(key, "|")
			list := t.listFor(len(parts))
			if list == nil {
				return nil, fmt.Errorf("%s|%s: no list of %s takes a key of %d parts", tname, key, tname, len(parts))
			}
			entry, err := convertEntry(list, parts, db[tname][key])
			if err != nil {
				return nil, fmt.Errorf("%s|%s: %w", tname, key, err)
			}
			byList[list.Name] = append(byList[list.Name], entry)
		}
		top := t.module + ":" + t.module
		if doc[top] == nil {
			doc[top] = map[string]any{}
		}
		for name, entries := range byList {
			lists[name] = entries
		}
		doc[top][tname] = lists
	}
	return json.MarshalIndent(doc, "", " ")
}

func (t *table) listFor(parts int) *yang.Entry {
	for _, l := range t.lists {
		if len(strings.Fields(l.Key)) == parts {
			return l
		}
	}
	return nil
}

func convertEntry(list *yang.Entry, parts []string, fields map[string]string) (map[string]any, error) {
	out := map[string]any{}
	for i, k := range strings.Fields(list.Key) {
		out[k] = encode(list.Dir[k], parts[i])
	}
	var inner *yang.Entry
	for _, c := range list.Dir {
		if c.IsList() {
			inner = c
		}
	}
	var innerEntries []any
	for _, f := range slices.Sorted(maps.Keys(fields)) {
		v := fields[f]
		if f == "NULL" && v == "NULL" {
			continue // the placeholder of a key without fields
		}
		leaf, ok := list.Dir[f]
		switch {
		case ok && leaf.IsLeafList():
			var items []any
			for _, p := range strings.Split(v, ",") {
				items = append(items, encode(leaf, p))
			}
			out[f] = items
		case ok && leaf.IsLeaf():
			out[f] = encode(leaf, v)
		case inner != nil:
			ik := strings.Fields(inner.Key)
			var val *yang.Entry
			for _, c := range inner.Dir {
				if c.Name != ik[0] && c.IsLeaf() {
					val = c
				}
			}
			if len(ik) != 1 || val == nil {
				return nil, fmt.Errorf("field %q: inner list %s is not key -> value", f, inner.Name)
			}
			innerEntries = append(innerEntries, map[string]any{ik[0]: encode(inner.Dir[ik[0]], f), val.Name: encode(val, v)})
		default:
			out[f] = v // no such leaf: yanglint says so
		}
	}
	if inner != nil && len(innerEntries) > 0 {
		out[inner.Name] = innerEntries
	}
	return out, nil
}

// encode gives a value the JSON type RFC 7951 requires for its leaf's type.
func encode(leaf *yang.Entry, v string) any {
	if leaf == nil || leaf.Type == nil {
		return v
	}
	return encodeType(leaf, leaf.Type, v)
}

func encodeType(leaf *yang.Entry, t *yang.YangType, v string) any {
	switch t.Kind {
	case yang.Yint8, yang.Yint16, yang.Yint32:
		if n, err := strconv.ParseInt(v, 10, 32); err == nil {
			return n
		}
	case yang.Yuint8, yang.Yuint16, yang.Yuint32:
		if n, err := strconv.ParseUint(v, 10, 32); err == nil {
			return n
		}
	case yang.Ybool:
		if v == "true" || v == "false" {
			return v == "true"
		}
	case yang.Yunion:
		for _, m := range t.Type {
			if e := encodeType(leaf, m, v); fmt.Sprint(e) == v {
				if _, isString := e.(string); !isString {
					return e
				}
			}
		}
	case yang.Yleafref:
		if target := resolveLeafref(leaf, t.Path); target != nil && target.Type != nil && target != leaf {
			return encodeType(target, target.Type, v)
		}
	}
	return v
}

// resolveLeafref finds the leaf a leafref path names, relative ("../../x") or absolute
// ("/prefix:module/prefix:TABLE/prefix:LIST/prefix:leaf"); nil when it cannot.
func resolveLeafref(from *yang.Entry, path string) *yang.Entry {
	path = strings.TrimSpace(path)
	e := from
	if strings.HasPrefix(path, "/") {
		for e.Parent != nil {
			e = e.Parent
		}
		// e is this module; an absolute path may name another module, which Find cannot reach.
		first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
		if _, name, ok := strings.Cut(first, ":"); ok && e.Dir[name] == nil {
			return nil
		}
	}
	for _, part := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		if i := strings.Index(part, "["); i >= 0 {
			part = part[:i]
		}
		if _, name, ok := strings.Cut(part, ":"); ok {
			part = name
		}
		switch part {
		case "", ".":
		case "..":
			if e == nil || e.Parent == nil {
				return nil
			}
			e = e.Parent
		default:
			if e == nil {
				return nil
			}
			e = e.Dir[part]
		}
	}
	return e
}

// repoRoot is the directory holding this module's go.mod, from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
