package memlimit

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestNext(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ limit, live, want int64 }{
		{128 * mib, 40 * mib, 128 * mib},  // a default-size plan: the limit holds
		{128 * mib, 102 * mib, 128 * mib}, // just under 80 %
		{128 * mib, 103 * mib, 167 * mib}, // at 80 %: the live heap and half the limit (more than half of it)
		{128 * mib, 200 * mib, 300 * mib}, // live heap above the limit (xl): and half of it
	} {
		if got := Next(c.limit, c.live); got != c.want {
			t.Errorf("Next(%d MiB, %d MiB) = %d MiB, want %d MiB", c.limit/mib, c.live/mib, got/mib, c.want/mib)
		}
	}
}

// follow runs Follow from limit for the test, the limit after each collection it looks at
// sent on the channel; the process's limit is put back after the test.
func follow(t *testing.T, limit int64) <-chan int64 {
	t.Helper()
	old := debug.SetMemoryLimit(-1)
	limits := make(chan int64, 1024)
	stop := Follow(limit, func(l int64) {
		select {
		case limits <- l:
		default: // a test that stopped reading
		}
	})
	t.Cleanup(func() {
		stop()
		debug.SetMemoryLimit(old)
	})
	return limits
}

// A live heap larger than the limit raises it after a collection, as a plan of a large fabric
// would, instead of leaving the collector to run back to back: to where the 16 MiB held is
// below 80 % of it (20 MiB).
func TestFollowRaisesTheLimitAboveTheLiveHeap(t *testing.T) {
	limits := follow(t, 4<<20)
	live := make([][]byte, 0, 64)
	for range 64 {
		live = append(live, make([]byte, 256<<10)) // 16 MiB held
	}
	deadline := time.After(30 * time.Second)
	for {
		runtime.GC()
		select {
		case l := <-limits:
			if l < 20<<20 {
				continue // a collection while the heap was still growing
			}
			// The limit only grows, and another collection may raise it again before this
			// reads it (CI saw 27.5 MB against a reported 21.1 MB): it must be a limit Follow
			// reports, this one or one it reports next.
			got := debug.SetMemoryLimit(-1)
			for got != l {
				select {
				case l = <-limits:
				case <-time.After(5 * time.Second):
					t.Fatalf("the runtime's limit is %d, which Follow did not report (last %d)", got, l)
				}
			}
			runtime.KeepAlive(live)
			return
		case <-deadline:
			t.Fatal("the limit was not raised to 20 MiB or more within 30 s, with 16 MiB held under a 4 MiB limit")
		}
	}
}

func TestFollowKeepsTheLimitOverASmallHeap(t *testing.T) {
	limits := follow(t, 1<<40)
	runtime.GC()
	select {
	case l := <-limits:
		if l != 1<<40 {
			t.Errorf("limit %d after a collection of a small heap, want %d", l, int64(1<<40))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no collection seen within 30 s")
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("the runtime's limit is %d, want %d", got, int64(1<<40))
	}
}
