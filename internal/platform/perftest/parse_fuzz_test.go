package perftest

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: perftest's output as a remote host printed it never panics the parsers, and a
// table they accept has only rows of its own shape.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, file := range files {
		b, err := os.ReadFile(file) //nolint:gosec // the package's own captures
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, out string) {
		if rows, err := ParseBW(out); err == nil {
			for _, r := range rows {
				if r.PeakMeasured != (r.PeakGbps != 0) {
					t.Fatalf("peak measured %v with peak %v", r.PeakMeasured, r.PeakGbps)
				}
			}
		} else if rows != nil {
			t.Fatal("rows with an error")
		}
		if rows, err := ParseLatency(out); err != nil && rows != nil {
			t.Fatal("rows with an error")
		}
		_ = Failure(out + "x")
	})
}
