package gnmi

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Refused tells a Set the device answered with an error (applied none of it) from one whose
// outcome is unknown: only the former may be retried write by write.
func TestRefused(t *testing.T) {
	set := func(err error) error { return &Error{Device: "sw", Op: "set", Err: err} }
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"sonic-gnmi's refusal (code Unknown)", set(status.Error(codes.Unknown, "Error: Failed to apply patch on the following scopes:")), true},
		{"FailedPrecondition", set(status.Error(codes.FailedPrecondition, "refused")), true},
		{"InvalidArgument", set(status.Error(codes.InvalidArgument, "bad path")), true},
		{"deadline", set(status.Error(codes.DeadlineExceeded, "context deadline exceeded")), false},
		{"connection dropped", set(status.Error(codes.Unavailable, "connection reset")), false},
		{"a context error, no status", set(context.DeadlineExceeded), false},
		{"not a gNMI error", errors.New("boom"), false},
	} {
		if got := Refused(c.err); got != c.want {
			t.Errorf("%s: Refused = %v, want %v", c.name, got, c.want)
		}
	}
}
