package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/rocefabric/terraform-provider-roce/internal/bench"
	roce "github.com/rocefabric/terraform-provider-roce/internal/provider"
)

// missingTypes says which variants the provider built from this tree cannot run: the
// map-keyed ones until it has the map-keyed resource types. The no-op provider serves the
// provider's own resource types (internal/bench/noop), so (f) has them exactly when (e) does.
func missingTypes(ctx context.Context, variants []bench.Variant) map[bench.Variant]string {
	p := roce.New("bench")()
	var meta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &meta)
	var served []string
	for _, f := range p.Resources(ctx) {
		var rm resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &rm)
		served = append(served, rm.TypeName)
	}
	return bench.Unservable(variants, served)
}

// raiseNoFile makes sure the bench may open the descriptors a lab of that many devices needs
// (bench.NoFileLimit); it returns the soft limit it runs with.
func raiseNoFile(devices int) (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("getrlimit RLIMIT_NOFILE: %w", err)
	}
	cur, err := bench.NoFileLimit(lim.Cur, lim.Max, devices)
	if err != nil {
		return lim.Cur, err
	}
	if cur != lim.Cur {
		lim.Cur = cur
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			return 0, fmt.Errorf("setrlimit RLIMIT_NOFILE %d: %w", cur, err)
		}
		progress("RLIMIT_NOFILE raised to %d for %d devices", cur, devices)
	}
	return cur, nil
}

// openFDs counts the bench process's open descriptors (0 without /proc).
func openFDs() int {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0
	}
	return len(fds)
}

// selfStatusKB is a kB field of /proc/self/status (0 without /proc).
func selfStatusKB(field string) int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	kb, _ := bench.ParseStatusKB(string(raw), field)
	return kb
}

// fdSampler records the most descriptors the bench process had open: the lab's listeners
// and the connections Terraform's provider processes hold to it.
type fdSampler struct {
	once sync.Once
	done chan struct{}
	peak chan int
}

func startFDSampler(every time.Duration) *fdSampler {
	s := &fdSampler{done: make(chan struct{}), peak: make(chan int, 1)}
	go func() {
		peak := openFDs()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-s.done:
				s.peak <- max(peak, openFDs())
				return
			case <-t.C:
				peak = max(peak, openFDs())
			}
		}
	}()
	return s
}

// stop ends the sampling and returns the peak; later calls return 0.
func (s *fdSampler) stop() int {
	peak := 0
	s.once.Do(func() {
		close(s.done)
		peak = <-s.peak
	})
	return peak
}
