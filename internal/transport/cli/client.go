// Package cli is the provider's CLI transport for network switches, on scrapligo: one lazily
// opened SSH connection (one scrapligo network driver) per device, operations serialized over
// it, host keys verified by default (pinned key or known_hosts), connection set-up retried for
// transient failures only, configuration applied in one device-side transaction (EOS
// configuration sessions, NX-OS checkpoints with atomic rollback) and typed errors carrying the
// device's own text. It knows nothing
// about QoS.
package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	gossh "golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/event"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	rssh "github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
)

// Config is everything needed to reach one switch CLI: the SSH connection's settings and the
// CLI's own. Of the SSH settings, Timeout bounds one operation here (one show batch, one
// configuration transaction), each connection attempt and each command's answer (0: 30s), and
// Retries counts extra connection attempts after a transient set-up failure.
type Config struct {
	rssh.Config
	// Platform is the scrapligo platform definition: "arista_eos" or "cisco_nxos".
	Platform string
	// SaveConfig writes the running-config to startup-config after each committed change.
	SaveConfig bool
}

// Logger receives transport events (event.Logger, every transport's).
type Logger = event.Logger

const (
	platformEOS  = "arista_eos"
	platformNXOS = "cisco_nxos"
	privExec     = "privilege-exec"
)

// Client talks to one switch. It is safe for concurrent use, but a CLI channel runs one command
// at a time, so operations queue on its mutex.
type Client struct {
	cfg Config
	// probeIdle and staleCheckpointAge are defaultProbeIdle and defaultStaleCheckpointAge; the
	// tests shorten them on their own client.
	probeIdle, staleCheckpointAge time.Duration

	mu sync.Mutex // held for a whole operation
	cn *conn
	// leftovers are checkpoints this client took and could not delete: its own, so no other
	// transaction is behind them (guarded by mu).
	leftovers map[string]bool
}

// conn is one open connection: the scrapligo driver and our transport beneath it.
type conn struct {
	d      *network.Driver
	tr     *sshTransport
	killed atomic.Bool // a guard closed the transport: the operation outlived its time
	used   time.Time   // when an operation last started on it
}

// defaultProbeIdle is how long a connection may sit unused before it is probed ahead of an
// operation.
const defaultProbeIdle = 10 * time.Second

// New returns a client for cfg without connecting.
func New(cfg Config) *Client {
	cfg.Config = cfg.WithDefaults()
	return &Client{cfg: cfg, probeIdle: defaultProbeIdle, staleCheckpointAge: defaultStaleCheckpointAge}
}

// Config returns the client's configuration.
func (c *Client) Config() Config { return c.cfg }

func (c *Client) String() string { return fmt.Sprintf("%s (%s)", c.cfg.Device, c.cfg.Address) }

// Close leaves the CLI politely (`exit`) and drops the connection; a later operation reconnects.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	cn := c.cn
	c.cn = nil
	if cn == nil {
		return nil
	}
	if cn.tr.IsAlive() {
		until := time.Now().Add(min(c.cfg.Timeout, 5*time.Second))
		stop := guard(context.Background(), cn, until)
		if setBudget(cn, until) == nil {
			_ = cn.d.Close() // the platform's on-close: back to privileged exec, `exit`
		}
		stop()
	}
	_ = cn.d.Channel.Close()
	return cn.tr.Close()
}

// opFunc is one operation on an open connection; deadline bounds its commands.
type opFunc func(ctx context.Context, cn *conn, deadline time.Time) error

