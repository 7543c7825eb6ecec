//go:build roceprofile

package profiling

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"
)

// heapEvery is how often the in-use heap is sampled for a new peak.
const heapEvery = 200 * time.Millisecond

func start() func() {
	dir := os.Getenv("ROCE_PPROF_DIR")
	if dir == "" {
		return func() {}
	}
	pid := os.Getpid()
	cpu, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", pid)))
	if err != nil {
		log.Printf("profiling: %v", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		log.Printf("profiling: %v", err)
	}
	done := make(chan struct{})
	go peakHeap(filepath.Join(dir, fmt.Sprintf("heap-%d.pprof", pid)), done)
	return func() {
		close(done)
		pprof.StopCPUProfile()
		_ = cpu.Close()
	}
}

// peakHeap rewrites the heap profile whenever the in-use heap reaches a new peak.
func peakHeap(path string, done <-chan struct{}) {
	var peak uint64
	t := time.NewTicker(heapEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse <= peak {
			continue
		}
		peak = ms.HeapInuse
		f, err := os.Create(path)
		if err != nil {
			continue
		}
		_ = pprof.Lookup("heap").WriteTo(f, 0)
		_ = f.Close()
	}
}
