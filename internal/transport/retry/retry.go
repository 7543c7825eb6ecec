// Package retry is how every transport (ssh, cli, gnmi) waits between attempts after a
// transient failure: the first delay doubled per attempt up to a ceiling, cut short by the
// Terraform operation's context. One place, so the transports back off alike.
package retry

import (
	"context"
	"fmt"
	"time"
)

// Defaults of a transport's retry policy when its configuration leaves them zero.
const (
	DefaultBackoff    = 200 * time.Millisecond
	DefaultMaxBackoff = 5 * time.Second
)

// DefaultTimeout is an attempt's timeout when a transport's configuration leaves it zero.
const DefaultTimeout = 30 * time.Second

// Attempts is how a transport tries an operation, part of the ssh (so the cli) and gnmi
// configurations: Timeout bounds one attempt (what an attempt is, each transport says);
// Retries counts the extra attempts after a transient failure; the first retry waits Backoff,
// doubled per attempt up to MaxBackoff.
type Attempts struct {
	Timeout             time.Duration
	Retries             int
	Backoff, MaxBackoff time.Duration
}

// WithDefaults is a with its zero durations filled: Timeout DefaultTimeout, the backoff's
// (WithDefaults).
func (a Attempts) WithDefaults() Attempts {
	if a.Timeout <= 0 {
		a.Timeout = DefaultTimeout
	}
	p := WithDefaults(a.Backoff, a.MaxBackoff)
	a.Backoff, a.MaxBackoff = p.Backoff, p.MaxBackoff
	return a
}

// Policy is a transport's backoff: the first retry delay (Backoff) doubled per attempt up to
// MaxBackoff.
type Policy struct {
	Backoff, MaxBackoff time.Duration
}

// WithDefaults fills a zero or negative delay with its default.
func WithDefaults(backoff, maxBackoff time.Duration) Policy {
	if backoff <= 0 {
		backoff = DefaultBackoff
	}
	if maxBackoff <= 0 {
		maxBackoff = DefaultMaxBackoff
	}
	return Policy{Backoff: backoff, MaxBackoff: maxBackoff}
}

// Waiter waits out the delays of one operation's retries.
type Waiter struct {
	next, most time.Duration
}

// Start begins an operation's retries under p.
func (p Policy) Start() *Waiter { return &Waiter{next: p.Backoff, most: p.MaxBackoff} }

// Wait sleeps the next delay and doubles it (up to the ceiling); false when ctx ended first,
// and the caller gives up.
func (w *Waiter) Wait(ctx context.Context) bool {
	t := time.NewTimer(w.next)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
	}
	w.next = min(w.next*2, w.most)
	return true
}

// AfterAttempts is what a transport's error adds to its heading when an operation failed more
// than once: " after N attempts"; "" after one attempt.
func AfterAttempts(n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf(" after %d attempts", n)
}
