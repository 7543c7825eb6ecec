package perftest

import (
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// FuzzParse: perftest's output as a remote host printed it never panics the parsers, and a
// table they accept has only rows of its own shape.
func FuzzParse(f *testing.F) {
	for _, out := range platformtest.Files(f, "testdata/*.txt") {
		f.Add(out)
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
