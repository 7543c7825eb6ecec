// Package platformtest holds what the platform packages' tests share: reading their own
// testdata as fuzz seeds, the contract every parser keeps on an error, and a parser that
// must succeed. A platform's own dialect (its samples, its checks) stays in its package;
// only tests import this one (by convention; it lives under internal/platform/internal so
// nothing outside the platforms can).
package platformtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

// Files returns the contents of the files matching each pattern (filepath.Glob, relative to
// the package directory), pattern by pattern, each in name order. A pattern that matches no
// file fails tb: a seed corpus that silently went missing would fuzz nothing.
func Files(tb testing.TB, patterns ...string) []string {
	tb.Helper()
	var out []string
	for _, pattern := range patterns {
		names, err := filepath.Glob(pattern)
		if err != nil {
			tb.Fatal(err)
		}
		if len(names) == 0 {
			tb.Fatalf("no file matches %s", pattern)
		}
		for _, name := range names {
			b, err := os.ReadFile(name) //nolint:gosec // the test's own testdata
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, string(b))
		}
	}
	return out
}

// Captures is Files without each file's first line, which names the capture's source.
func Captures(tb testing.TB, patterns ...string) []string {
	tb.Helper()
	out := Files(tb, patterns...)
	for i, s := range out {
		_, out[i], _ = strings.Cut(s, "\n")
	}
	return out
}

// Paragraphs returns the cases of a testdata file: paragraphs, separated by blank lines, each
// without its final newline; lines starting with '#' are comments.
func Paragraphs(tb testing.TB, name string) []string {
	tb.Helper()
	var out, cur []string
	for _, l := range strings.Split(Files(tb, name)[0]+"\n\n", "\n") {
		switch {
		case strings.HasPrefix(l, "#"):
		case l == "" && len(cur) > 0:
			out = append(out, strings.Join(cur, "\n"))
			cur = nil
		case l != "":
			cur = append(cur, l)
		}
	}
	if len(out) == 0 {
		tb.Fatalf("%s holds no case", name)
	}
	return out
}

// Refused reports whether a parser refused its input (err is not nil), failing t when it
// returned what (a non-nil result) beside the error: a caller must never act on half a parse.
func Refused(t testing.TB, what string, got any, err error) bool {
	t.Helper()
	if err == nil {
		return false
	}
	if v := reflect.ValueOf(got); v.IsValid() && (!canBeNil(v.Kind()) || !v.IsNil()) {
		t.Errorf("%s with an error", what)
	}
	return true
}

func canBeNil(k reflect.Kind) bool {
	switch k {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Func, reflect.Chan:
		return true
	}
	return false
}

// ParseJSON is the contract a fuzz target checks on a parser of one JSON document: parse(b)
// either refuses b (Refused; ok false) or b is one valid JSON value (else t fails: garbage
// silently accepted).
func ParseJSON[O any](t *testing.T, what string, parse func([]byte) (O, error), b []byte) (out O, ok bool) {
	t.Helper()
	out, err := parse(b)
	if Refused(t, what, out, err) {
		return out, false
	}
	if !json.Valid(b) {
		t.Fatalf("accepted input that is not one JSON value: %q", b)
	}
	return out, true
}

// Ports is what a counters parser is asked for in a fuzz target that names one port, or none
// ("": every port).
func Ports(name string) []string {
	if name == "" {
		return nil
	}
	return []string{name}
}

// CheckPorts fails t unless a counters parser asked for Ports(name) answered for that one
// port, or for at least one when asked for every port.
func CheckPorts[V any](t *testing.T, name string, got map[string]V) {
	t.Helper()
	if len(got) == 0 || name != "" && len(got) != 1 {
		t.Fatalf("asked for %q, got %d ports", name, len(got))
	}
}

// Must returns parse(in), failing tb when parse refuses it.
func Must[I, O any](tb testing.TB, parse func(I) (O, error), in I) O {
	tb.Helper()
	out, err := parse(in)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// Eventually polls cond every few milliseconds until it holds or 10 s pass, and reports
// whether it held. It stands where a test waits for a device to change on its own (a storm's
// counters growing): the test asserts what it waited for afterwards, so a wait that ran out
// fails there.
func Eventually(cond func() bool) bool {
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// RenderEach renders each entry of m under a heading line "<heading> <key>", in key order: the
// golden form of a per-port (per-netdev) result.
func RenderEach[T any](m map[string]T, heading string, render func(T) string) string {
	var out string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out += heading + " " + k + "\n" + render(m[k])
	}
	return out
}

// RenderSet renders a gNMI SetRequest stably (prototext output is deliberately unstable): the
// prefix's origin, then one line per operation with its path (pathKey, the platform's form),
// each value's JSON_IETF compacted onto the line, or indented below it when indent is set.
func RenderSet(t *testing.T, req *gpb.SetRequest, pathKey func(*gpb.Path) string, indent bool) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("prefix origin=" + req.GetPrefix().GetOrigin() + "\n")
	for _, p := range req.Delete {
		b.WriteString("delete  " + pathKey(p) + "\n")
	}
	for _, kind := range []struct {
		name string
		ups  []*gpb.Update
	}{{"replace", req.Replace}, {"update ", req.Update}} {
		for _, u := range kind.ups {
			var out bytes.Buffer
			err := json.Compact(&out, u.GetVal().GetJsonIetfVal())
			if indent {
				out.Reset()
				err = json.Indent(&out, u.GetVal().GetJsonIetfVal(), "    ", "  ")
			}
			if err != nil {
				t.Fatalf("value of %s is not JSON: %v", pathKey(u.Path), err)
			}
			if indent {
				b.WriteString(kind.name + " " + pathKey(u.Path) + "\n    " + out.String() + "\n")
			} else {
				b.WriteString(kind.name + " " + pathKey(u.Path) + " = " + out.String() + "\n")
			}
		}
	}
	return b.String()
}

// Parser is a platform's text parser as its tests call it; a refusal fails the test.
type Parser[O any] func(string) (O, error)

// Text parses text.
func (p Parser[O]) Text(tb testing.TB, text string) O {
	tb.Helper()
	return Must(tb, p, text)
}

// File parses the package's testdata/name.
func (p Parser[O]) File(tb testing.TB, name string) O {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name)) //nolint:gosec // the test names its own testdata
	if err != nil {
		tb.Fatal(err)
	}
	return Must(tb, p, string(b))
}

// Null prints a counter, "null" where the device has none.
func Null(p *int64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// CheckPrior checks a port's PFC prior as a platform reads it: got is want, a port the
// configuration lacks has the zero prior (missing), and the JSON form (the resource's private
// state) has each of keys.
func CheckPrior[P any](t *testing.T, got, want, missing P, keys ...string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PFCPrior (-want +got):\n%s", diff)
	}
	var zero P
	if !cmp.Equal(missing, zero) {
		t.Errorf("prior of a port without a block is not the zero value: %+v", missing)
	}
	s := goldenfile.JSON(t, want)
	for _, key := range keys {
		if !strings.Contains(s, key) {
			t.Errorf("JSON form lacks %s: %s", key, s)
		}
	}
}
