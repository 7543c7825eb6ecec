package gnmi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/event"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Error is a failed gNMI operation on one device.
type Error struct {
	Device   string
	Address  string
	Op       string // connect, get, set, capabilities
	Attempts int
	Err      error
}

func (e *Error) Error() string {
	return fmt.Sprintf("gNMI %s on device %q (%s)%s: %s", e.Op, e.Device, e.Address, retry.AfterAttempts(e.Attempts), describe(e.Err))
}

func (e *Error) Unwrap() error { return e.Err }

// Code is the gRPC status code of the failure (codes.Unknown for non-gRPC errors).
func (e *Error) Code() codes.Code { return status.Code(e.Err) }

// Rejected reports whether the device refused the request itself (as opposed to the transport
// failing): such a change is never retried.
func Rejected(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code() {
	case codes.InvalidArgument, codes.FailedPrecondition, codes.PermissionDenied, codes.NotFound,
		codes.AlreadyExists, codes.OutOfRange, codes.Unimplemented:
		return true
	}
	return false
}

// NotFound reports whether a Get found nothing at the path.
func NotFound(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code() == codes.NotFound
}

func describe(err error) string {
	s, ok := status.FromError(err)
	if !ok {
		return err.Error()
	}
	switch s.Code() {
	case codes.Unauthenticated:
		return "authentication failed (check username and password): " + s.Message()
	case codes.Unavailable:
		if tlsFailure(err) {
			return "TLS verification failed (the device's certificate is not trusted: check ca_certificate): " + s.Message()
		}
		return "device unreachable: " + s.Message()
	case codes.DeadlineExceeded:
		return "timed out: " + s.Message()
	}
	return fmt.Sprintf("%s: %s", s.Code(), s.Message())
}

// transient are the gRPC codes worth retrying: the request may not have reached the device or
// the device asked us to come back. Anything else (a rejected change) is final.
func transient(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable:
		return !tlsFailure(err)
	case codes.DeadlineExceeded, codes.ResourceExhausted, codes.Aborted:
		return true
	}
	return false
}

// tlsFailure reports a connection that failed because the device's certificate was not
// trusted: gRPC reports it as Unavailable, but another attempt meets the same certificate, so
// it is final (fail closed at once).
func tlsFailure(err error) bool {
	// Only the certificate check: a connection reset during the TLS handshake (a device
	// refusing connections) is also an "authentication handshake failed", and is transient.
	msg := status.Convert(err).Message()
	return strings.Contains(msg, "x509: ") || strings.Contains(msg, "tls: failed to verify certificate")
}

// do runs call with the per-attempt timeout, retrying transient failures with exponential
// backoff.
func (c *Client) do(ctx context.Context, op string, call func(context.Context, gpb.GNMIClient) error) error {
	gc, err := c.client()
	if err != nil {
		return err
	}
	backoff := retry.WithDefaults(c.cfg.Backoff, c.cfg.MaxBackoff).Start()
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
		start := time.Now()
		err = call(actx, gc)
		cancel()
		event.Log(ctx, c.cfg.Logger, c.cfg.Device, c.cfg.Address, "gNMI "+op, map[string]any{
			"attempt": attempt, "duration_ms": time.Since(start).Milliseconds(), "code": status.Code(err).String(),
		})
		if err == nil {
			return nil
		}
		if !transient(err) || attempt > c.cfg.Retries || ctx.Err() != nil {
			return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: op, Attempts: attempt, Err: err}
		}
		if !backoff.Wait(ctx) {
			return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: op, Attempts: attempt, Err: err}
		}
	}
}

func scalarJSON(v *gpb.TypedValue) ([]byte, error) {
	var x any
	switch t := v.GetValue().(type) {
	case *gpb.TypedValue_StringVal:
		x = t.StringVal
	case *gpb.TypedValue_IntVal:
		x = t.IntVal
	case *gpb.TypedValue_UintVal:
		x = t.UintVal
	case *gpb.TypedValue_BoolVal:
		x = t.BoolVal
	case *gpb.TypedValue_DoubleVal:
		x = t.DoubleVal
	case *gpb.TypedValue_AsciiVal:
		x = t.AsciiVal
	default:
		return nil, fmt.Errorf("unsupported value encoding %T", t)
	}
	return json.Marshal(x)
}

// Refused reports whether the device answered a request with an error, so that none of it
// was applied (gNMI Set is all or nothing), as opposed to the request going unanswered (no
// connection, a deadline, a dropped stream: the device may or may not have applied it).
// sonic-gnmi answers every refused Set with code Unknown (gnmi_server/server.go Set returns
// the data client's error as it is), so Unknown from the device counts as an answer.
func Refused(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	if _, ok := status.FromError(e.Err); !ok {
		return false
	}
	switch e.Code() {
	case codes.DeadlineExceeded, codes.Canceled, codes.Unavailable, codes.Aborted, codes.Internal, codes.DataLoss, codes.ResourceExhausted:
		return false
	}
	return true
}
