package devices

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func snapRegistry(perResource bool) *Registry {
	return NewRegistry(map[string]Device{
		"leaf-1": {Name: "leaf-1", Platform: "sonic", PerResourceReads: perResource},
		"leaf-2": {Name: "leaf-2", Platform: "sonic"},
	}, nil)
}

// waitCounter is a reader's context that reports each time Snapshot starts waiting on it: a
// reader that waits on another's fetch selects on Done.
type waitCounter struct {
	context.Context
	waiting chan struct{}
}

func (c waitCounter) Done() <-chan struct{} {
	c.waiting <- struct{}{}
	return c.Context.Done()
}

// TestSnapshotOneFetchForConcurrentReaders: Terraform refreshes resources in parallel; all of
// them on one device share one fetch. The fetch is held until the 19 other readers are waiting
// on it, so the readers really are concurrent.
func TestSnapshotOneFetchForConcurrentReaders(t *testing.T) {
	r := snapRegistry(false)
	var fetches atomic.Int32
	release := make(chan struct{})
	fetch := func(context.Context) (string, error) {
		fetches.Add(1)
		<-release
		return "db", nil
	}
	ctx := waitCounter{Context: context.Background(), waiting: make(chan struct{}, 64)}
	var wg sync.WaitGroup
	got := make([]string, 20)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := Snapshot(ctx, r, "leaf-1", "db", fetch)
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		}()
	}
	timeout := time.After(10 * time.Second)
	for waiting := 0; waiting < len(got)-1; waiting++ {
		select {
		case <-ctx.waiting:
		case <-timeout:
			close(release)
			t.Fatalf("%d of 19 readers waited on the one fetch (%d fetches started)", waiting, fetches.Load())
		}
	}
	close(release)
	wg.Wait()
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d fetches for 20 concurrent readers of one device, want 1", n)
	}
	for _, v := range got {
		if v != "db" {
			t.Fatalf("a reader got %q", v)
		}
	}
	if _, err := Snapshot(context.Background(), r, "leaf-1", "db", fetch); err != nil || fetches.Load() != 1 {
		t.Errorf("a later reader fetched again (%d fetches, %v)", fetches.Load(), err)
	}
	if _, err := Snapshot(context.Background(), r, "leaf-2", "db", fetch); err != nil || fetches.Load() != 2 {
		t.Errorf("another device must have its own snapshot (%d fetches, %v)", fetches.Load(), err)
	}
}

func TestSnapshotInvalidateAndErrors(t *testing.T) {
	r := snapRegistry(false)
	n := 0
	fetch := func(context.Context) (int, error) {
		n++
		if n == 1 {
			return 0, errors.New("unavailable")
		}
		return n, nil
	}
	if _, err := Snapshot(context.Background(), r, "leaf-1", "db", fetch); err == nil {
		t.Fatal("the fetch's error must reach the reader")
	}
	if v, err := Snapshot(context.Background(), r, "leaf-1", "db", fetch); err != nil || v != 2 {
		t.Fatalf("an error must not be kept: got %d, %v", v, err)
	}
	if v, _ := Snapshot(context.Background(), r, "leaf-1", "db", fetch); v != 2 {
		t.Fatalf("snapshot not reused: %d", v)
	}
	r.Invalidate("leaf-1")
	if v, _ := Snapshot(context.Background(), r, "leaf-1", "db", fetch); v != 3 {
		t.Fatalf("a write must drop the snapshot: got %d, want a fresh read (3)", v)
	}
	r.Invalidate("leaf-") // a prefix of the name is another device
	if v, _ := Snapshot(context.Background(), r, "leaf-1", "db", fetch); v != 3 {
		t.Fatalf("invalidating leaf- dropped leaf-1's snapshot: %d", v)
	}
}

// writeDuringFetch starts a read of leaf-1's "db" snapshot whose fetch blocks until write has
// run; it returns what that read got and the fetch, which counts its calls from 1.
func writeDuringFetch(r *Registry, write func()) (int32, func(context.Context) (int32, error)) {
	started, release := make(chan struct{}), make(chan struct{})
	var n atomic.Int32
	fetch := func(context.Context) (int32, error) {
		v := n.Add(1)
		if v == 1 {
			close(started)
			<-release
		}
		return v, nil
	}
	done := make(chan int32)
	go func() {
		v, _ := Snapshot(context.Background(), r, "leaf-1", "db", fetch)
		done <- v
	}()
	<-started
	write()
	close(release)
	return <-done, fetch
}

// TestSnapshotWriteDuringFetch: a read that started before a write is not served to readers
// that come after the write.
func TestSnapshotWriteDuringFetch(t *testing.T) {
	r := snapRegistry(false)
	first, fetch := writeDuringFetch(r, func() { r.Invalidate("leaf-1") })
	if v := first; v != 1 {
		t.Fatalf("the reader that started the fetch gets it: %d", v)
	}
	if v, _ := Snapshot(context.Background(), r, "leaf-1", "db", fetch); v != 2 {
		t.Errorf("a read after the write got the value fetched before it (%d)", v)
	}
}