// do runs fn on the shared connection, opening it first if needed. grace extends the hard limit
// past the deadline, so a configuration that timed out can still be aborted. A connection found
// dead before anything of fn reached it is reopened once and fn run again; nothing that was sent
// is ever resent.
func (c *Client) do(ctx context.Context, op string, grace time.Duration, fn opFunc) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for retried := false; ; retried = true {
		if err := ctx.Err(); err != nil {
			return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: op, Err: err}
		}
		cn, fresh, err := c.connect(ctx)
		if err != nil {
			return err
		}
		deadline := time.Now().Add(c.cfg.Timeout)
		if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
			deadline = d
		}
		sent := cn.tr.writes.Load()
		stop := guard(ctx, cn, deadline.Add(grace))
		err = fn(ctx, cn, deadline)
		stop()
		if err == nil {
			if !cn.tr.IsAlive() {
				c.drop()
			}
			return nil
		}
		if !broken(cn, err) {
			return c.wrap(ctx, cn, op, err)
		}
		c.drop()
		if !fresh && !retried && !cn.killed.Load() && cn.tr.writes.Load() == sent {
			c.log(ctx, "CLI connection found closed; reconnecting", map[string]any{"op": op, "error": err.Error()})
			continue
		}
		return c.wrap(ctx, cn, op, err)
	}
}

func (c *Client) wrap(ctx context.Context, cn *conn, op string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: op, Err: c.cause(ctx, cn, err)}
}

// guard closes the connection when ctx is cancelled or at until: scrapligo's operations take no
// context, and a device that stops answering mid-command would otherwise hold the client. The
// caller's deadline is not a cancellation: it is already part of until.
func guard(ctx context.Context, cn *conn, until time.Time) (stop func()) {
	kill := func() {
		cn.killed.Store(true)
		_ = cn.tr.Close()
	}
	timer := time.AfterFunc(time.Until(until), kill)
	stopCtx := context.AfterFunc(ctx, func() {
		if errors.Is(ctx.Err(), context.Canceled) {
			kill()
		}
	})
	return func() {
		timer.Stop()
		stopCtx()
	}
}

// setBudget makes scrapligo wait for each answer at most until until (its channel timeout is
// also what GetPrompt and privilege changes use), or fails when that time has passed.
func setBudget(cn *conn, until time.Time) error {
	left := time.Until(until)
	if left <= 0 {
		return rssh.Timeout("no time left before the timeout", context.DeadlineExceeded)
	}
	cn.d.Channel.TimeoutOps = left // never 0: scrapligo reads 0 as "no timeout"
	return nil
}

// connect returns the shared connection, opening it (with retries) if there is none or it died;
// fresh reports a new one.
func (c *Client) connect(ctx context.Context) (cn *conn, fresh bool, err error) {
	if c.cn != nil {
		if c.cn.tr.IsAlive() && (time.Since(c.cn.used) < c.probeIdle || c.cn.tr.probe(min(c.cfg.Timeout, 5*time.Second))) {
			c.cn.used = time.Now()
			return c.cn, false, nil
		}
		c.log(ctx, "CLI connection found closed; reconnecting", map[string]any{"op": "connect"})
		c.drop()
	}
	backoff := retry.WithDefaults(c.cfg.Backoff, c.cfg.MaxBackoff).Start()
	for attempt := 1; ; attempt++ {
		start := time.Now()
		cn, transient, err := c.open(ctx)
		c.log(ctx, "CLI connect", map[string]any{"op": "connect", "attempt": attempt,
			"duration_ms": time.Since(start).Milliseconds(), "error": event.ErrText(err)})
		if err == nil {
			cn.used = time.Now()
			c.cn = cn
			return cn, true, nil
		}
		fail := &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "connect", Attempts: attempt, Err: err}
		if !transient || attempt > c.cfg.Retries || ctx.Err() != nil {
			return nil, false, fail
		}
		if !backoff.Wait(ctx) {
			return nil, false, fail
		}
	}
}

