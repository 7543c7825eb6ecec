package ssh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
)

// Error is a failed SSH operation on one device: the transport failed, or the command's outcome
// is unknown. A command that ran and exited non-zero is not an Error (see Result.ExitCode).
type Error struct {
	Device   string
	Address  string
	Op       string // connect, session, run
	Attempts int
	Err      error
}

func (e *Error) Error() string {
	return fmt.Sprintf("SSH to device %q (%s)%s: %s", e.Device, e.Address, retry.AfterAttempts(e.Attempts), e.Err.Error())
}

func (e *Error) Unwrap() error { return e.Err }

// configError is a setting that cannot work (a bad key, no credentials); never retried.
type configError struct{ msg string }

func (e *configError) Error() string { return e.msg }

// timeoutError is a step that outlived its time (Config.Timeout, or the CLI transport's). It
// matches context.DeadlineExceeded.
type timeoutError struct {
	what string
	err  error
}

func (e *timeoutError) Error() string        { return e.what }
func (e *timeoutError) Unwrap() error        { return e.err }
func (e *timeoutError) Timeout() bool        { return true }
func (e *timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// Timeout is the error of a step that outlived its time, what saying which and how long; it
// matches context.DeadlineExceeded, and ClassifyDial takes it as transient. For the CLI
// transport's steps too.
func Timeout(what string, err error) error { return &timeoutError{what: what, err: err} }

// ConfigErr is a setting that cannot work; never retried.
func ConfigErr(msg string) error { return &configError{msg} }

type retryKind int

const (
	final     retryKind = iota // the command ran (or may have), or retrying cannot help
	transient                  // a transport failure before the command ran: retry after a backoff
	stale                      // the shared connection was found dead before the command ran: reconnect
)

type failure struct {
	op   string
	err  error
	kind retryKind
}

// dialFailure classifies a failed connect (ClassifyDial).
func (c *Client) dialFailure(ctx context.Context, err error) *failure {
	f := &failure{op: "connect", kind: final}
	var transientErr bool
	if transientErr, f.err = ClassifyDial(ctx, err, c.cfg.Username); transientErr {
		f.kind = transient
	}
	return f
}

// ClassifyDial classifies a failed connection set-up, for this transport and the CLI one (whose
// SSH is scrapligo's over the same library): unreachable hosts and handshake timeouts are
// transient; host key, credential and configuration problems are final. The error returned is
// the one to report.
func ClassifyDial(ctx context.Context, err error, username string) (transient bool, _ error) {
	var hostKey *HostKeyError
	var tmo *timeoutError
	switch {
	case errors.As(err, &hostKey):
		return false, hostKey // without the library's "ssh: handshake failed:" prefix
	case ctx.Err() != nil:
		return false, err
	case errors.As(err, &tmo):
		return true, err
	case strings.Contains(err.Error(), "unable to authenticate"):
		return false, fmt.Errorf("authentication as %q failed (check username, password and private_key): %w", username, err)
	}
	return transientNet(err), err
}

// transientNet reports network failures worth another try: refused, reset, unreachable, timed
// out, or closed by the peer (sshd drops connections beyond MaxStartups).
func transientNet(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return dns.IsTemporary || dns.IsTimeout
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	for _, target := range []error{io.EOF, io.ErrUnexpectedEOF, net.ErrClosed, syscall.ECONNREFUSED,
		syscall.ECONNRESET, syscall.ECONNABORTED, syscall.EHOSTUNREACH, syscall.ENETUNREACH, syscall.EPIPE} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}
