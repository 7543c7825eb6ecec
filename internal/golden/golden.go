// Package golden compares test output with golden files under testdata. `go test ./<pkg>
// -update` rewrites a package's files; `UPDATE_GOLDEN=1 go test ./...` rewrites every
// package's (the flag exists only in packages that import this one, so `go test ./... -update`
// would fail in the others). Only tests import it; it is the one test helper the lab's tests
// may import too (it holds no project logic).
package golden

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Updating reports whether the test run rewrites golden files.
func Updating() bool { return *update || os.Getenv("UPDATE_GOLDEN") == "1" }

// Check compares got with the file at path, or rewrites the file (and makes its directory)
// when updating. A difference is shown line by line (-want +got).
func Check(t testing.TB, path, got string) {
	t.Helper()
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil { //nolint:gosec // testdata directories are checked in
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil { //nolint:gosec // golden files are checked in, world-readable
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path) //nolint:gosec // the tests name their own golden files
	if err != nil {
		t.Fatalf("%v (run the package's tests with -update, or UPDATE_GOLDEN=1, to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (check the change, then rerun with -update) (-want +got):\n%s",
			path, cmp.Diff(strings.SplitAfter(string(want), "\n"), strings.SplitAfter(got, "\n")))
	}
}

// Testdata is Check of the package's testdata/name, the golden file most tests keep.
func Testdata(t testing.TB, name, got string) {
	t.Helper()
	Check(t, filepath.Join("testdata", name), got)
}

// Capture returns a captured device output kept in testdata (a real capture or a vendor's test
// data) without its first line, which names its source.
func Capture(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Clean(path))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), "\n")
	return rest
}

// Read returns a file the tests keep under testdata, whole.
func Read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Clean(path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// numberList matches an indented JSON array of numbers, which JSON puts on one line.
var numberList = regexp.MustCompile(`\[\s*-?\d+(?:,\s*-?\d+)*\s*\]`)

// JSON prints v as indented JSON (map keys sorted, number arrays on one line), a stable and
// readable form for golden files.
func JSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out := numberList.ReplaceAllStringFunc(string(b), func(s string) string {
		return "[" + strings.Join(strings.Fields(strings.Trim(s, "[]")), " ") + "]"
	})
	return out + "\n"
}

// Lines renders configuration lines one per line, as a CLI session receives them.
func Lines(ls []string) string { return strings.Join(ls, "\n") + "\n" }
