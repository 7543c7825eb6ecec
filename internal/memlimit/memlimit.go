// Package memlimit keeps the provider's soft heap limit from turning into back-to-back garbage
// collections.
//
// Why: the provider sets a soft limit (main.go) so that a plan's per-request garbage is
// collected before the process's RSS grows with the fabric. Go's collector, once the live heap
// itself nears a soft limit, collects again and again, up to half the CPU (its limiter), and
// returns memory to the OS after each collection. Profiled at BENCH_SIZE=xl (576 devices, map
// resources of 64 ports and 8 NICs), the plan's provider process had a live heap above 128 MiB
// and spent over half its CPU in the collector and in madvise; its no-change plan took twice
// the CPU of the no-op framework provider's (DESIGN.md, Performance). Here the limit follows the
// live heap instead: after each collection whose live heap reached 80 % of the limit, the limit
// becomes that live heap plus half of it (GOGC=50's room), or plus half the limit if that is
// more. Below 80 % the limit is left as set, so a small or medium fabric keeps its low RSS.
// Half rather than all of the live heap (Go's default GOGC=100) keeps a fabric of 1,568
// resources under 200 MB: with twice the live heap its drift plan peaked at 205 MB, with this
// rule at 192 MB, while at xl the collector still has room (DESIGN.md, Performance).
package memlimit

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

const liveHeap = "/gc/heap/live:bytes"

// Next is the soft limit to set after a collection that left live bytes of heap under limit:
// limit itself while live is below 80 % of it, else live plus the larger of half live and half
// limit.
func Next(limit, live int64) int64 {
	if live*5 < limit*4 {
		return limit
	}
	return live + max(live/2, limit/2)
}

// Follow sets the soft limit to limit and then raises it after each collection as Next says,
// never lowering it. after, when not nil, is told the limit after each collection it looked
// at. The returned func stops it.
func Follow(limit int64, after func(limit int64)) (stop func()) {
	debug.SetMemoryLimit(limit)
	f := &follower{limit: limit, after: after}
	f.arm()
	return func() {
		f.mu.Lock()
		f.stopped = true
		f.mu.Unlock()
	}
}

type follower struct {
	mu      sync.Mutex
	limit   int64
	after   func(int64)
	stopped bool
	sample  [1]metrics.Sample
}

// arm makes afterGC run once the next collection has found a fresh object unreachable: a
// cleanup per collection cycle, re-armed each time.
func (f *follower) arm() {
	sentinel := new([64]byte) // large enough to have its own allocation
	runtime.AddCleanup(sentinel, func(f *follower) { f.afterGC() }, f)
}

func (f *follower) afterGC() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	f.sample[0].Name = liveHeap
	metrics.Read(f.sample[:])
	if f.sample[0].Value.Kind() == metrics.KindUint64 {
		live := int64(f.sample[0].Value.Uint64()) //nolint:gosec // a heap size fits in int64
		if next := Next(f.limit, live); next > f.limit {
			f.limit = next
			debug.SetMemoryLimit(next)
		}
	}
	if f.after != nil {
		f.after(f.limit)
	}
	f.arm()
}
