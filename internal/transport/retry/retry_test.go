package retry

import (
	"context"
	"testing"
	"time"
)

// A transport's zero timeout and backoff become the defaults; what it set, and its retries,
// stay.
func TestAttemptsWithDefaults(t *testing.T) {
	if a := (Attempts{Retries: 2}).WithDefaults(); a != (Attempts{DefaultTimeout, 2, DefaultBackoff, DefaultMaxBackoff}) {
		t.Errorf("zero attempts = %+v", a)
	}
	set := Attempts{Timeout: time.Second, Backoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}
	if a := set.WithDefaults(); a != set {
		t.Errorf("set attempts = %+v", a)
	}
}

func TestWithDefaults(t *testing.T) {
	if p := WithDefaults(0, -1); p != (Policy{DefaultBackoff, DefaultMaxBackoff}) {
		t.Errorf("zero policy = %+v", p)
	}
	if p := WithDefaults(time.Millisecond, time.Second); p != (Policy{time.Millisecond, time.Second}) {
		t.Errorf("set policy = %+v", p)
	}
}

// The delay doubles per wait up to the ceiling.
func TestWaitDoubles(t *testing.T) {
	w := Policy{Backoff: time.Microsecond, MaxBackoff: 3 * time.Microsecond}.Start()
	for _, want := range []time.Duration{2 * time.Microsecond, 3 * time.Microsecond, 3 * time.Microsecond} {
		if !w.Wait(context.Background()) {
			t.Fatal("Wait gave up without a cancelled context")
		}
		if w.next != want {
			t.Errorf("next delay %v, want %v", w.next, want)
		}
	}
}

// A context that ends first ends the wait: the operation gives up rather than sleep on.
func TestWaitCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := Policy{Backoff: time.Hour, MaxBackoff: time.Hour}.Start()
	if w.Wait(ctx) {
		t.Error("Wait slept out an hour under a cancelled context")
	}
}

func TestAfterAttempts(t *testing.T) {
	for n, want := range map[int]string{0: "", 1: "", 2: " after 2 attempts", 5: " after 5 attempts"} {
		if got := AfterAttempts(n); got != want {
			t.Errorf("AfterAttempts(%d) = %q, want %q", n, got, want)
		}
	}
}
