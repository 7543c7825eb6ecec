package bench

import (
	"fmt"
	"strings"
	"time"
)

// Platforms whose devices the table reports: switches, then hosts.
const (
	SwitchPlatform = "sonic"
	HostPlatform   = "mlx5"
)

// Target thresholds of the issue.
const (
	MaxFloorRatio          = 2.0 // no-change plan (a) within 2x the floor (c)
	MaxNoopPlanRatio       = 1.1 // no-change plan (a) within 1.1x the no-op provider (d)
	MaxNoopWriteRatio      = 1.3 // apply from empty and destroy (a) within 1.3x the no-op provider (d)
	MinSpeedupOverB        = 5.0 // (a) at least 5x faster than (b)
	MaxReadsPerDevice      = 1   // read round trips per device per provider process, no-change plan
	MaxConnsPerDevice      = 1   // connections per device per provider process, no-change plan
	MaxPeakRSSMB           = 200.0
	MaxXLPlan              = 60 * time.Second // issue 22: a no-change plan of the xl fabric
	TargetSize             = "default"        // the size the time targets are stated for
	RSSTargetSize          = "large"          // the size the memory target is stated for
	XLSize                 = "xl"             // the size of the xl plan target
	notApplicableDrift     = "n/a: terraform_data cannot drift; the floor of a drift plan is the floor's no-change plan"
	notApplicableNoopDrift = "n/a: the no-op provider reads no device, so nothing drifts; its no-change plan is the floor"
)

