// Command bench is `make bench`: the provider's plan time against the simulated fabric with
// the real Terraform CLI. It builds the provider, starts the lab in-process (sonic switches and
// mlx5 hosts, 20 ms latency) and, for each shape of configuration it measures (per interface,
// then map-keyed), applies the fabric's configuration once, then measures no-change plans of
// the shape's variants ((a) the provider's defaults, (b) per_resource_reads = true, (c) as
// many terraform_data resources, (d) the no-op provider; map-keyed (e) the provider's
// defaults, (f) the no-op provider, (g) terraform_data) at 1/4, 1/2 and all of the fabric, a
// plan after an out-of-band change of 5% of the ports for the roce variants, and apply and
// destroy; a shape's last destroy leaves the devices clean for the next shape. It prints one
// table and the targets and writes .bench/plan-time.png, .bench/table.md and
// .bench/results.json.
//
//	go run ./internal/bench/cmd/bench -size default              # or BENCH_SIZE=small|default|large|xl
//	go run ./internal/bench/cmd/bench -size xl -variants a,c,d   # or BENCH_VARIANTS=a,c,d
//	go run ./internal/bench/cmd/bench -size xl -lab-only         # what the lab alone costs
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/bench"
	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

type options struct {
	size        bench.Size
	variants    []bench.Variant
	reps        int
	writeReps   int // runs of apply from empty and destroy
	latency     time.Duration
	parallelism int
	out         string
	labOnly     bool
}

func main() {
	exit := 0
	defer func() { os.Exit(exit) }() // after the deferred profile stop
	size := flag.String("size", envOr("BENCH_SIZE", "default"), "fabric size: small, default, large or xl (BENCH_SIZE)")
	variants := flag.String("variants", os.Getenv("BENCH_VARIANTS"),
		"variants to measure, e.g. a,b,c,d or e,f,g (BENCH_VARIANTS; default: every variant below xl, h,i,j at xl)")
	reps := flag.Int("reps", 0, "runs of each measurement, the median reported (0: 3, or 2 at large and xl)")
	writeReps := flag.Int("write-reps", 0, "runs of apply from empty and destroy (0: as -reps, but 1 at xl, where each takes minutes)")
	latency := flag.Duration("latency", 20*time.Millisecond, "lab latency added to every device request")
	parallelism := flag.Int("parallelism", 10, "terraform -parallelism")
	out := flag.String("out", ".bench", "output directory (work files, logs, table, plot)")
	labOnly := flag.Bool("lab-only", false, "only start the lab of the size, connect once to every device and report what it costs (no Terraform)")
	cpuProfile := flag.String("cpuprofile", "", "write the bench process's CPU profile (the lab's devices serving requests) to this file")
	flag.Parse()
	if *cpuProfile != "" {
		// The lab runs in this process: its profile says what serving the devices costs, the
		// CPU a bench run's wall time shares with Terraform and the provider.
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
		defer stopProfile()
	}
	s, err := bench.LookupSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	vs := s.Variants
	if *variants != "" {
		if vs, err = bench.ParseVariants(*variants); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
	}
	if *reps <= 0 {
		*reps = 3
		if s.Name == "large" || s.Name == "xl" {
			*reps = 2
		}
	}
	if *writeReps <= 0 {
		*writeReps = *reps
		if s.Name == "xl" {
			*writeReps = 1
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = run(ctx, options{size: s, variants: vs, reps: *reps, writeReps: *writeReps, latency: *latency, parallelism: *parallelism, out: *out, labOnly: *labOnly})
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		stop()
		exit = 1
	}
}

// startCPUProfile starts profiling this process into path; the returned func ends it.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path) //nolint:gosec // the path the user gave -cpuprofile
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "bench: writing the CPU profile:", err)
		}
	}, nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// shapes are the shapes in the order the bench measures them.
var shapes = []bench.Shape{bench.PerInterface, bench.MapKeyed, bench.Grouped}

