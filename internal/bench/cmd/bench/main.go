// Command bench is `make bench`: the provider's plan time against the simulated fabric with
// the real Terraform CLI. It builds the provider, starts the lab in-process (sonic switches and
// mlx5 hosts, 20 ms latency), applies the fabric's configuration once, then measures no-change
// plans of (a) the provider's defaults, (b) per_resource_reads = true and (c) as many
// terraform_data resources, at 1/4, 1/2 and all of the fabric, and a plan after an out-of-band
// change of 5% of the ports for (a) and (b). It prints one table and the targets and writes
// .bench/plan-time.png, .bench/table.md and .bench/results.json.
//
//	go run ./internal/bench/cmd/bench -size default   # or BENCH_SIZE=small|default|large
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/bench"
	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

type options struct {
	size        bench.Size
	reps        int
	latency     time.Duration
	parallelism int
	out         string
}

func main() {
	size := flag.String("size", envOr("BENCH_SIZE", "default"), "fabric size: small, default or large (BENCH_SIZE)")
	reps := flag.Int("reps", 0, "runs of each measurement, the median reported (0: 3, or 2 at large)")
	latency := flag.Duration("latency", 20*time.Millisecond, "lab latency added to every device request")
	parallelism := flag.Int("parallelism", 10, "terraform -parallelism")
	out := flag.String("out", ".bench", "output directory (work files, logs, table, plot)")
	flag.Parse()
	s, err := bench.LookupSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if *reps <= 0 {
		*reps = 3
		if s.Name == "large" {
			*reps = 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, options{size: s, reps: *reps, latency: *latency, parallelism: *parallelism, out: *out}); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		stop()
		os.Exit(1)
	}
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func run(ctx context.Context, o options) error {
	began := time.Now()
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
	// (d) runs the same configuration as (a) with rocefabric/roce mapped to the no-op provider.
	noopTF := tf
	noopTF.CLIConfig = filepath.Join(out, "terraformrc-noop")
	if err := writeCLIConfig(noopTF.CLIConfig, filepath.Dir(noopBin)); err != nil {
		return err
	}
	cli := map[bench.Variant]bench.Terraform{bench.Defaults: tf, bench.PerResource: tf, bench.Floor: tf, bench.Noop: noopTF}

	labDir := filepath.Join(out, "lab")
	if err := os.MkdirAll(labDir, 0o750); err != nil {
		return err
	}
	lab.KeepLogsIn(labDir)
	progress("starting the lab: %d sonic switches x %d ports, %d mlx5 hosts x %d NICs, latency %s (%d resources)",
		o.size.Switches, o.size.Ports, o.size.Hosts, bench.NICsPerHost, o.latency, o.size.Resources())
	l, err := lab.Start(ctx, lab.Options{
		Dir:      labDir,
		Switches: map[string]int{bench.SwitchPlatform: o.size.Switches},
		Hosts:    map[string]int{bench.HostPlatform: o.size.Hosts},
		Ports:    o.size.Ports,
		NICPorts: bench.NICsPerHost,
		Latency:  o.latency,
	})
	if err != nil {
		return fmt.Errorf("lab: %w", err)
	}
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
		Platforms: map[string]string{}}
	for name, d := range inv.Devices {
		res.Platforms[name] = d.Platform
	}
	if err := measure(ctx, o, cli, l, inv, full, inventory, providerBin, noopBin, &res); err != nil {
		return err
	}

	table := fmt.Sprintf("BENCH_SIZE=%s: %d sonic switches x %d ports, %d mlx5 hosts x %d NICs = %d resources; lab latency %s; terraform -parallelism=%d; median of %d runs; drift on %d ports (%.0f%%).\n\n%s\nTargets:\n\n%s",
		o.size.Name, o.size.Switches, o.size.Ports, o.size.Hosts, bench.NICsPerHost, full.Resources(), o.latency,
		o.parallelism, o.reps, res.DriftPorts, bench.DriftFraction*100, bench.FormatTable(res), bench.FormatTargets(bench.Targets(res)))
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

func measure(ctx context.Context, o options, cli map[bench.Variant]bench.Terraform, l *lab.Lab, inv bench.Inventory, full bench.Fabric,
	inventory, providerBin, noopBin string, res *bench.Results) error {
	tf := cli[bench.Defaults]
	work := filepath.Join(filepath.Dir(tf.LogDir), "work")
	counters := labCounters{l}
	rss := map[bench.Variant]*bench.RSSSampler{ // (c) runs inside Terraform: no provider process
		bench.Defaults: bench.NewRSSSampler(providerBin, 20*time.Millisecond),
		bench.Noop:     bench.NewRSSSampler(noopBin, 20*time.Millisecond),
	}
	rss[bench.PerResource] = rss[bench.Defaults]
	probe := func(v bench.Variant, devices []string) bench.Probe {
		return bench.Probe{Counters: counters, Devices: devices, RSS: rss[v]}
	}
	idx := map[string]int{}
	record := func(v bench.Variant, k bench.Kind, resources int, s bench.Sample) {
		key := fmt.Sprint(v, k, resources)
		i, ok := idx[key]
		if !ok {
			i = len(res.Measurements)
			idx[key] = i
			res.Measurements = append(res.Measurements, bench.Measurement{Variant: v, Kind: k, Resources: resources})
		}
		res.Measurements[i].Samples = append(res.Measurements[i].Samples, s)
	}

	// Apply from empty: (a) first, while the lab's switches hold nothing of the fabric; (d) and
	// (c) write nowhere. The first run of each is the setup of the plans below.
	states := map[bench.Variant][]byte{}
	applyDirs := map[bench.Variant]string{}
	for _, v := range writeVariants {
		applyDirs[v] = filepath.Join(work, "apply-"+string(v))
		s, st, err := applyFull(ctx, cli[v], applyDirs[v], full, v, inventory, probe(v, full.Devices()))
		if err != nil {
			return err
		}
		record(v, bench.Apply, full.Resources(), s)
		states[v] = st
	}
	states[bench.PerResource] = states[bench.Defaults] // same resources, only the provider setting differs

	var spaces []workspace
	seen := map[int]bool{}
	for _, fr := range fractions {
		f := full.Subset(fr[0], fr[1])
		if seen[f.Resources()] {
			continue
		}
		seen[f.Resources()] = true
		for _, v := range bench.Variants {
			ws, err := prepare(filepath.Join(work, fmt.Sprintf("%s-%d", v, f.Resources())), f, v, inventory, states[v])
			if err != nil {
				return err
			}
			spaces = append(spaces, ws)
		}
	}

	report := func(rep int, ws workspace, k bench.Kind, s bench.Sample) {
		status := "ok"
		if s.Err != "" {
			status = "ERROR " + s.Err
		}
		progress("run %d/%d %4d resources %-26s %-15s %8s  CPU %8s  RSS %s  %s", rep, o.reps, ws.fabric.Resources(),
			ws.variant.Label(), k, bench.Seconds(s.Wall), bench.Seconds(s.CPU), bench.MB(s.PeakRSSKB), status)
	}

	for rep := 1; rep <= o.reps; rep++ {
		for _, ws := range spaces {
			if err := ctx.Err(); err != nil {
				return err
			}
			s, _ := cli[ws.variant].Measure(ctx, fmt.Sprintf("plan-%s-%d-nochange-%d", ws.variant, ws.fabric.Resources(), rep), ws.dir, 0,
				probe(ws.variant, ws.fabric.Devices()), tf.PlanArgs()...)
			record(ws.variant, bench.NoChange, ws.fabric.Resources(), s)
			report(rep, ws, bench.NoChange, s)
		}
	}

	ports := bench.DriftPorts(full.Ports())
	res.DriftPorts = len(ports)
	progress("out of band: PFC_WD detection_time %d ms on %d ports (%v ...) with our own gNMI client", bench.DriftDetectionMS, len(ports), ports[0])
	if err := drift(ctx, inv, ports, bench.DriftDetectionMS); err != nil {
		return fmt.Errorf("drift: %w", err)
	}
	for rep := 1; rep <= o.reps; rep++ {
		for _, ws := range spaces {
			if ws.variant == bench.Floor || ws.variant == bench.Noop || ws.fabric.Resources() != full.Resources() {
				continue
			}
			s, out := tf.Measure(ctx, fmt.Sprintf("plan-%s-%d-drift-%d", ws.variant, ws.fabric.Resources(), rep), ws.dir, 2,
				probe(ws.variant, ws.fabric.Devices()), tf.PlanArgs()...)
			if _, change, _, ok := bench.PlanChanges(out); s.Err == "" && (!ok || change != len(ports)) {
				s.Err = fmt.Sprintf("the plan changes %d resources, want the %d drifted ports", change, len(ports))
			}
			record(ws.variant, bench.Drift, ws.fabric.Resources(), s)
			report(rep, ws, bench.Drift, s)
		}
	}

	// Destroy and apply again, alternating, so each has o.reps runs (the first apply was above).
	for rep := 1; rep <= o.reps; rep++ {
		for _, v := range writeVariants {
			if err := ctx.Err(); err != nil {
				return err
			}
			s, _ := cli[v].Measure(ctx, fmt.Sprintf("destroy-%s-%d", v, rep), applyDirs[v], 0, probe(v, full.Devices()), cli[v].DestroyArgs()...)
			record(v, bench.Destroy, full.Resources(), s)
			progress("run %d/%d %4d resources %-26s %-15s %8s  CPU %8s  RSS %s  %s", rep, o.reps, full.Resources(), v.Label(), bench.Destroy,
				bench.Seconds(s.Wall), bench.Seconds(s.CPU), bench.MB(s.PeakRSSKB), okOr(s.Err))
			if s.Err != "" || rep == o.reps {
				continue
			}
			s, _, err := applyFull(ctx, cli[v], applyDirs[v], full, v, inventory, probe(v, full.Devices()))
			if err != nil {
				return err
			}
			record(v, bench.Apply, full.Resources(), s)
		}
	}
	return nil
}

// writeVariants are the variants whose apply and destroy are measured: roce (a) and its two
// floors.
var writeVariants = []bench.Variant{bench.Defaults, bench.Noop, bench.Floor}

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