// FormatTable renders the measurements of the full fabric as markdown: the plans (a row per
// requested variant x {no-change plan, drift plan}), then apply from empty and destroy for the
// variants that write with the requests the devices saw. Each row is against the floors of its
// own shape: (c) and (d) for the per-interface variants, (g) and (f) for the map-keyed ones.
func FormatTable(r Results) string {
	var b strings.Builder
	b.WriteString("| variant | resources | plan | wall time (median) | × terraform_data floor (c/g/j) | × no-op (d/f/i) | × (b) | reads/switch max (mean) | reads/host max (mean) | gNMI conns/switch max (mean) | SSH conns/host max (mean) | provider processes | provider peak RSS |\n")
	b.WriteString("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	const empty = " |  |  |  |  |  |  |  |  |  |\n"
	for _, k := range []Kind{NoChange, Drift} {
		for _, v := range r.Requested() {
			full := r.FullResources(v)
			m, ok := r.Find(v, k, full)
			head := fmt.Sprintf("| %s | %s | %s | ", v.Label(), count(full), k)
			switch {
			case !ok && v.IsFloor() && k == Drift:
				b.WriteString(head + notApplicableDrift + empty)
				continue
			case !ok && v.IsNoop() && k == Drift:
				b.WriteString(head + notApplicableNoopDrift + empty)
				continue
			case !ok && r.Skipped[v] != "":
				b.WriteString(head + "not measured: " + oneLine(r.Skipped[v]) + empty)
				continue
			case !ok:
				b.WriteString(head + "not measured" + empty)
				continue
			case !m.OK():
				b.WriteString(head + "ERROR: " + oneLine(m.Error()) + empty)
				continue
			}
			floor, floorOK := r.Find(v.FloorOf(), NoChange, full)
			noop, noopOK := r.Find(v.NoopOf(), NoChange, full)
			base, baseOK := r.Find(PerResource, k, full)
			baseOK = baseOK && v.Shape() == PerInterface
			row := []string{v.Label(), count(full), string(k), fmt.Sprintf("%s (n=%d)", Seconds(m.Median()), len(m.Samples))}
			row = append(row, ratio(m, floor, floorOK), ratio(m, noop, noopOK), ratio(m, base, baseOK))
			if v.IsFloor() || v.IsNoop() {
				row = append(row, "–", "–", "–", "–")
			} else {
				rs, cs := m.Stats(SwitchPlatform, r.PlatformOf)
				rh, ch := m.Stats(HostPlatform, r.PlatformOf)
				row = append(row, stat(rs), stat(rh), stat(cs), stat(ch))
			}
			if v.IsFloor() {
				row = append(row, "–", "–")
			} else {
				row = append(row, fmt.Sprint(m.MaxProcesses()), MB(m.PeakRSSKB()))
			}
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
	}
	b.WriteString(tableNotes)
	b.WriteString(formatWrites(r))
	return b.String()
}

// count is a resource count, "–" when nothing was measured.
func count(n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprint(n)
}

// writeVariants are the variants whose apply and destroy the table shows.
var writeVariants = []Variant{Defaults, Noop, Floor, Map, MapNoop, MapFloor, Group, GroupNoop, GroupFloor}

// formatWrites is the apply and destroy table; empty when neither was measured.
func formatWrites(r Results) string {
	var b strings.Builder
	for _, k := range []Kind{Apply, Destroy} {
		for _, v := range writeVariants {
			full := r.FullResources(v)
			m, ok := r.Find(v, k, full)
			switch {
			case !ok:
				continue
			case !m.OK():
				fmt.Fprintf(&b, "| %s | %s | %s | ERROR: %s |  |  |  |  |  |  |  |\n", v.Label(), count(full), k, oneLine(m.Error()))
				continue
			}
			noop, noopOK := r.Find(v.NoopOf(), k, full)
			floor, floorOK := r.Find(v.FloorOf(), k, full)
			row := []string{v.Label(), count(full), string(k), fmt.Sprintf("%s (n=%d)", Seconds(m.Median()), len(m.Samples)),
				ratio(m, noop, noopOK), ratio(m, floor, floorOK)}
			if !v.IsFloor() && !v.IsNoop() {
				pick := func(f func(DeviceCount) int64) Stat { return m.Stat(SwitchPlatform, r.PlatformOf, f) }
				row = append(row,
					stat(pick(func(c DeviceCount) int64 { return c.Writes })),
					stat(pick(func(c DeviceCount) int64 { return c.Reads })),
					stat(m.Stat(HostPlatform, r.PlatformOf, func(c DeviceCount) int64 { return c.Requests })),
					stat(pick(func(c DeviceCount) int64 { return c.Connections })),
					stat(m.Stat(HostPlatform, r.PlatformOf, func(c DeviceCount) int64 { return c.Connections })))
			} else {
				row = append(row, "–", "–", "–", "–", "–")
			}
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n| variant | resources | command | wall time (median) | × no-op (d/f/i) | × terraform_data floor (c/g/j) | gNMI Sets/switch max (mean) | gNMI reads/switch max (mean) | SSH execs/host max (mean) | gNMI conns/switch max (mean) | SSH conns/host max (mean) |\n" +
		"|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n" + b.String() + writesNotes
}

const tableNotes = `
Resources: the variant's resource instances for the whole fabric (a per-interface
configuration has one per port and NIC, a map-keyed or grouped one one per device). Wall time: the median
over the runs (n). × floor and × no-op: against the no-change plan of the floor of the row's
shape, (c) and (d) per interface, (g) and (f) map-keyed, (j) and (i) grouped; × (b): against (b)'s plan of the same
kind. Reads are requests a device served (gNMI RPCs on a switch, SSH exec requests on a host)
and connections the TCP connections it accepted, both per device over the whole command,
whichever provider process made them (provider processes: how many Terraform started); max over
the devices and runs, mean in brackets. Peak RSS: the largest VmHWM of any provider process,
sampled from /proc every 20 ms.
`

const writesNotes = `
Apply from empty and destroy of the whole fabric, each against the same command of the no-op
provider and the terraform_data floor of its shape.
gNMI Sets are the writes a switch received, gNMI reads its Gets and Subscribes; a host's SSH
exec requests are its reads and writes together (the lab does not tell them apart).
`

func ratio(m, ref Measurement, ok bool) string {
	if !ok || !ref.OK() || ref.Median() <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", m.Median().Seconds()/ref.Median().Seconds())
}

func stat(s Stat) string {
	if s.Devices == 0 {
		return "–"
	}
	return fmt.Sprintf("%d (%.2f)", s.Max, s.Mean)
}

// Seconds formats a duration as seconds with two decimals.
func Seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

// MB formats kilobytes (KiB, as /proc reports them) as megabytes.
func MB(kb int64) string {
	if kb <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f MB", mb(kb))
}

func mb(kb int64) float64 { return float64(kb) * 1024 / 1e6 }

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// Status of a target.
type Status string

// The statuses of a target.
const (
	Pass         Status = "PASS"
	Fail         Status = "FAIL"
	NotEvaluated Status = "NOT EVALUATED"
)

// Target is one of the targets, judged from the measurements.
type Target struct {
	Name     string
	Measured string
	Status   Status
}

// Targets judges the targets from the measurements of the full fabric. Nothing is
// assumed: a target whose measurements are missing or failed is NOT EVALUATED, and so is the
// memory target below the large size.
func Targets(r Results) []Target {
	full := r.FullResources(Defaults)
	a, aOK := r.Find(Defaults, NoChange, full)
	b, bOK := r.Find(PerResource, NoChange, full)
	c, cOK := r.Find(Floor, NoChange, full)
	aOK, bOK, cOK = aOK && a.OK(), bOK && b.OK(), cOK && c.OK()
	sizeNote := ""
	if r.Size != TargetSize {
		sizeNote = fmt.Sprintf(" (measured at %s; the target is stated for %s)", r.Size, TargetSize)
	}
	var out []Target

	t := Target{Name: fmt.Sprintf("no-change plan (a) within %.0f× the floor (c)", MaxFloorRatio), Status: NotEvaluated}
	if aOK && cOK {
		q := a.Median().Seconds() / c.Median().Seconds()
		t.Measured = fmt.Sprintf("%s / %s = %.2f×%s", Seconds(a.Median()), Seconds(c.Median()), q, sizeNote)
		t.Status = judge(q <= MaxFloorRatio)
	} else {
		t.Measured = "missing or failed measurement of (a) or (c)"
	}
	out = append(out, t)

	for _, k := range []Kind{NoChange, Apply, Destroy} {
		limit := MaxNoopWriteRatio
		if k == NoChange {
			limit = MaxNoopPlanRatio
		}
		out = append(out, noopTarget(r, k, limit, sizeNote))
	}

	t = Target{Name: fmt.Sprintf("no-change plan (a) at least %.0f× faster than (b)", MinSpeedupOverB), Status: NotEvaluated}
	if aOK && bOK {
		q := b.Median().Seconds() / a.Median().Seconds()
		t.Measured = fmt.Sprintf("%s / %s = %.2f×%s", Seconds(b.Median()), Seconds(a.Median()), q, sizeNote)
		t.Status = judge(q >= MinSpeedupOverB)
	} else {
		t.Measured = "missing or failed measurement of (a) or (b)"
	}
	out = append(out, t)

	for _, what := range []struct {
		name  string
		limit int64
		pick  func(req, conn Stat) Stat
	}{
		{"read round trip", MaxReadsPerDevice, func(req, _ Stat) Stat { return req }},
		{"connection", MaxConnsPerDevice, func(_, conn Stat) Stat { return conn }},
	} {
		t = Target{Name: fmt.Sprintf("at most %d %s per device per provider process, no-change plan (a)", what.limit, what.name), Status: NotEvaluated}
		if aOK {
			var parts []string
			worst := int64(0)
			for _, p := range []string{SwitchPlatform, HostPlatform} {
				s := what.pick(a.Stats(p, r.PlatformOf))
				if s.Devices > 0 {
					parts = append(parts, fmt.Sprintf("%s max %d", p, s.Max))
					worst = max(worst, s.Max)
				}
			}
			t.Measured = strings.Join(parts, ", ") + " (counted over the whole plan, all provider processes)"
			t.Status = judge(worst <= what.limit)
		} else {
			t.Measured = "missing or failed measurement of (a)"
		}
		out = append(out, t)
	}

	t = Target{Name: fmt.Sprintf("provider peak RSS under %.0f MB at the %s size", MaxPeakRSSMB, RSSTargetSize), Status: NotEvaluated}
	var peak int64
	for _, m := range r.Measurements {
		if m.Variant == Defaults && m.Resources == full {
			peak = max(peak, m.PeakRSSKB())
		}
	}
	switch {
	case peak == 0:
		t.Measured = "no provider process was sampled"
	case r.Size != RSSTargetSize:
		t.Measured = fmt.Sprintf("%s at %s (run BENCH_SIZE=%s to judge)", MB(peak), r.Size, RSSTargetSize)
	default:
		t.Measured = MB(peak) + " (largest over every run of (a))"
		t.Status = judge(mb(peak) < MaxPeakRSSMB)
	}
	return append(out, t, xlTarget(r))
}

// xlTarget judges the no-change plan of the xl fabric against MaxXLPlan: the grouped (h)
// that xl runs, else the map-keyed (e), else (a), whichever ran first in that order.
func xlTarget(r Results) Target {
	t := Target{Name: fmt.Sprintf("%s no-change plan under %.0f s", XLSize, MaxXLPlan.Seconds()), Status: NotEvaluated}
	v := Group
	for _, c := range []Variant{Group, Map, Defaults} {
		if r.FullResources(c) > 0 {
			v = c
			break
		}
	}
	full := r.FullResources(v)
	m, ok := r.Find(v, NoChange, full)
	ok = ok && m.OK()
	switch {
	case r.Size != XLSize && ok:
		t.Measured = fmt.Sprintf("%s for %s at %s, %d resources (run BENCH_SIZE=%s to judge)", Seconds(m.Median()), v.Label(), r.Size, full, XLSize)
	case r.Size != XLSize:
		t.Measured = fmt.Sprintf("run BENCH_SIZE=%s to judge", XLSize)
	case !ok:
		t.Measured = fmt.Sprintf("missing or failed measurement of %s", v.Label())
	default:
		t.Measured = fmt.Sprintf("%s for %s, %d resources (median of %d)", Seconds(m.Median()), v.Label(), full, len(m.Samples))
		t.Status = judge(m.Median() < MaxXLPlan)
	}
	return t
}

// noopTarget judges (a) against the no-op provider (d) for one command.
func noopTarget(r Results, k Kind, limit float64, sizeNote string) Target {
	full := r.FullResources(Defaults)
	a, aOK := r.Find(Defaults, k, full)
	d, dOK := r.Find(Noop, k, full)
	t := Target{Name: fmt.Sprintf("%s (a) within %.1f× the no-op provider (d)", k, limit), Status: NotEvaluated}
	if !aOK || !dOK || !a.OK() || !d.OK() || d.Median() <= 0 {
		t.Measured = "missing or failed measurement of (a) or (d)"
		return t
	}
	q := a.Median().Seconds() / d.Median().Seconds()
	t.Measured = fmt.Sprintf("%s / %s = %.2f×%s", Seconds(a.Median()), Seconds(d.Median()), q, sizeNote)
	t.Status = judge(q <= limit)
	return t
}

func judge(ok bool) Status {
	if ok {
		return Pass
	}
	return Fail
}

// FormatTargets renders the targets as a markdown table.
func FormatTargets(ts []Target) string {
	var b strings.Builder
	b.WriteString("| target | measured | result |\n|---|---|---|\n")
	for _, t := range ts {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", t.Name, oneLine(t.Measured), t.Status)
	}
	return b.String()
}
