package devices

import (
	"context"
	"fmt"
	"sync"
)

// Writer says how one device's writes of one kind are built, combined and sent (a SONiC
// switch's SetRequests on its CONFIG_DB): Write's group commit needs nothing else from the
// platform or the transport. S is the snapshot the writes are built on (Snapshot of Kind), R a
// request.
type Writer[S comparable, R any] struct {
	Kind  string
	Fetch func(context.Context) (S, error)
	// After is the snapshot once the device accepted r, built on s; an error when only a read
	// tells (the device's own daemons rewrite what r touched): no write is built on it.
	After func(s S, r R) (S, error)
	// Overlap reports two requests touching a common part of the device (a CONFIG_DB key):
	// the device would not apply them together as one after the other.
	Overlap func(a, b R) bool
	// Combine is one request doing what reqs do, in that order, on parts none of them share.
	Combine func(reqs []R) R
	// Empty reports a request with nothing to change: it is not sent.
	Empty func(R) bool
	Send  func(context.Context, R) error
	// Refused reports an error by which the device answered that it applied none of the
	// request; any other failure leaves its outcome unknown.
	Refused func(error) bool
}

// Write builds one write with build on the device's snapshot and sends it, coalesced with the
// device's other writes of the same kind into one request where they can be (group commit, no
// waiting on purpose): the first write is sent at once; writes that arrive while a request is
// in flight queue up and go together, in one request, when it is answered. Each gets its own
// result.
//
// Each queued write is built, in arrival order, on the snapshot as the writes before it in the
// request leave it (Writer.After), so the request does what the writes would one at a time. A
// write is left for the next request when it overlaps one already in it (the device applies a
// request's deletes before its updates, not write by write) or follows one whose result only
// a read tells. When the device refuses a combined request, nothing of it was applied, and each
// of its writes is built again on a fresh read and sent alone, so the refusal lands on the
// write at fault and the others go through; when the outcome is unknown (no answer), every
// write in it gets the error, as a lone write would. build may run more than once (the last
// run is the one sent); an error from it is the write's result (after the request it was built
// beside is answered: it was decided on that request's effect), and nothing of it is sent.
//
// Writes to the device hold its write turn (Exclusive) one request at a time, and an answered
// request counts as one write (Writes, AwaitWrite). With per_resource_reads on the device each
// write is built on its own fresh read and sent alone, as before writes were coalesced.
func Write[S comparable, R any](ctx context.Context, r *Registry, device string, w Writer[S, R], build func(S) (R, error)) error {
	q := queueOf[S, R](r, device, w.Kind)
	j := &commitJob[S, R]{ctx: ctx, w: &w, build: build, done: make(chan error, 1)}
	q.mu.Lock()
	q.jobs = append(q.jobs, j)
	if !q.running {
		q.running = true
		go q.run(r, device)
	}
	q.mu.Unlock()
	select {
	case err := <-j.done:
		return err
	case <-ctx.Done():
		q.mu.Lock()
		if i := indexOf(q.jobs, j); i >= 0 {
			q.jobs = append(q.jobs[:i], q.jobs[i+1:]...)
			q.mu.Unlock()
			return waitErr(device, ctx.Err())
		}
		q.mu.Unlock()
		// Being built or sent: the request's outcome is not known to this caller.
		return fmt.Errorf("device %q: write in flight: %w", device, ctx.Err())
	}
}

func indexOf[T comparable](s []T, v T) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

type commitJob[S comparable, R any] struct {
	ctx   context.Context
	w     *Writer[S, R]
	build func(S) (R, error)
	alone bool // retried alone after a combined request was refused
	done  chan error

	req    R
	hasReq bool
	err    error // build's error
}

// commitQueue is one device's queue of writes of one kind; running while a goroutine serves it.
type commitQueue[S comparable, R any] struct {
	mu      sync.Mutex
	jobs    []*commitJob[S, R]
	running bool

	// finished are the writes a request ended, with their results, told to their callers
	// once the request's write turn is released and counted (run): a caller that has its
	// result finds the write in Writes and the device's turn free. Only run's goroutine
	// touches it.
	finished []finishedJob[S, R]
}

type finishedJob[S comparable, R any] struct {
	j   *commitJob[S, R]
	err error
}

// finish records j's result, told to its caller by run after the write turn is released.
func (q *commitQueue[S, R]) finish(j *commitJob[S, R], err error) {
	q.finished = append(q.finished, finishedJob[S, R]{j, err})
}

func queueOf[S comparable, R any](r *Registry, device, kind string) *commitQueue[S, R] {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.queues == nil {
		r.queues = map[string]any{}
	}
	key := device + "\x00" + kind
	if q, ok := r.queues[key].(*commitQueue[S, R]); ok {
		return q
	}
	q := &commitQueue[S, R]{}
	r.queues[key] = q
	return q
}

// run sends the queued writes, request after request, until none is left. It takes the
// device's write turn before it takes writes off the queue: a write still queued can give up
// with its context.
func (q *commitQueue[S, R]) run(r *Registry, device string) {
	for {
		release, _ := r.Exclusive(context.Background(), device) // a Background wait does not fail
		q.mu.Lock()
		jobs := q.jobs
		q.jobs = nil
		if len(jobs) == 0 {
			q.running = false
			q.mu.Unlock()
			release(false)
			return
		}
		q.mu.Unlock()
		wrote := false
		rest := q.commit(r, device, jobs, &wrote)
		release(wrote)
		for _, f := range q.finished {
			f.j.done <- f.err
		}
		q.finished = nil
		if len(rest) > 0 {
			q.mu.Lock()
			q.jobs = append(rest, q.jobs...)
			q.mu.Unlock()
		}
	}
}