func TestSnapshotPerResourceReads(t *testing.T) {
	r := snapRegistry(true)
	n := 0
	fetch := func(context.Context) (int, error) { n++; return n, nil }
	for range 3 {
		if _, err := Snapshot(context.Background(), r, "leaf-1", "db", fetch); err != nil {
			t.Fatal(err)
		}
	}
	if n != 3 {
		t.Errorf("per_resource_reads: %d fetches for 3 reads, want 3", n)
	}
}

// TestSnapshotCancelledReader: a reader whose context ends stops waiting; the fetch goes on
// for the others.
func TestSnapshotCancelledReader(t *testing.T) {
	r := snapRegistry(false)
	started, release := make(chan struct{}), make(chan struct{})
	fetch := func(ctx context.Context) (string, error) {
		close(started)
		<-release
		return "db", ctx.Err()
	}
	first := make(chan error)
	go func() {
		_, err := Snapshot(context.Background(), r, "leaf-1", "db", fetch)
		first <- err
	}()
	<-started // the second reader must find the fetch in flight
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Snapshot(ctx, r, "leaf-1", "db", fetch); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled reader: %v", err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Errorf("the fetch must not see another reader's cancellation: %v", err)
	}
}

// TestSnapshotReplace: a write whose result the writer knows leaves that result as the
// snapshot (no fetch for the next reader), drops the device's other kinds, and keeps nothing
// when the snapshot was no longer the read the write was built on.
func TestSnapshotReplace(t *testing.T) {
	r := snapRegistry(false)
	n := 0
	fetch := func(context.Context) (*int, error) { n++; v := n * 10; return &v, nil }
	base, err := Snapshot(context.Background(), r, "leaf-1", "db", fetch)
	if err != nil {
		t.Fatal(err)
	}
	lldp := 0
	fetchLLDP := func(context.Context) (int, error) { lldp++; return lldp, nil }
	if _, err := Snapshot(context.Background(), r, "leaf-1", "lldp", fetchLLDP); err != nil {
		t.Fatal(err)
	}
	next := 11
	Replace(r, "leaf-1", "db", base, &next)
	if v, _ := Snapshot(context.Background(), r, "leaf-1", "db", fetch); v != &next || n != 1 {
		t.Fatalf("after Replace a reader got %v with %d fetches, want the written value without a fetch", *v, n)
	}
	if v, _ := Snapshot(context.Background(), r, "leaf-1", "lldp", fetchLLDP); v != 2 {
		t.Errorf("the device's other snapshot survived the write: %d fetches, want 2", v)
	}

	// Built on a read that is no longer the snapshot (base, replaced by next above): the result
	// is not kept.
	stale := 12
	Replace(r, "leaf-1", "db", base, &stale)
	if v, _ := Snapshot(context.Background(), r, "leaf-1", "db", fetch); *v != 20 || n != 2 {
		t.Errorf("a write built on a stale read kept its result (%d, %d fetches); want a fresh read", *v, n)
	}
	// Dropped by another write: nothing to replace.
	cur, _ := Snapshot(context.Background(), r, "leaf-1", "db", fetch)
	r.Invalidate("leaf-1")
	Replace(r, "leaf-1", "db", cur, &stale)
	if v, _ := Snapshot(context.Background(), r, "leaf-1", "db", fetch); *v != 30 {
		t.Errorf("Replace after Invalidate kept %d; want a fresh read", *v)
	}

	// per_resource_reads: every read fetches, before and after.
	pr := snapRegistry(true)
	m := 0
	fetchPR := func(context.Context) (*int, error) { m++; v := m; return &v, nil }
	b, _ := Snapshot(context.Background(), pr, "leaf-1", "db", fetchPR)
	Replace(pr, "leaf-1", "db", b, &next)
	if v, _ := Snapshot(context.Background(), pr, "leaf-1", "db", fetchPR); v == &next || m != 2 {
		t.Errorf("per_resource_reads: the read after a write was served from the write (%d fetches)", m)
	}
}

// TestSnapshotReplaceDuringFetch: a fetch in flight when the write lands is not the read the
// write was built on: nothing is kept, and the fetch is not served to later readers.
func TestSnapshotReplaceDuringFetch(t *testing.T) {
	r := snapRegistry(false)
	_, fetch := writeDuringFetch(r, func() { Replace(r, "leaf-1", "db", 1, 100) })
	if v, _ := Snapshot(context.Background(), r, "leaf-1", "db", fetch); v != 2 {
		t.Errorf("a read after the write got %d, want a fresh fetch (2)", v)
	}
}
