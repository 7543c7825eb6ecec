package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/bench"
	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// probeParallelism is how many devices the lab-only probe connects to at once (Terraform's
// default -parallelism is 10; a provider process reading every device at plan start opens
// its connections about this wide).
const probeParallelism = 32

// runLabOnly is -lab-only: what the lab of a size costs, without Terraform. It starts the lab,
// then holds one connection with one request to every device, as a provider process does
// during a plan, and reports the time, memory and open files of each step.
func runLabOnly(ctx context.Context, o options) error {
	out, err := filepath.Abs(o.out)
	if err != nil {
		return err
	}
	labDir := filepath.Join(out, "lab")
	if err := os.RemoveAll(labDir); err != nil {
		return err
	}
	l, cost, fds, err := startLab(ctx, o, labDir)
	if err != nil {
		return err
	}
	defer fds.stop()
	defer l.Stop()

	raw, err := os.ReadFile(filepath.Join(labDir, lab.InventoryFile)) //nolint:gosec // the lab's own file
	if err != nil {
		return err
	}
	inv, err := bench.ParseInventory(raw)
	if err != nil {
		return err
	}
	names := bench.NaturalSort(slices.Collect(func(yield func(string) bool) {
		for n := range inv.Devices {
			if !yield(n) {
				return
			}
		}
	}))
	var (
		mu    sync.Mutex
		open  []io.Closer
		errs  []error
		slots = make(chan struct{}, probeParallelism)
		wg    sync.WaitGroup
	)
	began := time.Now()
	for _, name := range names {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			c, err := bench.OpenDevice(ctx, inv.Devices[name])
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
				return
			}
			open = append(open, c)
		})
	}
	wg.Wait()
	took := time.Since(began)
	held, heldRSS, goroutines := openFDs(), selfStatusKB("VmRSS"), runtime.NumGoroutine()
	for _, c := range open {
		_ = c.Close()
	}
	cost.PeakRSSKB, cost.PeakFDs = selfStatusKB("VmHWM"), fds.stop()
	fmt.Println()
	fmt.Printf("BENCH_SIZE=%s, lab only (no Terraform), latency %s.\n", o.size.Name, o.latency)
	fmt.Print(bench.FormatLabCost(cost))
	fmt.Printf("One connection and one request to each of the %d devices (%d at a time, our own gNMI and SSH clients in the same process, "+
		"so each connection is two open files here): %d answered in %s; with all of them open RSS %s, %d open files, %d goroutines.\n",
		len(names), probeParallelism, len(open), bench.Seconds(took), bench.MB(heldRSS), held, goroutines)
	return errors.Join(errs...)
}

// startLab starts the bench's lab in labDir, keeping its logs there, with the open-file limit
// the size needs, and reports what starting it cost; the caller stops the lab and fds.
func startLab(ctx context.Context, o options, labDir string) (*lab.Lab, bench.LabCost, *fdSampler, error) {
	if err := os.MkdirAll(labDir, 0o750); err != nil {
		return nil, bench.LabCost{}, nil, err
	}
	lab.KeepLogsIn(labDir)
	nofile, err := raiseNoFile(o.size.Devices())
	if err != nil {
		return nil, bench.LabCost{}, nil, err
	}
	fds := startFDSampler(100 * time.Millisecond)
	progress("starting the lab: %d sonic switches x %d ports, %d mlx5 hosts x %d NICs, latency %s",
		o.size.Switches, o.size.Ports, o.size.Hosts, o.size.NICs, o.latency)
	began := time.Now()
	l, err := lab.Start(ctx, lab.Options{
		Dir:      labDir,
		Switches: map[string]int{bench.SwitchPlatform: o.size.Switches},
		Hosts:    map[string]int{bench.HostPlatform: o.size.Hosts},
		Ports:    o.size.Ports,
		NICPorts: o.size.NICs,
		Latency:  o.latency,
	})
	if err != nil {
		fds.stop()
		return nil, bench.LabCost{}, nil, fmt.Errorf("lab: %w", err)
	}
	cost := bench.LabCost{Devices: len(l.Devices()), Start: time.Since(began), RSSKB: selfStatusKB("VmRSS"),
		FDs: openFDs(), Goroutines: runtime.NumGoroutine(), NoFile: nofile}
	progress("lab: %d devices in %s, RSS %s, %d open files, %d goroutines", cost.Devices, bench.Seconds(cost.Start),
		bench.MB(cost.RSSKB), cost.FDs, cost.Goroutines)
	return l, cost, fds, nil
}