func run(ctx context.Context, o options) error {
	if o.labOnly {
		return runLabOnly(ctx, o)
	}
	began := time.Now()
	skipped := missingTypes(ctx, o.variants)
	var variants []bench.Variant
	for _, v := range o.variants {
		if why, ok := skipped[v]; ok {
			progress("not measuring %s: %s", v.Label(), why)
			continue
		}
		variants = append(variants, v)
	}
	if len(variants) == 0 {
		return fmt.Errorf("nothing to measure at %s: every variant of %v is skipped (%v)", o.size.Name, o.variants, skipped)
	}
	if o.size.Name == "xl" && slices.ContainsFunc(variants, func(v bench.Variant) bool { return v.Shape() == bench.PerInterface }) {
		progress("per-interface variants at xl: %d resources each; expect a long run", o.size.Resources(bench.PerInterface))
	}
	root, err := moduleRoot(ctx)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(o.out)
	if err != nil {
		return err
	}
	for _, d := range []string{"work", "logs", "lab"} {
		if err := os.RemoveAll(filepath.Join(out, d)); err != nil {
			return err
		}
	}
	progress("building the provider into %s", filepath.Join(out, "bin"))
	providerBin, err := buildProvider(ctx, root, ".", filepath.Join(out, "bin"))
	if err != nil {
		return err
	}
	noopBin, err := buildProvider(ctx, root, "./internal/bench/cmd/noop", filepath.Join(out, "noop"))
	if err != nil {
		return err
	}
	tfBin, err := findTerraform(ctx, root)
	if err != nil {
		return err
	}
	cliConfig := filepath.Join(out, "terraformrc")
	if err := writeCLIConfig(cliConfig, filepath.Dir(providerBin)); err != nil {
		return err
	}
	tf := bench.Terraform{Bin: tfBin, CLIConfig: cliConfig, Parallelism: o.parallelism, LogDir: filepath.Join(out, "logs")}
	// (d) and (f) run the configurations of (a) and (e) with rocefabric/roce mapped to the
	// no-op provider.
	noopTF := tf
	noopTF.CLIConfig = filepath.Join(out, "terraformrc-noop")
	if err := writeCLIConfig(noopTF.CLIConfig, filepath.Dir(noopBin)); err != nil {
		return err
	}
	cli := map[bench.Variant]bench.Terraform{}
	for _, v := range bench.AllVariants {
		cli[v] = tf
		if v.IsNoop() {
			cli[v] = noopTF
		}
	}

	labDir := filepath.Join(out, "lab")
	l, cost, fds, err := startLab(ctx, o, labDir)
	if err != nil {
		return err
	}
	defer fds.stop()
	defer l.Stop()
	inventory := filepath.Join(labDir, lab.InventoryFile)
	raw, err := os.ReadFile(inventory) //nolint:gosec // the lab's own file
	if err != nil {
		return err
	}
	inv, err := bench.ParseInventory(raw)
	if err != nil {
		return err
	}
	full, err := inv.Fabric()
	if err != nil {
		return err
	}

	res := bench.Results{Size: o.size.Name, Latency: o.latency, Parallelism: o.parallelism, Repetitions: o.reps,
		Platforms: map[string]string{}, Variants: o.variants, Skipped: skipped}
	for name, d := range inv.Devices {
		res.Platforms[name] = d.Platform
	}
	m := measurer{o: o, cli: cli, l: l, inv: inv, full: full, inventory: inventory, res: &res,
		rss: map[bench.Variant]*bench.RSSSampler{}, idx: map[string]int{}}
	for _, v := range bench.AllVariants { // (c) and (g) run inside Terraform: no provider process
		switch {
		case v.IsNoop():
			m.rss[v] = bench.NewRSSSampler(noopBin, 20*time.Millisecond)
		case !v.IsFloor():
			m.rss[v] = bench.NewRSSSampler(providerBin, 20*time.Millisecond)
		}
	}
	for _, sh := range shapes {
		var phase []bench.Variant
		for _, v := range variants {
			if v.Shape() == sh {
				phase = append(phase, v)
			}
		}
		if len(phase) == 0 {
			continue
		}
		if err := m.phase(ctx, phase); err != nil {
			return err
		}
	}
	cost.PeakRSSKB, cost.PeakFDs = selfStatusKB("VmHWM"), fds.stop()
	res.Lab = cost

	var counts []string
	for _, sh := range shapes {
		var letters []string
		for _, v := range o.variants {
			if v.Shape() == sh {
				letters = append(letters, "("+string(v)+")")
			}
		}
		if len(letters) > 0 {
			counts = append(counts, fmt.Sprintf("%s %s %d", strings.Join(letters, ""), sh, full.Resources(sh)))
		}
	}
	table := fmt.Sprintf("BENCH_SIZE=%s: %d sonic switches x %d ports, %d mlx5 hosts x %d NICs; resources: %s; lab latency %s; "+
		"terraform -parallelism=%d; median of %d runs (%d of apply and destroy); drift on %d ports (%.0f%%).\n%s\n%s\nTargets:\n\n%s",
		o.size.Name, o.size.Switches, o.size.Ports, o.size.Hosts, o.size.NICs, strings.Join(counts, ", "), o.latency,
		o.parallelism, o.reps, o.writeReps, res.DriftPorts, bench.DriftFraction*100, bench.FormatLabCost(res.Lab), bench.FormatTable(res),
		bench.FormatTargets(bench.Targets(res)))
	plot := filepath.Join(out, "plan-time.png")
	if err := writePlot(plot, res); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(out, "results.json"), res); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "table.md"), []byte(table), 0o600); err != nil { //nolint:gosec // the output directory the user named
		return err
	}
	fmt.Println()
	fmt.Print(table)
	fmt.Printf("\nPlot: %s. Table: %s. Logs: %s. Bench wall time: %s.\n", plot, filepath.Join(out, "table.md"),
		tf.LogDir, time.Since(began).Round(time.Second))
	return nil
}

