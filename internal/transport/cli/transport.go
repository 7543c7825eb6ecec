package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scrapli/scrapligo/transport"
	gossh "golang.org/x/crypto/ssh"

	rssh "github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
)

// sshTransport is the scrapligo transport (transport.Implementation) the client gives every
// driver. It does what scrapligo's "standard" transport does -- x/crypto/ssh dial, one session,
// an xterm pty, a shell -- but with the provider's host key policy, which "standard" cannot
// apply: it only checks a known_hosts file and cannot name the key it refused. One value serves
// one connection; it is safe for Close to run while the channel's read loop is in Read.
type sshTransport struct {
	ctx     context.Context // the operation opening the connection; only Open uses it
	address string
	timeout time.Duration // bounds dial, handshake and shell start together
	config  *gossh.ClientConfig

	alive  atomic.Bool
	writes atomic.Int64 // successful Writes: zero new ones means nothing reached the device

	mu      sync.Mutex
	closed  bool
	client  *gossh.Client
	openErr error // why Open failed, for the retry decision: only set-up failures are retried

	// Set by Open before scrapligo starts its read loop, never changed afterwards.
	stdin  io.Writer
	stdout io.Reader
}

var _ transport.Implementation = (*sshTransport)(nil)

// Open dials, authenticates, verifies the host key and starts a shell on an xterm pty sized as
// scrapligo asks (a.TermHeight, a.TermWidth).
func (t *sshTransport) Open(a *transport.Args) error {
	err := t.open(a)
	t.mu.Lock()
	t.openErr = err
	t.mu.Unlock()
	return err
}

func (t *sshTransport) open(a *transport.Args) error {
	dctx, cancel := context.WithTimeout(t.ctx, t.timeout)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(dctx, "tcp", t.address)
	if err != nil {
		return t.timeoutCause(dctx, "TCP connect", err)
	}
	if deadline, ok := dctx.Deadline(); ok {
		_ = nc.SetDeadline(deadline)
	}
	stop := context.AfterFunc(dctx, func() { _ = nc.Close() })
	client, err := t.shell(nc, a)
	if !stop() && err == nil { // the deadline closed the socket just as the shell started
		_ = client.Close()
		err = dctx.Err()
	}
	if err != nil {
		_ = nc.Close()
		return t.timeoutCause(dctx, "SSH handshake", err)
	}
	_ = nc.SetDeadline(time.Time{})
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed { // an operation guard gave up while we were connecting
		_ = client.Close()
		return errors.New("the connection was closed while it was being opened")
	}
	t.client = client
	t.alive.Store(true)
	go func() {
		_ = client.Wait() // returns when the connection drops, either side
		t.alive.Store(false)
	}()
	return nil
}

func (t *sshTransport) shell(nc net.Conn, a *transport.Args) (*gossh.Client, error) {
	sc, chans, reqs, err := gossh.NewClientConn(nc, t.address, t.config)
	if err != nil {
		return nil, err
	}
	client := gossh.NewClient(sc, chans, reqs)
	fail := func(step string, err error) (*gossh.Client, error) {
		_ = client.Close()
		return nil, fmt.Errorf("%s: %w", step, err)
	}
	sess, err := client.NewSession()
	if err != nil {
		return fail("opening the SSH session", err)
	}
	if t.stdin, err = sess.StdinPipe(); err != nil {
		return fail("opening the session's input", err)
	}
	if t.stdout, err = sess.StdoutPipe(); err != nil {
		return fail("opening the session's output", err)
	}
	modes := gossh.TerminalModes{gossh.ECHO: 1, gossh.TTY_OP_ISPEED: 115200, gossh.TTY_OP_OSPEED: 115200}
	if err := sess.RequestPty("xterm", a.TermHeight, a.TermWidth, modes); err != nil {
		return fail("requesting a pty", err)
	}
	if err := sess.Shell(); err != nil {
		return fail("starting the shell", err)
	}
	return client, nil
}

// timeoutCause names the timeout when the per-attempt deadline (not the caller's) ended a step.
func (t *sshTransport) timeoutCause(dctx context.Context, step string, err error) error {
	deadline, _ := dctx.Deadline()
	if t.ctx.Err() == nil && (dctx.Err() != nil || !time.Now().Before(deadline) || errors.Is(err, os.ErrDeadlineExceeded)) {
		return rssh.Timeout(step+" did not finish within the timeout of "+t.timeout.String(), err)
	}
	return err
}

// openError is why Open failed; nil when it succeeded (or was not called).
func (t *sshTransport) openError() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.openErr
}

// Close closes the connection; Read then returns io.EOF. Idempotent.
func (t *sshTransport) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	t.alive.Store(false)
	if t.client == nil {
		return nil
	}
	err := t.client.Close()
	t.client = nil
	if err != nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// probe asks the server for an SSH-level answer (a keepalive request, which needs no CLI): a
// connection can die without a word (a firewall's idle timeout), and a command sent into it
// would hang until the timeout and could not be resent.
func (t *sshTransport) probe(timeout time.Duration) bool {
	t.mu.Lock()
	client := t.client
	t.mu.Unlock()
	if client == nil {
		return false
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := client.SendRequest("keepalive@openssh.com", true, nil) // a refusal is an answer too
		done <- err
	}()
	select {
	case err := <-done:
		return err == nil
	case <-time.After(timeout): // the goroutine ends when the caller closes the connection
		return false
	}
}

// IsAlive reports whether the connection is up, as far as we know.
func (t *sshTransport) IsAlive() bool { return t.alive.Load() }

// Read reads what the device printed, at most n bytes; it blocks until there is some.
func (t *sshTransport) Read(n int) ([]byte, error) {
	b := make([]byte, n)
	n, err := t.stdout.Read(b)
	if err != nil {
		t.alive.Store(false)
		return nil, err
	}
	return b[:n], nil
}

// Write sends b to the device.
func (t *sshTransport) Write(b []byte) error {
	if _, err := t.stdin.Write(b); err != nil {
		t.alive.Store(false)
		return err
	}
	t.writes.Add(1)
	return nil
}
