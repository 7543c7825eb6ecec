package devices

import (
	"context"
	"fmt"
	"time"
)

// writeTurn is one device's write turn and what waiters watch: gen counts finished writes,
// active the writes holding or waiting for the turn, and changed is closed (and replaced) on
// every change of either.
type writeTurn struct {
	turn    chan struct{}
	gen     uint64
	active  int
	changed chan struct{}
}

// turnOf returns device's turn, making it on first use; r.mu must be held.
func (r *Registry) turnOf(device string) *writeTurn {
	if r.turns == nil {
		r.turns = map[string]*writeTurn{}
	}
	w, ok := r.turns[device]
	if !ok {
		w = &writeTurn{turn: make(chan struct{}, 1), changed: make(chan struct{})}
		r.turns[device] = w
	}
	return w
}

// signal wakes AwaitWrite; r.mu must be held.
func (w *writeTurn) signal() {
	close(w.changed)
	w.changed = make(chan struct{})
}

// Exclusive holds device's write turn until the returned release is called: one
// read-modify-write at a time per device within the provider process. Terraform runs
// resources concurrently, and a write is built from what the device holds (a SONiC SetRequest
// from CONFIG_DB, an EOS or NX-OS session from the running configuration): two resources on
// one switch that read before either writes would each undo part of the other's change (a
// policy's new no-drop priorities and a PFC interface's watchdog on the old ones). Waiting
// ends with ctx (the resource's timeout). release(wrote) says whether the write may have
// changed the device (false: it was refused before sending anything), which is what
// AwaitWrite waits for.
func (r *Registry) Exclusive(ctx context.Context, device string) (release func(wrote bool), err error) {
	r.mu.Lock()
	w := r.turnOf(device)
	w.active++
	w.signal()
	r.mu.Unlock()
	select {
	case w.turn <- struct{}{}:
		return func(wrote bool) {
			r.mu.Lock()
			w.active--
			if wrote {
				w.gen++
			}
			w.signal()
			r.mu.Unlock()
			<-w.turn
		}, nil
	case <-ctx.Done():
		r.mu.Lock()
		w.active--
		w.signal()
		r.mu.Unlock()
		return nil, fmt.Errorf("device %q: waiting for another write to the device to finish: %w", device, ctx.Err())
	}
}

// Writes is how many writes to device have finished in this process, not counting those
// refused before sending anything.
func (r *Registry) Writes(device string) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.turnOf(device).gen
}

// AwaitWrite waits for a write to device to finish after the first n, and reports whether one
// did. It gives up when ctx ends, or when no other write has held or waited for the turn for
// grace: a resource that needs another resource's change (a PFC headroom needs the policy's
// lossless class) waits for writes Terraform is running beside it, not for ever.
func (r *Registry) AwaitWrite(ctx context.Context, device string, n uint64, grace time.Duration) bool {
	deadline := time.Now().Add(grace)
	for {
		r.mu.Lock()
		w := r.turnOf(device)
		done, ch := w.gen > n, w.changed
		if w.active > 0 {
			deadline = time.Now().Add(grace)
		}
		r.mu.Unlock()
		if done {
			return true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		timer := time.NewTimer(left)
		select {
		case <-ch:
		case <-ctx.Done():
			timer.Stop()
			return false
		case <-timer.C:
		}
		timer.Stop()
	}
}
