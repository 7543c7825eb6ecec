package devices

import (
	"context"
	"fmt"
	"sync"
)

// snapshots holds, per device and kind of read, the one read a provider process makes of a
// device for its refreshes: the first reader fetches, concurrent readers wait for that fetch,
// later readers get its result. A write to the device drops the device's snapshots, so the
// next read fetches again, unless the writer knows what its write left (Replace): then that
// kind's snapshot is the one the write was built on with the write applied.
//
// A snapshot lives as long as the provider process, which Terraform starts per plan or apply:
// a refresh sees the device as it was at the first read of that run, the way Terraform's own
// state snapshot works.
type snapshots struct {
	mu      sync.Mutex
	entries map[string]*snapshot // by device + "\x00" + kind
	gen     map[string]uint64    // per device, bumped by Invalidate
}

type snapshot struct {
	done chan struct{}
	val  any
	err  error
}

// Snapshot returns device's read of the given kind: from this process's snapshot when there is
// one, else fetched once (concurrent callers share the fetch). Errors are not kept: the next
// caller fetches again. With per_resource_reads on the device, every call fetches.
//
// The value is shared by every caller and must be treated as read-only.
func Snapshot[T any](ctx context.Context, r *Registry, device, kind string, fetch func(context.Context) (T, error)) (T, error) {
	if d, ok := r.devices[device]; ok && d.PerResourceReads {
		return fetch(ctx)
	}
	s := &r.snaps
	key := device + "\x00" + kind
	s.mu.Lock()
	if s.entries == nil {
		s.entries, s.gen = map[string]*snapshot{}, map[string]uint64{}
	}
	e, ok := s.entries[key]
	if !ok {
		e = &snapshot{done: make(chan struct{})}
		s.entries[key] = e
		gen := s.gen[device]
		s.mu.Unlock()
		// The fetch serves every waiter: one caller's cancellation must not fail the others.
		e.val, e.err = fetch(context.WithoutCancel(ctx))
		s.mu.Lock()
		if e.err != nil || s.gen[device] != gen {
			// Failed, or a write happened while fetching: do not serve it to later readers.
			if s.entries[key] == e {
				delete(s.entries, key)
			}
		}
		close(e.done)
	}
	s.mu.Unlock()
	select {
	case <-e.done:
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
	if e.err != nil {
		var zero T
		return zero, e.err
	}
	v, ok := e.val.(T)
	if !ok {
		var zero T
		return zero, fmt.Errorf("device %q: snapshot %q holds %T, not %T", device, kind, e.val, zero)
	}
	return v, nil
}

// Invalidate drops every snapshot of device: call it after writing to the device (whether the
// write succeeded or not: a failed write may have changed something).
func (r *Registry) Invalidate(device string) {
	s := &r.snaps
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropLocked(device)
}

// dropLocked drops device's snapshots and makes fetches in flight unservable; s.mu is held.
func (s *snapshots) dropLocked(device string) {
	if s.gen == nil {
		return
	}
	s.gen[device]++
	for key := range s.entries {
		if len(key) > len(device) && key[:len(device)] == device && key[len(device)] == 0 {
			delete(s.entries, key)
		}
	}
}

// Replace records a write to device whose result the writer knows for one kind of read: base
// is the snapshot the write was built on and next that read as the device holds it after the
// write (SONiC: CONFIG_DB with the accepted SetRequest applied). Like Invalidate it drops every
// snapshot of device, then keeps next as kind's snapshot, which later readers get without a
// fetch, but only while the snapshot was still base: when it was dropped, is being fetched
// again or holds another read (not the one the write was built on), next is not kept and the
// next reader fetches. With per_resource_reads on the device nothing is kept.
//
// The writer must hold the device's write turn (Exclusive) from the read of base to Replace,
// so no other write of this process lands in between; next, like every snapshot, is shared
// and read-only.
func Replace[T comparable](r *Registry, device, kind string, base, next T) {
	s := &r.snaps
	key := device + "\x00" + kind
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[key]
	current := false
	if ok {
		select {
		case <-e.done:
			v, isT := e.val.(T)
			current = e.err == nil && isT && v == base
		default: // a fetch in flight: not the read the write was built on
		}
	}
	s.dropLocked(device)
	if !current {
		return // with per_resource_reads there is never a snapshot to replace
	}
	done := make(chan struct{})
	close(done)
	s.entries[key] = &snapshot{done: done, val: next}
}
