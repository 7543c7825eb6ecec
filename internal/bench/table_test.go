package bench

import (
	"strings"
	"testing"
	"time"
)

func sample(wall time.Duration, rssKB int64, counts map[string]DeviceCount) Sample {
	return Sample{Wall: wall, PeakRSSKB: rssKB, Processes: 3, Counts: counts}
}

var testPlatforms = map[string]string{"sonic-1": "sonic", "sonic-2": "sonic", "mlx5-1": "mlx5"}

// testResults: (a) 2 s, (b) 12 s, (c) 1.5 s at 100 resources; one read and connection per device
// for (a), many reads for (b).
func testResults(size string) Results {
	one := map[string]DeviceCount{"sonic-1": {1, 1}, "sonic-2": {1, 1}, "mlx5-1": {1, 1}}
	many := map[string]DeviceCount{"sonic-1": {1, 33}, "sonic-2": {1, 31}, "mlx5-1": {1, 4}}
	s := func(d time.Duration, c map[string]DeviceCount) Sample { return sample(d, 95000, c) }
	return Results{Size: size, Latency: 20 * time.Millisecond, Platforms: testPlatforms, Measurements: []Measurement{
		{Variant: Defaults, Kind: NoChange, Resources: 50, Samples: []Sample{s(time.Second, one)}},
		{Variant: Defaults, Kind: NoChange, Resources: 100, Samples: []Sample{s(2100*time.Millisecond, one), s(1900*time.Millisecond, one), s(2*time.Second, one)}},
		{Variant: PerResource, Kind: NoChange, Resources: 100, Samples: []Sample{s(12*time.Second, many)}},
		{Variant: Floor, Kind: NoChange, Resources: 100, Samples: []Sample{{Wall: 1500 * time.Millisecond}}},
		{Variant: Defaults, Kind: Drift, Resources: 100, Samples: []Sample{s(3*time.Second, one)}},
		{Variant: PerResource, Kind: Drift, Resources: 100, Samples: []Sample{{Wall: time.Second, Exit: 1,
			Err: "exit 1, want 2: Error: Unsupported argument: An argument named \"per_resource_reads\" is not expected here."}}},
	}}
}

func TestMedianAndStats(t *testing.T) {
	if Median(nil) != 0 || Median([]time.Duration{3, 1, 2}) != 2 || Median([]time.Duration{4, 1, 2, 3}) != 2 {
		t.Error("Median")
	}
	r := testResults("default")
	m, ok := r.Find(PerResource, NoChange, 100)
	if !ok {
		t.Fatal("Find")
	}
	req, conn := m.Stats("sonic", r.PlatformOf)
	if req.Max != 33 || req.Mean != 32 || req.Devices != 2 || conn.Max != 1 || conn.Mean != 1 {
		t.Errorf("sonic stats %+v %+v", req, conn)
	}
	if req, _ := m.Stats("eos", r.PlatformOf); req.Devices != 0 || req.Mean != 0 {
		t.Errorf("a platform without devices: %+v", req)
	}
	if r.FullResources() != 100 {
		t.Error("FullResources")
	}
	if _, ok := r.Find(Floor, Drift, 100); ok {
		t.Error("Find invented a measurement")
	}
	if (Measurement{}).OK() || (Measurement{}).Error() != "not measured" {
		t.Error("an empty measurement is not OK")
	}
}

func TestFormatTable(t *testing.T) {
	got := FormatTable(testResults("default"))
	table, notes, _ := strings.Cut(got, "\n\n")
	if !strings.Contains(notes, "VmHWM") {
		t.Errorf("notes missing:\n%s", got)
	}
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if len(lines) != 2+6 {
		t.Fatalf("%d lines, want a header, a rule and 6 rows:\n%s", len(lines), got)
	}
	for i, want := range []string{
		"| (a) defaults | no-change plan | 2.00 s (n=3) | 1.33× | 0.17× | 1 (1.00) | 1 (1.00) | 1 (1.00) | 1 (1.00) | 3 | 97.3 MB |",
		"| (b) per-resource reads | no-change plan | 12.00 s (n=1) | 8.00× | 1.00× | 33 (32.00) | 4 (4.00) | 1 (1.00) | 1 (1.00) | 3 | 97.3 MB |",
		"| (c) terraform_data floor | no-change plan | 1.50 s (n=1) | 1.00× | 0.12× | – | – | – | – | – | – |",
		"| (a) defaults | drift plan | 3.00 s (n=1) | 2.00× | – |",
		"| (b) per-resource reads | drift plan | ERROR: exit 1, want 2: Error: Unsupported argument: An argument named \"per_resource_reads\" is not expected here. |",
		"| (c) terraform_data floor | drift plan | n/a: terraform_data cannot drift",
	} {
		if !strings.HasPrefix(lines[2+i], want) {
			t.Errorf("row %d:\n got %s\nwant %s...", i, lines[2+i], want)
		}
	}
	if n := strings.Count(lines[0], "|"); n != 12 {
		t.Errorf("header has %d columns", n-1)
	}
}

func TestTargets(t *testing.T) {
	ts := Targets(testResults("default"))
	want := []Status{Pass, Pass, Pass, Pass, NotEvaluated}
	if len(ts) != len(want) {
		t.Fatalf("%d targets, want %d", len(ts), len(want))
	}
	for i, tg := range ts {
		if tg.Status != want[i] {
			t.Errorf("%s: %s (%s), want %s", tg.Name, tg.Status, tg.Measured, want[i])
		}
	}
	if !strings.Contains(ts[0].Measured, "2.00 s / 1.50 s = 1.33×") || !strings.Contains(ts[1].Measured, "= 6.00×") {
		t.Errorf("measured: %q, %q", ts[0].Measured, ts[1].Measured)
	}
	if !strings.Contains(ts[4].Measured, "97.3 MB at default (run BENCH_SIZE=large") {
		t.Errorf("RSS below large: %q", ts[4].Measured)
	}

	// At the large size the RSS target is judged; slower (a) and more reads fail.
	r := testResults("large")
	r.Measurements[1].Samples = []Sample{sample(4*time.Second, 250000, map[string]DeviceCount{"sonic-1": {2, 2}, "mlx5-1": {1, 1}})}
	ts = Targets(r)
	for i, want := range []Status{Fail, Fail, Fail, Fail, Fail} {
		if ts[i].Status != want {
			t.Errorf("large %s: %s (%s), want %s", ts[i].Name, ts[i].Status, ts[i].Measured, want)
		}
	}
	if !strings.Contains(ts[0].Measured, "measured at large; the target is stated for default") {
		t.Errorf("size note missing: %q", ts[0].Measured)
	}

	// Failed (b): its targets are not evaluated, never passed.
	r = testResults("default")
	r.Measurements[2].Samples[0].Err = "exit 1"
	if ts := Targets(r); ts[1].Status != NotEvaluated || ts[0].Status != Pass {
		t.Errorf("failed (b): %+v", ts[:2])
	}
	out := FormatTargets(Targets(testResults("default")))
	if !strings.HasPrefix(out, "| target | measured | result |") || strings.Count(out, "| PASS |") != 4 {
		t.Errorf("FormatTargets:\n%s", out)
	}
}

func TestFormatHelpers(t *testing.T) {
	if Seconds(1234*time.Millisecond) != "1.23 s" || MB(0) != "–" || MB(195313) != "200.0 MB" {
		t.Errorf("Seconds/MB: %s %s %s", Seconds(1234*time.Millisecond), MB(0), MB(195313))
	}
	if oneLine("a|b\nc") != `a\|b` {
		t.Error("oneLine")
	}
}
