package ssh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	gossh "golang.org/x/crypto/ssh"
)

// Run runs cmd (a shell command line, its words quoted by the caller) with stdin on the host and returns
// its output and exit status. A non-zero exit is not an error. Errors are *Error, for transport
// failures only: those before the command ran are retried (Config.Retries, with backoff; a dead
// shared connection is reconnected once even without retries); a command that may have run is
// never retried. A command that outlives Config.Timeout or ctx is sent SIGKILL and its session
// closed; OpenSSH delivers signals only to non-root logins (with privilege separation), so a
// root login's command may run on.
func (c *Client) Run(ctx context.Context, cmd string, stdin []byte) (Result, error) {
	backoff := retry.WithDefaults(c.cfg.Backoff, c.cfg.MaxBackoff).Start()
	limit := 1 + max(c.cfg.Retries, 0)
	reconnected := false
	for attempt := 1; ; attempt++ {
		res, f := c.attempt(ctx, cmd, stdin, attempt)
		if f == nil {
			return res, nil
		}
		fail := &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: f.op, Attempts: attempt, Err: f.err}
		if ctx.Err() != nil || f.kind == final {
			return Result{}, fail
		}
		if f.kind == stale && !reconnected {
			reconnected = true
			limit = max(limit, attempt+1)
			continue
		}
		if attempt >= limit {
			return Result{}, fail
		}
		if !backoff.Wait(ctx) {
			return Result{}, fail
		}
	}
}

func (c *Client) attempt(ctx context.Context, cmd string, stdin []byte, attempt int) (Result, *failure) {
	conn, fresh, f := c.connect(ctx, attempt)
	if f != nil {
		return Result{}, f
	}
	select {
	case c.sessions <- struct{}{}:
	case <-ctx.Done():
		return Result{}, &failure{op: "session", err: ctx.Err(), kind: final}
	}
	defer func() { <-c.sessions }()
	start := time.Now()
	res, f := c.runOn(ctx, conn, fresh, cmd, stdin)
	fields := map[string]any{"command": cmd, "stdin_bytes": len(stdin), "attempt": attempt,
		"duration_ms": time.Since(start).Milliseconds()}
	if f != nil {
		fields["error"] = f.err.Error()
	} else {
		fields["exit_code"] = res.ExitCode
	}
	c.log(ctx, "SSH run", fields)
	return res, f
}

func (c *Client) runOn(ctx context.Context, conn *gossh.Client, fresh bool, cmd string, stdin []byte) (Result, *failure) {
	sess, f := c.openSession(ctx, conn, fresh)
	if f != nil {
		return Result{}, f
	}
	defer func() { _ = sess.Close() }()
	var stdout, stderr bytes.Buffer
	sess.Stdout, sess.Stderr, sess.Stdin = &stdout, &stderr, bytes.NewReader(stdin)
	if err := sess.Start(cmd); err != nil {
		// The exec request went out; without its answer the command may have started.
		return Result{}, &failure{op: "run", err: fmt.Errorf("the host did not start the command: %w", err), kind: final}
	}
	rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case err := <-done:
		var exit *gossh.ExitError
		var missing *gossh.ExitMissingError
		switch {
		case err == nil:
			return Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}, nil
		case errors.As(err, &exit):
			return Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), ExitCode: exit.ExitStatus()}, nil
		case errors.As(err, &missing):
			return Result{}, &failure{op: "run", kind: final, err: errors.New("the session ended without an exit status " +
				"(the connection dropped while the command ran); not retried, since the command may have run")}
		default:
			return Result{}, &failure{op: "run", kind: final, err: fmt.Errorf("reading the command's output failed: %w", err)}
		}
	case <-rctx.Done():
	}
	_ = sess.Signal(gossh.SIGKILL)
	_ = sess.Close()
	select {
	case err := <-done:
		_ = err // the command was killed: how it ended does not matter
	case <-time.After(time.Second):
		c.drop(conn) // a host that does not answer the close is gone
	}
	err := ctx.Err()
	if err == nil {
		err = &timeoutError{what: "the command did not finish within the timeout of " + c.cfg.Timeout.String() +
			"; its session was sent SIGKILL and closed", err: rctx.Err()}
	}
	return Result{}, &failure{op: "run", err: err, kind: final}
}

// openSession opens a session on conn within the timeout. A refusal is waited out: sshd frees a
// session slot (MaxSessions) a moment after a session ends, and a refused command did not run.
// A dead connection is dropped, and reconnected.
func (c *Client) openSession(ctx context.Context, conn *gossh.Client, fresh bool) (*gossh.Session, *failure) {
	type opened struct {
		s   *gossh.Session
		err error
	}
	timer := time.NewTimer(c.cfg.Timeout)
	defer timer.Stop()
	pause := 5 * time.Millisecond
	for {
		ch := make(chan opened, 1)
		go func() {
			s, err := conn.NewSession()
			ch <- opened{s, err}
		}()
		var o opened
		select {
		case o = <-ch:
		case <-timer.C:
			c.drop(conn) // unblocks NewSession
			return nil, &failure{op: "session", kind: transient, err: &timeoutError{
				what: "opening a session did not finish within the timeout of " + c.cfg.Timeout.String()}}
		case <-ctx.Done():
			go func() {
				if o := <-ch; o.s != nil {
					_ = o.s.Close()
				}
			}()
			return nil, &failure{op: "session", err: ctx.Err(), kind: final}
		}
		if o.err == nil {
			return o.s, nil
		}
		var refused *gossh.OpenChannelError
		if !errors.As(o.err, &refused) {
			c.drop(conn)
			kind := transient
			if !fresh {
				kind = stale
			}
			return nil, &failure{op: "session", err: fmt.Errorf("the connection dropped before the command ran: %w", o.err), kind: kind}
		}
		select {
		case <-time.After(pause):
			pause = min(pause*2, 100*time.Millisecond)
		case <-timer.C:
			return nil, &failure{op: "session", kind: transient, err: fmt.Errorf(
				"the host refused sessions for the timeout of %s: %w", c.cfg.Timeout, o.err)}
		case <-ctx.Done():
			return nil, &failure{op: "session", err: ctx.Err(), kind: final}
		}
	}
}
