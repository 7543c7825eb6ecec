// Package eventtest records a transport's events for its tests (ssh, cli): what a transport
// logs is part of what it promises (a connect per attempt, a stale checkpoint named when
// deleted). Only tests import it.
package eventtest

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// Recorder is an event.Logger that keeps each event as "msg map[fields]", safe for the
// transports' concurrent use.
type Recorder struct {
	mu     sync.Mutex
	events []string
}

// Debug records one event.
func (r *Recorder) Debug(_ context.Context, msg string, fields map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf("%s %v", msg, fields))
}

// Events returns the events recorded so far, in order.
func (r *Recorder) Events() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...)
}

// String is the events recorded so far, one a line.
func (r *Recorder) String() string { return strings.Join(r.Events(), "\n") }
