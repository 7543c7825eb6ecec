package bench

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func sample(wall time.Duration, rssKB int64, counts map[string]DeviceCount) Sample {
	return Sample{Wall: wall, PeakRSSKB: rssKB, Processes: 3, Counts: counts}
}

var testPlatforms = map[string]string{"sonic-1": "sonic", "sonic-2": "sonic", "mlx5-1": "mlx5"}

// testResults: no-change plans (a) 2 s, (b) 12 s, (c) 1.5 s, (d) 1.9 s at 100 resources; one
// read and connection per device for (a), many reads for (b); apply (a) 13 s against (d) 10 s,
// destroy (a) 14 s against (d) 10 s, with 33 and 31 Sets on the two switches.
func testResults(size string) Results {
	one := map[string]DeviceCount{"sonic-1": {Connections: 1, Requests: 1}, "sonic-2": {Connections: 1, Requests: 1}, "mlx5-1": {Connections: 1, Requests: 1}}
	many := map[string]DeviceCount{"sonic-1": {Connections: 1, Requests: 33}, "sonic-2": {Connections: 1, Requests: 31}, "mlx5-1": {Connections: 1, Requests: 4}}
	writes := map[string]DeviceCount{"sonic-1": {Connections: 1, Requests: 40, Reads: 7, Writes: 33}, "sonic-2": {Connections: 1, Requests: 38, Reads: 7, Writes: 31},
		"mlx5-1": {Connections: 1, Requests: 12, Reads: 12}}
	s := func(d time.Duration, c map[string]DeviceCount) Sample { return sample(d, 95000, c) }
	return Results{Size: size, Latency: 20 * time.Millisecond, Platforms: testPlatforms, Measurements: []Measurement{
		{Variant: Defaults, Kind: NoChange, Resources: 50, Samples: []Sample{s(time.Second, one)}},
		{Variant: Defaults, Kind: NoChange, Resources: 100, Samples: []Sample{s(2100*time.Millisecond, one), s(1900*time.Millisecond, one), s(2*time.Second, one)}},
		{Variant: PerResource, Kind: NoChange, Resources: 100, Samples: []Sample{s(12*time.Second, many)}},
		{Variant: Floor, Kind: NoChange, Resources: 100, Samples: []Sample{{Wall: 1500 * time.Millisecond}}},
		{Variant: Defaults, Kind: Drift, Resources: 100, Samples: []Sample{s(3*time.Second, one)}},
		{Variant: PerResource, Kind: Drift, Resources: 100, Samples: []Sample{{Wall: time.Second, Exit: 1,
			Err: "exit 1, want 2: Error: Unsupported argument: An argument named \"per_resource_reads\" is not expected here."}}},
		{Variant: Noop, Kind: NoChange, Resources: 100, Samples: []Sample{s(1900*time.Millisecond, nil)}},
		{Variant: Defaults, Kind: Apply, Resources: 100, Samples: []Sample{s(13*time.Second, writes)}},
		{Variant: Noop, Kind: Apply, Resources: 100, Samples: []Sample{s(10*time.Second, nil)}},
		{Variant: Floor, Kind: Apply, Resources: 100, Samples: []Sample{{Wall: 5 * time.Second}}},
		{Variant: Defaults, Kind: Destroy, Resources: 100, Samples: []Sample{s(14*time.Second, writes)}},
		{Variant: Noop, Kind: Destroy, Resources: 100, Samples: []Sample{s(10*time.Second, nil)}},
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
	if r.FullResources(Defaults) != 100 || r.FullResources(Map) != 0 {
		t.Error("FullResources")
	}
	if _, ok := r.Find(Floor, Drift, 100); ok {
		t.Error("Find invented a measurement")
	}
	if (Measurement{}).OK() || (Measurement{}).Error() != "not measured" {
		t.Error("an empty measurement is not OK")
	}
}

// wantRows splits a Markdown table (a header, a rule, rows) into its lines and checks that it
// has a row for each of want, in order, starting with it.
func wantRows(t *testing.T, what, table string, want ...string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if len(lines) < 2+len(want) {
		t.Fatalf("%s: %d lines, want a header, a rule and %d rows:\n%s", what, len(lines), len(want), table)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[2+i], w) {
			t.Errorf("%s row %d:\n got %s\nwant %s...", what, i, lines[2+i], w)
		}
	}
	return lines
}

func TestFormatTable(t *testing.T) {
	got := FormatTable(testResults("default"))
	table, rest, _ := strings.Cut(got, "\n\n")
	notes, writes, _ := strings.Cut(rest, "\n\n")
	if !strings.Contains(notes, "VmHWM") {
		t.Errorf("notes missing:\n%s", got)
	}
	lines := wantRows(t, "plan table", table,
		"| (a) defaults | 100 | no-change plan | 2.00 s (n=3) | 1.33× | 1.05× | 0.17× | 1 (1.00) | 1 (1.00) | 1 (1.00) | 1 (1.00) | 3 | 97.3 MB |",
		"| (b) per-resource reads | 100 | no-change plan | 12.00 s (n=1) | 8.00× | 6.32× | 1.00× | 33 (32.00) | 4 (4.00) | 1 (1.00) | 1 (1.00) | 3 | 97.3 MB |",
		"| (c) terraform_data floor | 100 | no-change plan | 1.50 s (n=1) | 1.00× | 0.79× | 0.12× | – | – | – | – | – | – |",
		"| (d) no-op framework provider | 100 | no-change plan | 1.90 s (n=1) | 1.27× | 1.00× | 0.16× | – | – | – | – | 3 | 97.3 MB |",
		"| (a) defaults | 100 | drift plan | 3.00 s (n=1) | 2.00× | 1.58× | – |",
		"| (b) per-resource reads | 100 | drift plan | ERROR: exit 1, want 2: Error: Unsupported argument: An argument named \"per_resource_reads\" is not expected here. |",
		"| (c) terraform_data floor | 100 | drift plan | n/a: terraform_data cannot drift",
		"| (d) no-op framework provider | 100 | drift plan | n/a: the no-op provider reads no device")
	if len(lines) != 2+8 {
		t.Errorf("plan table: %d lines, want a header, a rule and 8 rows:\n%s", len(lines), got)
	}
	if n := strings.Count(lines[0], "|"); n != 14 {
		t.Errorf("header has %d columns", n-1)
	}

	wantRows(t, "apply and destroy table", writes,
		"| (a) defaults | 100 | apply from empty | 13.00 s (n=1) | 1.30× | 2.60× | 33 (32.00) | 7 (7.00) | 12 (12.00) | 1 (1.00) | 1 (1.00) |",
		"| (d) no-op framework provider | 100 | apply from empty | 10.00 s (n=1) | 1.00× | 2.00× | – |",
		"| (c) terraform_data floor | 100 | apply from empty | 5.00 s (n=1) | 0.50× | 1.00× | – |",
		"| (a) defaults | 100 | destroy | 14.00 s (n=1) | 1.40× | – |",
		"| (d) no-op framework provider | 100 | destroy | 10.00 s (n=1) | 1.00× | – |")
	if !strings.Contains(writes, "gNMI Sets are the writes") {
		t.Errorf("apply/destroy notes missing:\n%s", writes)
	}
	// Without apply or destroy measurements there is no second table.
	r := testResults("default")
	r.Measurements = r.Measurements[:7]
	if got := FormatTable(r); strings.Contains(got, "apply from empty") {
		t.Errorf("an apply table without applies:\n%s", got)
	}
}

func TestTargets(t *testing.T) {
	ts := Targets(testResults("default"))
	// floor, no-op plan, no-op apply, no-op destroy, (b) speed-up, reads, connections, RSS, xl
	want := []Status{Pass, Pass, Pass, Fail, Pass, Pass, Pass, NotEvaluated, NotEvaluated}
	if len(ts) != len(want) {
		t.Fatalf("%d targets, want %d", len(ts), len(want))
	}
	for i, tg := range ts {
		if tg.Status != want[i] {
			t.Errorf("%s: %s (%s), want %s", tg.Name, tg.Status, tg.Measured, want[i])
		}
	}
	if !strings.Contains(ts[0].Measured, "2.00 s / 1.50 s = 1.33×") || !strings.Contains(ts[4].Measured, "= 6.00×") {
		t.Errorf("measured: %q, %q", ts[0].Measured, ts[4].Measured)
	}
	if !strings.Contains(ts[1].Measured, "2.00 s / 1.90 s = 1.05×") || !strings.Contains(ts[3].Measured, "14.00 s / 10.00 s = 1.40×") {
		t.Errorf("no-op ratios: %q, %q", ts[1].Measured, ts[3].Measured)
	}
	if !strings.Contains(ts[7].Measured, "97.3 MB at default (run BENCH_SIZE=large") {
		t.Errorf("RSS below large: %q", ts[7].Measured)
	}

	// At the large size the RSS target is judged; slower (a) and more reads fail.
	r := testResults("large")
	r.Measurements[1].Samples = []Sample{sample(4*time.Second, 250000, map[string]DeviceCount{"sonic-1": {Connections: 2, Requests: 2}, "mlx5-1": {Connections: 1, Requests: 1}})}
	ts = Targets(r)
	for i, want := range []Status{Fail, Fail, Pass, Fail, Fail, Fail, Fail, Fail, NotEvaluated} {
		if ts[i].Status != want {
			t.Errorf("large %s: %s (%s), want %s", ts[i].Name, ts[i].Status, ts[i].Measured, want)
		}
	}
	if !strings.Contains(ts[0].Measured, "measured at large; the target is stated for default") {
		t.Errorf("size note missing: %q", ts[0].Measured)
	}

	// Failed (b) or a missing (d): their targets are not evaluated, never passed.
	r = testResults("default")
	r.Measurements[2].Samples[0].Err = "exit 1"
	r.Measurements = slices.DeleteFunc(r.Measurements, func(m Measurement) bool { return m.Variant == Noop && m.Kind == Apply })
	if ts := Targets(r); ts[4].Status != NotEvaluated || ts[0].Status != Pass || ts[2].Status != NotEvaluated {
		t.Errorf("failed (b), no (d) apply: %+v", ts)
	}
	out := FormatTargets(Targets(testResults("default")))
	if !strings.HasPrefix(out, "| target | measured | result |") || strings.Count(out, "| PASS |") != 6 {
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

// mapResults: an xl run of the map-keyed variants, (e) planning in medianE, with (f) 20 s and
// (g) 10 s at 1152 resources, (e) and (f) applied.
func mapResults(size string, medianE time.Duration) Results {
	one := map[string]DeviceCount{"sonic-1": {Connections: 1, Requests: 1}, "mlx5-1": {Connections: 1, Requests: 1}}
	s := func(d time.Duration, c map[string]DeviceCount) Sample { return sample(d, 150000, c) }
	return Results{Size: size, Platforms: testPlatforms, Variants: MapKeyedVariants, Measurements: []Measurement{
		{Variant: Map, Kind: NoChange, Resources: 288, Samples: []Sample{s(medianE/4, one)}},
		{Variant: Map, Kind: NoChange, Resources: 1152, Samples: []Sample{s(medianE, one), s(medianE+time.Second, one), s(medianE-time.Second, one)}},
		{Variant: MapNoop, Kind: NoChange, Resources: 1152, Samples: []Sample{s(20*time.Second, nil)}},
		{Variant: MapFloor, Kind: NoChange, Resources: 1152, Samples: []Sample{{Wall: 10 * time.Second}}},
		{Variant: Map, Kind: Drift, Resources: 1152, Samples: []Sample{s(medianE, one)}},
		{Variant: Map, Kind: Apply, Resources: 1152, Samples: []Sample{s(90*time.Second, one)}},
		{Variant: MapNoop, Kind: Apply, Resources: 1152, Samples: []Sample{s(60*time.Second, nil)}},
	}}
}

// withGroups adds to r a run of the grouped variants at 1152 resources, (h) planning in
// median, (i) in 15 s, (j) in 5 s.
func withGroups(r Results, median time.Duration) Results {
	one := map[string]DeviceCount{"sonic-1": {Connections: 1, Requests: 1}, "mlx5-1": {Connections: 1, Requests: 1}}
	r.Variants = append(slices.Clone(r.Variants), GroupedVariants...)
	r.Measurements = append(slices.Clone(r.Measurements),
		Measurement{Variant: Group, Kind: NoChange, Resources: 1152, Samples: []Sample{sample(median, 150000, one)}},
		Measurement{Variant: GroupNoop, Kind: NoChange, Resources: 1152, Samples: []Sample{sample(15*time.Second, 150000, nil)}},
		Measurement{Variant: GroupFloor, Kind: NoChange, Resources: 1152, Samples: []Sample{{Wall: 5 * time.Second}}})
	return r
}

// Map-keyed rows are judged against the map-keyed floors (f) and (g), show their own
// resource count, and (b) does not apply to them.
func TestFormatTableMapKeyed(t *testing.T) {
	got := FormatTable(mapResults("xl", 40*time.Second))
	for _, want := range []string{
		"| (e) map-keyed | 1152 | no-change plan | 40.00 s (n=3) | 4.00× | 2.00× | – | 1 (1.00) | 1 (1.00) | 1 (1.00) | 1 (1.00) | 3 | 153.6 MB |",
		"| (f) no-op provider, map-keyed | 1152 | no-change plan | 20.00 s (n=1) | 2.00× | 1.00× | – | – | – | – | – | 3 |",
		"| (g) terraform_data floor, map-keyed | 1152 | no-change plan | 10.00 s (n=1) | 1.00× | 0.50× | – | – |",
		"| (e) map-keyed | 1152 | drift plan | 40.00 s (n=1) | 4.00× | 2.00× | – |",
		"| (f) no-op provider, map-keyed | 1152 | drift plan | n/a: the no-op provider reads no device",
		"| (g) terraform_data floor, map-keyed | 1152 | drift plan | n/a: terraform_data cannot drift",
		"| (e) map-keyed | 1152 | apply from empty | 90.00 s (n=1) | 1.50× | – |",
		"| (f) no-op provider, map-keyed | 1152 | apply from empty | 60.00 s (n=1) | 1.00× | – | – |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing row %s\nin:\n%s", want, got)
		}
	}
	if strings.Contains(got, "(a) defaults") {
		t.Errorf("rows of variants the run did not ask for:\n%s", got)
	}

	// A requested variant that could not run says why.
	r := mapResults("default", 40*time.Second)
	r.Variants = AllVariants
	r.Skipped = map[Variant]string{Defaults: "the provider lacks roce_pfc_interface | x"}
	got = FormatTable(r)
	if !strings.Contains(got, `| (a) defaults | – | no-change plan | not measured: the provider lacks roce_pfc_interface \| x |`) ||
		!strings.Contains(got, "| (b) per-resource reads | – | drift plan | not measured |") {
		t.Errorf("skipped and missing variants:\n%s", got)
	}
}

// The xl target judges (e)'s no-change plan of the xl fabric against 60 s, and only at xl.
func TestXLTarget(t *testing.T) {
	last := func(r Results) Target { ts := Targets(r); return ts[len(ts)-1] }
	for _, c := range []struct {
		r        Results
		status   Status
		measured string
	}{
		{mapResults("xl", 40*time.Second), Pass, "40.00 s for (e) map-keyed, 1152 resources (median of 3)"},
		{mapResults("xl", 75*time.Second), Fail, "75.00 s for (e) map-keyed, 1152 resources"},
		{mapResults("large", 40*time.Second), NotEvaluated, "40.00 s for (e) map-keyed at large, 1152 resources (run BENCH_SIZE=xl to judge)"},
		{testResults("default"), NotEvaluated, "2.00 s for (a) defaults at default, 100 resources (run BENCH_SIZE=xl"},
		{Results{Size: "xl"}, NotEvaluated, "missing or failed measurement of (h) grouped"},
		// the grouped (h), the shape xl runs, is judged when it ran, before (e)
		{withGroups(mapResults("xl", 75*time.Second), 30*time.Second), Pass, "30.00 s for (h) grouped, 1152 resources (median of 1)"},
	} {
		tg := last(c.r)
		if tg.Name != "xl no-change plan under 60 s" || tg.Status != c.status || !strings.Contains(tg.Measured, c.measured) {
			t.Errorf("%s at %s: %s %q, want %s %q", tg.Name, c.r.Size, tg.Status, tg.Measured, c.status, c.measured)
		}
	}
	// A failed (e) plan is not judged.
	r := mapResults("xl", 40*time.Second)
	r.Measurements[1].Samples[0].Err = "exit 1"
	if tg := last(r); tg.Status != NotEvaluated {
		t.Errorf("failed (e): %s %q", tg.Status, tg.Measured)
	}
	// The per-interface targets are not evaluated on a map-keyed run, never passed.
	for _, tg := range Targets(mapResults("xl", 40*time.Second))[:8] {
		if tg.Status != NotEvaluated {
			t.Errorf("%s: %s on a map-keyed run", tg.Name, tg.Status)
		}
	}
}

func TestFormatLabCost(t *testing.T) {
	got := FormatLabCost(LabCost{Devices: 576, Start: 12500 * time.Millisecond, RSSKB: 1000000, FDs: 600, Goroutines: 5000,
		PeakRSSKB: 2000000, PeakFDs: 1800, NoFile: 20000})
	want := "Lab (in the bench process): 576 devices started in 12.50 s; after the start RSS 1024.0 MB, 600 open files, 5000 goroutines; " +
		"over the run peak RSS 2048.0 MB, at most 1800 open files (RLIMIT_NOFILE 20000).\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if FormatLabCost(LabCost{}) != "" {
		t.Error("a run without a lab has no lab line")
	}
}

// Grouped rows are judged against the grouped floors (i) and (j), not the map-keyed ones.
func TestFormatTableGrouped(t *testing.T) {
	got := FormatTable(withGroups(mapResults("xl", 40*time.Second), 30*time.Second))
	if !strings.Contains(got, "| (h) grouped | 1152 | no-change plan | 30.00 s (n=1) | 6.00× | 2.00× | – |") {
		t.Errorf("the (h) row is not judged against (j) 5 s and (i) 15 s:\n%s", got)
	}
}
