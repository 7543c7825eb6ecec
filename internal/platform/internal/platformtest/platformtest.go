// Package platformtest holds what the platform packages' tests share: reading their own
// testdata as fuzz seeds, the contract every parser keeps on an error, a parser that must
// succeed, and the CLI platforms' Dialect, through which EOS and NX-OS run the tests they
// share. A platform's own samples and checks stay in its package. Only tests import this one
// (by convention; it lives under internal/platform/internal so nothing outside the platforms
// can).
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

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext/clitexttest"
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

// Dialect is what the tests both CLI platforms run alike need of one of them: its
// running-config parser, its switch in the layout the lab documents, its example and updated
// policies and its policy writer. A platform's tests declare theirs once (helpers_test.go);
// what only one platform checks (EOS's session modes, NX-OS's replay) stays in its package
// and is handed in where a shared test runs.
type Dialect[C any] struct {
	// Parse parses a running-config (C is the platform's *Config).
	Parse Parser[C]
	// Layout is the testdata running-config in the layout internal/lab/<platform>-switch.md
	// documents.
	Layout string
	// Example is the policy the golden transactions create; Updated what the update makes of it.
	Example, Updated func() *fabric.QoSPolicy
	// PolicyLines returns the lines that take the switch c from old to next (nil: none), with
	// the prior the driver records on the base switch.
	PolicyLines func(t *testing.T, c C, old, next *fabric.QoSPolicy) ([]string, error)
	// Thresholds reads the ECN thresholds of a queue configured with value and unit for both;
	// Unknown is what the platform reads in its OwnUnits, those bytes cannot express
	// (clitexttest.CheckThresholdUnits).
	Thresholds func(t *testing.T, value, unit string) (minBytes, maxBytes int64)
	Unknown    int64
	OwnUnits   [][2]string
}

// CheckParse checks what both parsers promise beyond their samples: the layout reads the same
// with CRLF line ends as with LF, each case of testdata/refused-running-config.txt is refused,
// and ECN thresholds read in bytes, or Unknown in a unit bytes cannot express.
func (d Dialect[C]) CheckParse(t *testing.T) {
	t.Helper()
	crlf := strings.ReplaceAll(goldenfile.Read(t, "testdata/"+d.Layout), "\n", "\r\n")
	if diff := cmp.Diff(d.Parse.File(t, d.Layout), d.Parse.Text(t, crlf)); diff != "" {
		t.Errorf("CRLF (-LF +CRLF):\n%s", diff)
	}
	for _, text := range Paragraphs(t, "testdata/refused-running-config.txt") {
		if _, err := d.Parse(text); err == nil {
			t.Errorf("ParseRunningConfig(%q) succeeded", text)
		}
	}
	clitexttest.CheckThresholdUnits(t, d.Unknown, func(value, unit string) (int64, int64) {
		return d.Thresholds(t, value, unit)
	}, d.OwnUnits...)
}

// PolicyStep is one golden transaction: the lines that take the switch testdata/Device from
// Old to Next (nil: none), held in testdata/Golden.
type PolicyStep struct {
	Golden, Device string
	Old, Next      *fabric.QoSPolicy
}

// WithPrior is a Dialect's PolicyLines for a writer that takes the prior the driver records
// (prior: on the base switch, for the ports the golden policies bind).
func WithPrior[C, P any](lines func(c C, old, next *fabric.QoSPolicy, prior P) ([]string, error),
	prior func(t *testing.T) P) func(t *testing.T, c C, old, next *fabric.QoSPolicy) ([]string, error) {
	return func(t *testing.T, c C, old, next *fabric.QoSPolicy) ([]string, error) {
		return lines(c, old, next, prior(t))
	}
}

// PolicySteps are the transactions both platforms keep goldens of: create on the base switch;
// update, rename and delete on the switch the create left; delete on the switch the update
// left.
func (d Dialect[C]) PolicySteps() []PolicyStep {
	const base, created, updated = "base-running-config.txt", "after-create.txt", "after-update.txt"
	return []PolicyStep{
		{"create.golden", base, nil, d.Example()},
		{"update.golden", created, d.Example(), d.Updated()},
		{"rename.golden", created, d.Example(), fabrictest.Renamed(d.Example(), "AI")},
		{"delete.golden", created, d.Example(), nil},
		{"delete-after-update.golden", updated, d.Updated(), nil},
	}
}

// GoldenPolicyLines computes each step's lines on its switch, compares them with the golden,
// checks that they come out the same when computed again on a fresh read of the switch, and
// hands them to check, the platform's own check of a transaction.
func (d Dialect[C]) GoldenPolicyLines(t *testing.T, check func(t *testing.T, step PolicyStep, got []string)) {
	t.Helper()
	for _, step := range d.PolicySteps() {
		t.Run(step.Golden, func(t *testing.T) {
			got, err := d.PolicyLines(t, d.Parse.File(t, step.Device), step.Old, step.Next)
			if err != nil {
				t.Fatal(err)
			}
			goldenfile.Testdata(t, step.Golden, goldenfile.Lines(got))
			again, _ := d.PolicyLines(t, d.Parse.File(t, step.Device), step.Old, step.Next)
			if !slices.Equal(got, again) {
				t.Error("PolicyLines is not deterministic")
			}
			check(t, step, got)
		})
	}
}

// PFCStep is a step of a roce_pfc_interface's life (fabrictest.PFCLifecycle) as GoldenPFCLines
// hands it to a platform.
type PFCStep = fabrictest.PFCStep

// GoldenPFCLines computes the lines of each step of example's life (fabrictest.PFCLifecycle;
// updated is what the update makes of it), compares them with the step's golden and hands them
// to check, the platform's own check of a transaction; from nothing to nothing, lines must
// write nothing.
func GoldenPFCLines(t *testing.T, example func() *fabric.PFCInterface, updated *fabric.PFCInterface,
	lines func(t *testing.T, step PFCStep) ([]string, error), check func(t *testing.T, step PFCStep, got []string)) {
	t.Helper()
	for _, step := range fabrictest.PFCLifecycle(example, updated) {
		t.Run(step.Golden, func(t *testing.T) {
			got, err := lines(t, step)
			if err != nil {
				t.Fatal(err)
			}
			goldenfile.Testdata(t, step.Golden, goldenfile.Lines(got))
			check(t, step, got)
		})
	}
	if got, err := lines(t, PFCStep{}); got != nil || err != nil {
		t.Errorf("PFCLines(nil, nil) = %q, %v", got, err)
	}
}
