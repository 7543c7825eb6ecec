// Package golden compares test output with golden files under testdata, which `go test
// ./<pkg> -update` rewrites. Only tests import it.
package golden

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Updating reports whether the test run rewrites golden files.
func Updating() bool { return *update }

// Check compares got with the file at path, or rewrites the file under -update.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil { //nolint:gosec // golden files are checked in, world-readable
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path) //nolint:gosec // the tests name their own golden files
	if err != nil {
		t.Fatalf("%v (run the package's tests with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (check the change, then rerun with -update):\n--- got\n%s", path, got)
	}
}
