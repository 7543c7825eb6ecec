// Package ssh is the provider's SSH transport for Linux hosts: one lazily opened SSH connection
// per device, shared by concurrent commands (one session each), host keys verified by default
// (pinned key or known_hosts), retries of transport failures only, typed results and errors. It
// knows nothing about QoS.
package ssh

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/event"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	gossh "golang.org/x/crypto/ssh"
)

// Config is everything needed to reach one SSH host.
type Config struct {
	Device   string // the provider's name for the device, used in errors
	Address  string // host:port
	Username string
	Password string // also answers keyboard-interactive prompts
	// PrivateKey is an unencrypted private key, PEM or OpenSSH format.
	PrivateKey []byte
	// HostKey pins the host key, authorized_keys form ("ssh-ed25519 AAAA..."). When empty the
	// host key is checked against KnownHostsFile.
	HostKey string
	// KnownHostsFile is used when HostKey is empty; "" means ~/.ssh/known_hosts.
	KnownHostsFile string
	// Insecure skips host key verification. Only by explicit choice.
	Insecure bool
	// Attempts: Timeout bounds the dial plus handshake, and each command (0 means 30s);
	// Retries are the extra attempts after a transport failure.
	retry.Attempts
	Logger Logger
}

// Logger receives transport events (event.Logger, every transport's).
type Logger = event.Logger

// Result is what a command that ran returned. A non-zero ExitCode is not an error.
type Result struct {
	Stdout, Stderr []byte
	// ExitCode is the command's exit status; a command killed by signal N reports 128+N.
	ExitCode int
}

// maxSessions bounds the sessions open at once on one connection, below OpenSSH's default
// MaxSessions (10), so concurrent Runs queue instead of being refused.
const maxSessions = 8

// Client runs commands on one host. It is safe for concurrent use; the connection opens on the
// first Run and is then shared, each Run opening its own session on it.
type Client struct {
	cfg      Config
	sessions chan struct{}

	mu   sync.Mutex // held while dialing, so concurrent first Runs share one connection
	conn *gossh.Client
}

// New returns a client for cfg without connecting.
func New(cfg Config) *Client {
	return &Client{cfg: cfg.WithDefaults(), sessions: make(chan struct{}, maxSessions)}
}

// WithDefaults is c with its zero durations filled (retry.Attempts.WithDefaults).
func (c Config) WithDefaults() Config {
	c.Attempts = c.Attempts.WithDefaults()
	return c
}

// Config returns the client's configuration.
func (c *Client) Config() Config { return c.cfg }

func (c *Client) String() string { return fmt.Sprintf("%s (%s)", c.cfg.Device, c.cfg.Address) }

// Close drops the connection; a later Run reconnects.
func (c *Client) Close() error {
	c.mu.Lock()
	conn := c.conn
	c.conn = nil
	c.mu.Unlock()
	if conn == nil {
		return nil
	}
	if err := conn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// connect returns the shared connection, dialing it if needed; fresh reports a new connection.
func (c *Client) connect(ctx context.Context, attempt int) (conn *gossh.Client, fresh bool, f *failure) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil {
		return c.conn, false, nil
	}
	start := time.Now()
	conn, err := c.dial(ctx)
	c.log(ctx, "SSH connect", map[string]any{"attempt": attempt, "duration_ms": time.Since(start).Milliseconds(), "error": event.ErrText(err)})
	if err != nil {
		return nil, false, c.dialFailure(ctx, err)
	}
	c.conn = conn
	go func() {
		_ = conn.Wait() // returns when the connection drops, either side
		c.drop(conn)
	}()
	return conn, true, nil
}

// drop forgets conn (if it is still the shared one) and closes it.
func (c *Client) drop(conn *gossh.Client) {
	c.mu.Lock()
	if c.conn == conn {
		c.conn = nil
	}
	c.mu.Unlock()
	_ = conn.Close()
}

func (c *Client) dial(ctx context.Context) (*gossh.Client, error) {
	cfg, err := c.clientConfig()
	if err != nil {
		return nil, err
	}
	dctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(dctx, "tcp", c.cfg.Address)
	if err != nil {
		return nil, c.timeoutCause(ctx, dctx, "TCP connect", err)
	}
	if deadline, ok := dctx.Deadline(); ok {
		_ = nc.SetDeadline(deadline)
	}
	stop := context.AfterFunc(dctx, func() { _ = nc.Close() })
	sc, chans, reqs, err := gossh.NewClientConn(nc, c.cfg.Address, cfg)
	if !stop() && err == nil { // the deadline closed the socket just after the handshake
		_ = sc.Close()
		err = dctx.Err()
	}
	if err != nil {
		_ = nc.Close()
		return nil, c.timeoutCause(ctx, dctx, "SSH handshake", err)
	}
	_ = nc.SetDeadline(time.Time{})
	return gossh.NewClient(sc, chans, reqs), nil
}

// timeoutCause names the timeout when the per-attempt deadline (not the caller's) ended a step.
func (c *Client) timeoutCause(ctx, dctx context.Context, step string, err error) error {
	deadline, _ := dctx.Deadline()
	if ctx.Err() == nil && (dctx.Err() != nil || !time.Now().Before(deadline) || errors.Is(err, os.ErrDeadlineExceeded)) {
		return &timeoutError{what: step + " did not finish within the timeout of " + c.cfg.Timeout.String(), err: err}
	}
	return err
}

func (c *Client) clientConfig() (*gossh.ClientConfig, error) {
	auth, err := AuthMethods(c.cfg.PrivateKey, c.cfg.Password)
	if err != nil {
		return nil, err
	}
	cb, algos, err := c.hostKeyCallback()
	if err != nil {
		return nil, err
	}
	return &gossh.ClientConfig{
		User: c.cfg.Username, Auth: auth, HostKeyCallback: cb, HostKeyAlgorithms: algos,
	}, nil
}

// AuthMethods offers the private key first (when given), then the password, also as the
// answer to keyboard-interactive prompts (what many switches ask for): for this transport and
// the CLI one.
func AuthMethods(privateKey []byte, password string) ([]gossh.AuthMethod, error) {
	var methods []gossh.AuthMethod
	if len(privateKey) > 0 {
		signer, err := gossh.ParsePrivateKey(privateKey)
		var missing *gossh.PassphraseMissingError
		switch {
		case errors.As(err, &missing):
			return nil, &configError{"private_key is protected by a passphrase, which is not supported: give an unencrypted key"}
		case err != nil:
			return nil, &configError{fmt.Sprintf("private_key is not a private key in PEM or OpenSSH format: %v", err)}
		}
		methods = append(methods, gossh.PublicKeys(signer))
	}
	if password != "" {
		answer := func(_, _ string, questions []string, _ []bool) ([]string, error) {
			answers := make([]string, len(questions))
			for i := range answers {
				answers[i] = password
			}
			return answers, nil
		}
		methods = append(methods, gossh.Password(password), gossh.KeyboardInteractive(answer))
	}
	if len(methods) == 0 {
		return nil, &configError{"no credentials: set password or private_key"}
	}
	return methods, nil
}

// log reports an event of this client (event.Log).
func (c *Client) log(ctx context.Context, msg string, fields map[string]any) {
	event.Log(ctx, c.cfg.Logger, c.cfg.Device, c.cfg.Address, msg, fields)
}