// commit builds and sends one request from the head of jobs and returns the writes left for
// the next request; wrote is set when a request was sent or a write ended without error.
func (q *commitQueue[S, R]) commit(r *Registry, device string, jobs []*commitJob[S, R], wrote *bool) (rest []*commitJob[S, R]) {
	w := jobs[0].w
	base, err := Snapshot(context.WithoutCancel(jobs[0].ctx), r, device, w.Kind, w.Fetch)
	if err != nil {
		for _, j := range jobs {
			q.finish(j, err)
		}
		return nil
	}
	single := r.devices[device].PerResourceReads
	cur, known := base, true
	var members []*commitJob[S, R]
	for i, j := range jobs {
		if err := j.ctx.Err(); err != nil {
			q.finish(j, waitErr(device, err))
			continue
		}
		if len(members) > 0 && (single || j.alone) {
			return q.send(r, device, base, members, known, wrote, jobs[i:])
		}
		var zero R
		j.req, j.hasReq, j.err = zero, false, nil
		req, err := j.build(cur)
		switch {
		case err != nil:
			j.err = err
		case !w.Empty(req):
			if overlaps(members, req, w) {
				return q.send(r, device, base, members, known, wrote, jobs[i:])
			}
			j.req, j.hasReq = req, true
		}
		members = append(members, j)
		if j.hasReq {
			next, err := w.After(cur, req)
			if err != nil {
				known = false
				return q.send(r, device, base, members, known, wrote, jobs[i+1:])
			}
			cur = next
		}
		if single || j.alone {
			return q.send(r, device, base, members, known, wrote, jobs[i+1:])
		}
	}
	return q.send(r, device, base, members, known, wrote, nil)
}

// waitErr is a write given up while queued, in Exclusive's words.
func waitErr(device string, err error) error {
	return fmt.Errorf("device %q: waiting for another write to the device to finish: %w", device, err)
}

func overlaps[S comparable, R any](members []*commitJob[S, R], req R, w *Writer[S, R]) bool {
	for _, m := range members {
		if m.hasReq && w.Overlap(m.req, req) {
			return true
		}
	}
	return false
}

// send sends the members' requests as one and gives each member its result; it returns what
// is left to send next: rest, after the members to be retried alone.
func (q *commitQueue[S, R]) send(r *Registry, device string, base S, members []*commitJob[S, R], known bool, wrote *bool, rest []*commitJob[S, R]) []*commitJob[S, R] {
	if len(members) == 0 {
		return rest
	}
	w := members[0].w
	var reqs []R
	var ctxs []context.Context
	for _, m := range members {
		if m.hasReq {
			reqs = append(reqs, m.req)
			ctxs = append(ctxs, m.ctx)
		}
	}
	if len(reqs) == 0 {
		// Nothing to send: each member's result stands on the snapshot as it is.
		for _, m := range members {
			*wrote = *wrote || m.err == nil
			q.finish(m, m.err)
		}
		return rest
	}
	combined := reqs[0]
	if len(reqs) > 1 {
		combined = w.Combine(reqs)
	}
	ctx, cancel := whileAnyWaits(ctxs)
	err := w.Send(ctx, combined)
	cancel()
	*wrote = true
	if err == nil {
		accepted(r, device, w, base, combined, known)
		for _, m := range members {
			q.finish(m, m.err)
		}
		return rest
	}
	// A refused or unanswered request may have changed anything or nothing: read again.
	r.Invalidate(device)
	retry := len(reqs) > 1 && w.Refused(err)
	var again []*commitJob[S, R]
	for _, m := range members {
		switch {
		case !m.hasReq:
			// Decided on the effect of a request that failed: decided again alone.
			m.alone = true
			again = append(again, m)
		case retry:
			m.alone = true
			again = append(again, m)
		default:
			q.finish(m, err)
		}
	}
	return append(again, rest...)
}

// accepted brings the snapshot up to date after the device accepted req, built on base:
// Replace where After knows the result, else Invalidate (the next write reads again).
func accepted[S comparable, R any](r *Registry, device string, w *Writer[S, R], base S, req R, known bool) {
	if known {
		if next, err := w.After(base, req); err == nil {
			Replace(r, device, w.Kind, base, next)
			return
		}
	}
	r.Invalidate(device)
}

// whileAnyWaits is a context for a request sent for several writers: it ends when every
// writer's context has ended (each keeps its values, the first's are passed on).
func whileAnyWaits(ctxs []context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctxs[0]))
	var mu sync.Mutex
	left := len(ctxs)
	stops := make([]func() bool, 0, len(ctxs))
	for _, c := range ctxs {
		stops = append(stops, context.AfterFunc(c, func() {
			mu.Lock()
			left--
			if left == 0 {
				cancel()
			}
			mu.Unlock()
		}))
	}
	return ctx, func() {
		for _, stop := range stops {
			stop()
		}
		cancel()
	}
}

// QueuedWrites is how many writes to device wait for a request to carry them (Write): those
// queued behind the request in flight.
func (r *Registry) QueuedWrites(device string) int {
	r.mu.Lock()
	var qs []interface{ queued() int }
	for key, q := range r.queues {
		if len(key) > len(device) && key[:len(device)] == device && key[len(device)] == 0 {
			if c, ok := q.(interface{ queued() int }); ok {
				qs = append(qs, c)
			}
		}
	}
	r.mu.Unlock()
	n := 0
	for _, q := range qs {
		n += q.queued()
	}
	return n
}

func (q *commitQueue[S, R]) queued() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs)
}
