package cli

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// SetStaleCheckpointAge lets the lab tests age checkpoints in seconds rather than an hour, on
// their own client.
func SetStaleCheckpointAge(c *Client, age time.Duration) { c.staleCheckpointAge = age }

// TimedOut checks the error of a call the client's timeout cut short, for the fake's tests and
// the lab's: it wraps context.DeadlineExceeded, its text names the timeout, and it came back
// (the call having begun at start) within most.
func TimedOut(t *testing.T, e *Error, timeout time.Duration, start time.Time, most time.Duration) {
	t.Helper()
	if !errors.Is(e, context.DeadlineExceeded) || !strings.Contains(e.Error(), "timeout of "+timeout.String()) {
		t.Errorf("error = %v", e)
	}
	if took := time.Since(start); took > most {
		t.Errorf("took %s with a timeout of %s", took, timeout)
	}
}