// open makes one connection attempt: SSH set-up, the platform's on-open (privileged exec,
// terminal settings) and the removal of what earlier runs left behind (EOS: abandoned
// configuration sessions; NX-OS: stale checkpoints). Only SSH set-up failures can be transient:
// once the CLI answered, commands were sent.
func (c *Client) open(ctx context.Context) (*conn, bool, error) {
	if c.cfg.Platform != platformEOS && c.cfg.Platform != platformNXOS {
		return nil, false, rssh.ConfigErr(fmt.Sprintf("platform %q is not a CLI platform this provider supports (%s, %s)",
			c.cfg.Platform, platformEOS, platformNXOS))
	}
	host, _, err := net.SplitHostPort(c.cfg.Address)
	if err != nil {
		return nil, false, rssh.ConfigErr(fmt.Sprintf("address %q is not host:port: %v", c.cfg.Address, err))
	}
	cb, algos, err := rssh.HostKeyCallback(c.cfg.HostKey, c.cfg.KnownHostsFile, c.cfg.Address, c.cfg.Insecure)
	if err != nil {
		return nil, false, err
	}
	auth, err := rssh.AuthMethods(c.cfg.PrivateKey, c.cfg.Password)
	if err != nil {
		return nil, false, err
	}
	tr := &sshTransport{ctx: ctx, address: c.cfg.Address, timeout: c.cfg.Timeout, config: &gossh.ClientConfig{
		User: c.cfg.Username, Auth: auth, HostKeyCallback: cb, HostKeyAlgorithms: algos}}
	// The credentials stay in our transport: scrapligo is not given them, so its logs cannot hold them.
	p, err := platform.NewPlatform(c.cfg.Platform, host, options.WithCustomTransport(tr),
		options.WithTimeoutOps(c.cfg.Timeout), options.WithTimeoutSocket(c.cfg.Timeout))
	if err != nil {
		return nil, false, fmt.Errorf("loading scrapligo platform %q: %w", c.cfg.Platform, err)
	}
	d, err := p.GetNetworkDriver()
	if err != nil {
		return nil, false, fmt.Errorf("loading scrapligo platform %q: %w", c.cfg.Platform, err)
	}
	fixPrompts(c.cfg.Platform, d)
	cn := &conn{d: d, tr: tr}
	// SSH set-up has its own Timeout (in Open); the on-open commands get another.
	stop := guard(ctx, cn, time.Now().Add(2*c.cfg.Timeout))
	err = d.Open()
	stop()
	if err != nil {
		_ = tr.Close()
		if terr := tr.openError(); terr != nil {
			transient, terr := c.dialFailure(ctx, terr)
			return nil, transient, terr
		}
		return nil, false, fmt.Errorf("the CLI did not reach privileged exec after login (`enable` must need no password): %w",
			c.cause(ctx, cn, err))
	}
	// What earlier runs left behind: EOS sessions, NX-OS checkpoints.
	cleanup, what := c.removeAbandonedSessions, "configuration sessions"
	if c.cfg.Platform == platformNXOS {
		cleanup, what = c.removeStaleCheckpoints, "checkpoints"
	}
	until := time.Now().Add(c.cfg.Timeout)
	stop = guard(ctx, cn, until)
	err = setBudget(cn, until)
	if err == nil {
		err = cleanup(ctx, cn)
	}
	stop()
	if err != nil {
		_ = d.Channel.Close()
		_ = tr.Close()
		return nil, false, fmt.Errorf("listing %s after login: %w", what, c.cause(ctx, cn, err))
	}
	return cn, false, nil
}

// drop closes the shared connection without a word to the device: it is dead or in an unknown
// state.
func (c *Client) drop() {
	if c.cn == nil {
		return
	}
	_ = c.cn.d.Channel.Close()
	_ = c.cn.tr.Close()
	c.cn = nil
}

// log reports an event of this client (event.Log).
func (c *Client) log(ctx context.Context, msg string, fields map[string]any) {
	event.Log(ctx, c.cfg.Logger, c.cfg.Device, c.cfg.Address, msg, fields)
}

// logStep logs one command of a configure transaction, named by kind ("session" on EOS,
// "checkpoint" on NX-OS) and name. A command the device refused logs the device's answer, as
// text puts it, as the error.
func (c *Client) logStep(ctx context.Context, kind, name, command string, err error, out []byte, texts []string, text func(string) string) {
	fields := map[string]any{"op": "configure", kind: name, "command": command, "error": event.ErrText(err)}
	if err == nil && refused(string(out), texts) {
		fields["error"] = text(string(out))
	}
	c.log(ctx, "CLI configure", fields)
}