// fractions are the fabric sizes of the plot: 1/4, 1/2 and all of the fabric.
var fractions = [][2]int{{1, 4}, {1, 2}, {1, 1}}

// measurer measures the variants of one shape at a time against the running lab.
type measurer struct {
	o         options
	cli       map[bench.Variant]bench.Terraform
	l         *lab.Lab
	inv       bench.Inventory
	full      bench.Fabric
	inventory string
	rss       map[bench.Variant]*bench.RSSSampler
	res       *bench.Results
	idx       map[string]int
}

func (m *measurer) record(v bench.Variant, k bench.Kind, resources int, s bench.Sample) {
	key := fmt.Sprint(v, k, resources)
	i, ok := m.idx[key]
	if !ok {
		i = len(m.res.Measurements)
		m.idx[key] = i
		m.res.Measurements = append(m.res.Measurements, bench.Measurement{Variant: v, Kind: k, Resources: resources})
	}
	m.res.Measurements[i].Samples = append(m.res.Measurements[i].Samples, s)
}

func (m *measurer) probe(v bench.Variant, devices []string) bench.Probe {
	return bench.Probe{Counters: labCounters{m.l}, Devices: devices, RSS: m.rss[v]}
}

func (m *measurer) report(rep int, resources int, v bench.Variant, k bench.Kind, s bench.Sample) {
	of := m.o.reps
	if k == bench.Destroy {
		of = m.o.writeReps
	}
	progress("run %d/%d %5d resources %-36s %-16s %8s  CPU %8s  RSS %s  %s", rep, of, resources,
		v.Label(), k, bench.Seconds(s.Wall), bench.Seconds(s.CPU), bench.MB(s.PeakRSSKB), okOr(s.Err))
}

