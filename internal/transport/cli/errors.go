package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/scrapli/scrapligo/util"

	rssh "github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
)

// Error is a failed CLI operation on one device. Rejected means the device refused a command or
// configuration line (Line, with the device's text in Output); otherwise the transport or the
// CLI failed (Err). RolledBack reports that a failed configuration left the device as it was.
type Error struct {
	Device  string
	Address string // host:port, named in errors that are not the device's refusal
	Op      string // connect, show, configure
	// Line is the refused command or configuration line (or the step that failed).
	Line string
	// Output is the device's text for Line, such as "% Invalid input (at token 0: 'x')".
	Output     string
	Rejected   bool
	RolledBack bool
	// NotSaved: the change was committed to the running-config; only saving it to the
	// startup-config (SaveConfig) failed.
	NotSaved bool
	// Warnings: the change was committed, and the device answered these lines with warnings.
	// With no Err and not Rejected, the Error is only a warning.
	Warnings []Warning
	Attempts int // connection attempts, for Op "connect"
	Err      error
}

// Warned reports a change that was committed (and saved when asked) but answered with warnings.
func (e *Error) Warned() bool { return !e.Rejected && e.Err == nil && len(e.Warnings) > 0 }

func (e *Error) Error() string {
	switch {
	case e.Warned():
		return fmt.Sprintf("device %q applied the configuration with warnings: %s", e.Device, warningText(e.Warnings))
	case len(e.Warnings) > 0:
		return e.message() + "; the device warned: " + warningText(e.Warnings)
	}
	return e.message()
}

func (e *Error) message() string {
	var b strings.Builder
	if e.Rejected {
		what := "the command"
		if e.Op == "configure" {
			what = "the configuration line"
		}
		fmt.Fprintf(&b, "device %q refused %s %q", e.Device, what, e.Line)
		if out := strings.TrimSpace(e.Output); out != "" {
			b.WriteString(": " + out)
		}
		if e.Err != nil {
			b.WriteString("; " + e.Err.Error())
		}
		return b.String()
	}
	if e.Op == "connect" {
		fmt.Fprintf(&b, "CLI connection to device %q (%s)", e.Device, e.Address)
	} else {
		fmt.Fprintf(&b, "CLI %s on device %q (%s)", e.Op, e.Device, e.Address)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// configError is a setting that cannot work (a bad key, no credentials); never retried.
type configError struct{ msg string }

func (e *configError) Error() string { return e.msg }

// timeoutError is a step that outlived its time. It matches context.DeadlineExceeded.
type timeoutError struct {
	what string
	err  error
}

func (e *timeoutError) Error() string        { return e.what }
func (e *timeoutError) Unwrap() error        { return e.err }
func (e *timeoutError) Timeout() bool        { return true }
func (e *timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// dialFailure classifies a failed connection set-up: unreachable hosts and handshake timeouts are
// transient; host key, credential and configuration problems are final.
func (c *Client) dialFailure(ctx context.Context, err error) (transient bool, _ error) {
	var hostKey *rssh.HostKeyError
	var tmo *timeoutError
	switch {
	case errors.As(err, &hostKey):
		return false, hostKey // without the library's "ssh: handshake failed:" prefix
	case ctx.Err() != nil:
		return false, err
	case errors.As(err, &tmo):
		return true, err
	case strings.Contains(err.Error(), "unable to authenticate"):
		return false, fmt.Errorf("authentication as %q failed (check username, password and private_key): %w", c.cfg.Username, err)
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

// cause rewrites scrapligo's terse errors ("errTimeoutError") and the guard's closing of the
// connection into sentences for a Terraform user, keeping the originals wrapped.
func (c *Client) cause(ctx context.Context, cn *conn, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	switch {
	case cn != nil && cn.killed.Load() && errors.Is(ctx.Err(), context.Canceled):
		return fmt.Errorf("cancelled; the connection was closed: %w", ctx.Err())
	case (cn != nil && cn.killed.Load() || errors.Is(err, util.ErrTimeoutError)) && ctx.Err() != nil:
		return &timeoutError{what: "did not finish before the deadline of the Terraform operation; the connection was closed", err: err}
	case cn != nil && cn.killed.Load():
		return &timeoutError{what: "did not finish within the timeout of " + c.cfg.Timeout.String() +
			"; the connection was closed", err: err}
	case errors.Is(err, util.ErrTimeoutError):
		return &timeoutError{what: "the device did not answer within the timeout of " + c.cfg.Timeout.String() +
			"; the connection was closed", err: err}
	case errors.Is(err, util.ErrConnectionError), errors.Is(err, io.EOF):
		return fmt.Errorf("the connection to the device closed: %w", err)
	case errors.Is(err, util.ErrPrivilegeError):
		return fmt.Errorf("the CLI did not reach the mode the operation needs: %w", err)
	}
	return err
}

// broken reports whether err leaves the CLI channel unusable or in an unknown state: a command
// that timed out may still print later, into the next command's output.
func broken(cn *conn, err error) bool {
	return cn.killed.Load() || !cn.tr.IsAlive() || errors.Is(err, util.ErrTimeoutError) ||
		errors.Is(err, util.ErrConnectionError) || errors.Is(err, io.EOF)
}
