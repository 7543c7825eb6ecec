package devices

import (
	"context"
	"errors"
	"maps"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/devices/devicestest"
)

// kvDevice is a device holding key=value pairs, written by requests of pairs; a Set can be
// held in flight.
type kvDevice struct {
	mu   sync.Mutex
	data map[string]string
	sent []map[string]string
	gets int
	devicestest.Gate
}

type kvSnap struct{ m map[string]string }

func (d *kvDevice) writer() Writer[*kvSnap, map[string]string] {
	return Writer[*kvSnap, map[string]string]{
		Kind: "kv",
		Fetch: func(context.Context) (*kvSnap, error) {
			d.mu.Lock()
			defer d.mu.Unlock()
			d.gets++
			return &kvSnap{maps.Clone(d.data)}, nil
		},
		After: func(s *kvSnap, r map[string]string) (*kvSnap, error) {
			next := maps.Clone(s.m)
			maps.Copy(next, r)
			return &kvSnap{next}, nil
		},
		Overlap: func(a, b map[string]string) bool {
			for k := range a {
				if _, ok := b[k]; ok {
					return true
				}
			}
			return false
		},
		Combine: func(reqs []map[string]string) map[string]string {
			out := map[string]string{}
			for _, r := range reqs {
				maps.Copy(out, r)
			}
			return out
		},
		Empty: func(r map[string]string) bool { return len(r) == 0 },
		Send: func(_ context.Context, r map[string]string) error {
			d.Pass()
			d.mu.Lock()
			defer d.mu.Unlock()
			d.sent = append(d.sent, r)
			maps.Copy(d.data, r)
			return nil
		},
		Refused: func(error) bool { return true },
	}
}

func waitQueued(t *testing.T, r *Registry, device string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for r.QueuedWrites(device) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes never queued", n)
		}
		runtime.Gosched()
	}
}

// A write still queued behind the request in flight gives up with its context, is never built
// or sent, and the writes beside it go on; an answered request counts as one write however
// many writes it carries.
func TestWriteQueuedGivesUp(t *testing.T) {
	r := snapRegistry(false)
	d := &kvDevice{data: map[string]string{}}
	w := d.writer()
	write := func(ctx context.Context, k string) <-chan error {
		ch := make(chan error, 1)
		go func() {
			ch <- Write(ctx, r, "leaf-1", w, func(*kvSnap) (map[string]string, error) { return map[string]string{k: "1"}, nil })
		}()
		return ch
	}
	release := d.HoldNext()
	first := write(context.Background(), "a")
	<-d.Entered()
	ctx, cancel := context.WithCancel(context.Background())
	gone := write(ctx, "b")
	waitQueued(t, r, "leaf-1", 1)
	kept := write(context.Background(), "c")
	waitQueued(t, r, "leaf-1", 2)
	cancel()
	if err := <-gone; !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "waiting for another write to the device to finish") {
		t.Errorf("the write given up while queued: %v", err)
	}
	release()
	for _, ch := range []<-chan error{first, kept} {
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := d.data["b"]; ok {
		t.Error("the write given up was applied")
	}
	if len(d.sent) != 2 || r.Writes("leaf-1") != 2 {
		t.Errorf("%d requests sent, %d writes counted, want 2 and 2", len(d.sent), r.Writes("leaf-1"))
	}
}

// With per_resource_reads each write goes alone on its own read, even when several queue.
func TestWritePerResourceReadsAlone(t *testing.T) {
	r := snapRegistry(true)
	d := &kvDevice{data: map[string]string{}}
	w := d.writer()
	release := d.HoldNext()
	var errs []chan error
	for i, k := range []string{"a", "b", "c"} {
		ch := make(chan error, 1)
		errs = append(errs, ch)
		go func() {
			ch <- Write(context.Background(), r, "leaf-1", w, func(*kvSnap) (map[string]string, error) { return map[string]string{k: "1"}, nil })
		}()
		if i == 0 {
			<-d.Entered()
		} else {
			waitQueued(t, r, "leaf-1", i)
		}
	}
	release()
	for _, ch := range errs {
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	if len(d.sent) != 3 || d.gets != 3 {
		t.Errorf("%d requests and %d reads for 3 writes with per_resource_reads, want 3 and 3", len(d.sent), d.gets)
	}
}

// A write's caller that has its result finds it counted in Writes (the bench's and AwaitWrite's
// count), write after write.
func TestWriteCountedWhenItReturns(t *testing.T) {
	r := snapRegistry(false)
	d := &kvDevice{data: map[string]string{}}
	w := d.writer()
	for i := range 500 {
		k := strconv.Itoa(i)
		if err := Write(context.Background(), r, "leaf-1", w, func(*kvSnap) (map[string]string, error) { return map[string]string{k: "1"}, nil }); err != nil {
			t.Fatal(err)
		}
		select {
		case <-d.Entered():
		default:
		}
		if got := r.Writes("leaf-1"); got != uint64(i+1) {
			t.Fatalf("after write %d returned, Writes = %d, want %d", i+1, got, i+1)
		}
	}
}