// phase measures the variants of one shape: applies from empty, no-change plans at every
// fraction, drift plans of the roce variants, then destroy and apply alternating; the last
// destroy leaves the devices as the phase found them.
func (m *measurer) phase(ctx context.Context, variants []bench.Variant) error {
	full, shape := m.full, variants[0].Shape()
	work := filepath.Join(filepath.Dir(m.cli[bench.Defaults].LogDir), "work")
	// The variants that write: the roce variant first, while the lab's switches hold nothing of
	// the fabric, then the floors, which write nowhere. (b) plans against (a)'s state: the same
	// resources, only the provider setting differs.
	var writers []bench.Variant
	for _, v := range variants {
		if v != bench.PerResource {
			writers = append(writers, v)
		}
	}
	states := map[bench.Variant][]byte{}
	applyDirs := map[bench.Variant]string{}
	for _, v := range writers {
		applyDirs[v] = filepath.Join(work, "apply-"+string(v))
		s, st, err := applyFull(ctx, m.cli[v], applyDirs[v], full, v, m.inventory, m.probe(v, full.Devices()))
		if err != nil {
			return err
		}
		m.record(v, bench.Apply, full.Resources(shape), s)
		states[v] = st
	}
	if slices.Contains(variants, bench.PerResource) {
		if _, ok := states[bench.Defaults]; !ok {
			return fmt.Errorf("%s plans against the state of %s: measure both", bench.PerResource.Label(), bench.Defaults.Label())
		}
		states[bench.PerResource] = states[bench.Defaults]
	}

	var spaces []workspace
	seen := map[int]bool{}
	for _, fr := range fractions {
		f := full.Subset(fr[0], fr[1])
		n := f.Resources(shape)
		if seen[n] {
			continue
		}
		seen[n] = true
		for _, v := range variants {
			ws, err := prepare(filepath.Join(work, fmt.Sprintf("%s-%d", v, n)), f, v, m.inventory, states[v])
			if err != nil {
				return err
			}
			spaces = append(spaces, ws)
		}
	}

	for rep := 1; rep <= m.o.reps; rep++ {
		for _, ws := range spaces {
			if err := ctx.Err(); err != nil {
				return err
			}
			tf, n := m.cli[ws.variant], ws.fabric.Resources(shape)
			s, _ := tf.Measure(ctx, fmt.Sprintf("plan-%s-%d-nochange-%d", ws.variant, n, rep), ws.dir, 0,
				m.probe(ws.variant, ws.fabric.Devices()), tf.PlanArgs()...)
			m.record(ws.variant, bench.NoChange, n, s)
			m.report(rep, n, ws.variant, bench.NoChange, s)
		}
	}

	// Drift only where a roce variant will plan it: the floors read no device, and the devices
	// hold no PFC watchdog of this shape without a roce apply (a switch refuses a field update of
	// an absent key).
	if slices.ContainsFunc(variants, func(v bench.Variant) bool { return !v.IsFloor() && !v.IsNoop() }) {
		if err := m.drift(ctx, spaces, shape); err != nil {
			return err
		}
	}

	// Destroy and apply again, alternating, so each has o.writeReps runs (the first apply was
	// above); the last destroy cleans the devices for the next shape.
	for rep := 1; rep <= m.o.writeReps; rep++ {
		for _, v := range writers {
			if err := ctx.Err(); err != nil {
				return err
			}
			s, _ := m.cli[v].Measure(ctx, fmt.Sprintf("destroy-%s-%d", v, rep), applyDirs[v], 0, m.probe(v, full.Devices()), m.cli[v].DestroyArgs()...)
			m.record(v, bench.Destroy, full.Resources(shape), s)
			m.report(rep, full.Resources(shape), v, bench.Destroy, s)
			if s.Err != "" || rep == m.o.writeReps {
				continue
			}
			s, _, err := applyFull(ctx, m.cli[v], applyDirs[v], full, v, m.inventory, m.probe(v, full.Devices()))
			if err != nil {
				return err
			}
			m.record(v, bench.Apply, full.Resources(shape), s)
		}
	}
	return nil
}

// drift changes 5% of the ports out of band and measures the plans of the roce variants of the
// full fabric, which must change exactly the resources holding those ports.
func (m *measurer) drift(ctx context.Context, spaces []workspace, shape bench.Shape) error {
	full := m.full
	ports := bench.DriftPorts(full.Ports())
	m.res.DriftPorts = len(ports)
	progress("out of band: PFC_WD detection_time %d ms on %d ports (%v ...) with our own gNMI client", bench.DriftDetectionMS, len(ports), ports[0])
	if err := drift(ctx, m.inv, ports, bench.DriftDetectionMS); err != nil {
		return fmt.Errorf("drift: %w", err)
	}
	want := bench.DriftChanges(ports, shape)
	for rep := 1; rep <= m.o.reps; rep++ {
		for _, ws := range spaces {
			n := ws.fabric.Resources(shape)
			if ws.variant.IsFloor() || ws.variant.IsNoop() || n != full.Resources(shape) {
				continue
			}
			tf := m.cli[ws.variant]
			s, out := tf.Measure(ctx, fmt.Sprintf("plan-%s-%d-drift-%d", ws.variant, n, rep), ws.dir, 2,
				m.probe(ws.variant, ws.fabric.Devices()), tf.PlanArgs()...)
			if _, change, _, ok := bench.PlanChanges(out); s.Err == "" && (!ok || change != want) {
				s.Err = fmt.Sprintf("the plan changes %d resources, want %d for the %d drifted ports", change, want, len(ports))
			}
			m.record(ws.variant, bench.Drift, n, s)
			m.report(rep, n, ws.variant, bench.Drift, s)
		}
	}
	return nil
}

func okOr(err string) string {
	if err == "" {
		return "ok"
	}
	return "ERROR " + err
}

func writePlot(path string, r bench.Results) error {
	f, err := os.Create(path) //nolint:gosec // the bench's output directory
	if err != nil {
		return err
	}
	if err := bench.PlanTimePlot(r).WritePNG(f); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

func writeJSON(path string, v any) error {
	body, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(body, '\n'), 0o600)
}
