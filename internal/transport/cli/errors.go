package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/scrapli/scrapligo/util"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
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
	// Output is the device's text for Line, such as "% Invalid input".
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
	b.WriteString(retry.AfterAttempts(e.Attempts))
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// dialFailure classifies a failed connection set-up as the ssh transport does (its SSH is the
// same library under scrapligo).
func (c *Client) dialFailure(ctx context.Context, err error) (transient bool, _ error) {
	return rssh.ClassifyDial(ctx, err, c.cfg.Username)
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
		return rssh.Timeout("did not finish before the deadline of the Terraform operation; the connection was closed", err)
	case cn != nil && cn.killed.Load():
		return rssh.Timeout("did not finish within the timeout of "+c.cfg.Timeout.String()+
			"; the connection was closed", err)
	case errors.Is(err, util.ErrTimeoutError):
		return rssh.Timeout("the device did not answer within the timeout of "+c.cfg.Timeout.String()+
			"; the connection was closed", err)
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
