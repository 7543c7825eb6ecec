package ssh

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/event/eventtest"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/internal/sshtest"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// newClient makes a client of s authenticating as admin/secret with the pinned host key.
func newClient(t *testing.T, s *testServer, edit func(*Config)) *Client {
	t.Helper()
	cfg := Config{Device: "gpu-1", Address: s.Addr, Username: "admin", Password: "secret",
		HostKey: s.Pinned(), Attempts: retry.Attempts{Timeout: 5 * time.Second, Backoff: 10 * time.Millisecond, MaxBackoff: 40 * time.Millisecond}}
	if edit != nil {
		edit(&cfg)
	}
	c := New(cfg)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func mustRun(t *testing.T, c *Client, cmd string, stdin []byte) Result {
	t.Helper()
	res, err := c.Run(context.Background(), cmd, stdin)
	if err != nil {
		t.Fatalf("Run(%q): %v", cmd, err)
	}
	return res
}

// runErr runs a command that must fail and returns its *Error.
func runErr(t *testing.T, c *Client, cmd string) *Error {
	t.Helper()
	_, err := c.Run(context.Background(), cmd, nil)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Run(%q) = %v, want *Error", cmd, err)
	}
	if !strings.HasPrefix(e.Error(), `SSH to device "gpu-1" (`+c.cfg.Address+")") {
		t.Errorf("error does not name the device and address: %v", e)
	}
	return e
}

func TestPasswordAuthEchoAndStdin(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret"})
	log := &eventtest.Recorder{}
	c := newClient(t, s, func(c *Config) { c.Logger = log })
	if res := mustRun(t, c, "echo hello", nil); string(res.Stdout) != "hello\n" || res.ExitCode != 0 {
		t.Errorf("echo = %+v", res)
	}
	if res := mustRun(t, c, "cat", []byte("line 1\nline 2\n")); string(res.Stdout) != "line 1\nline 2\n" {
		t.Errorf("cat = %q", res.Stdout)
	}
	if events := log.Events(); len(events) != 3 || !strings.HasPrefix(events[0], "SSH connect") || !strings.Contains(events[2], "exit_code:0") {
		t.Errorf("log events = %q", events)
	}
}

func TestPrivateKeyAuth(t *testing.T) {
	_, openssh, pub := sshtest.NewKey(t)
	s := newTestServer(t, serverOpts{authorized: pub})
	for name, key := range map[string][]byte{"openssh": openssh, "pkcs8": pkcs8PEM(t, openssh)} {
		t.Run(name, func(t *testing.T) {
			c := newClient(t, s, func(c *Config) { c.Password, c.PrivateKey = "", key })
			if res := mustRun(t, c, "echo key", nil); string(res.Stdout) != "key\n" {
				t.Errorf("got %q", res.Stdout)
			}
		})
	}
	c := newClient(t, s, func(c *Config) { c.Password, c.PrivateKey = "", []byte("not a key") })
	if e := runErr(t, c, "echo x"); !strings.Contains(e.Error(), "private_key is not a private key") || s.Accepts.Load() != 2 {
		t.Errorf("bad key: %v (accepts %d)", e, s.Accepts.Load())
	}
	c = newClient(t, s, func(c *Config) { c.Password = "" })
	if e := runErr(t, c, "echo x"); !strings.Contains(e.Error(), "no credentials") {
		t.Errorf("no credentials: %v", e)
	}
}

func TestKeyboardInteractiveAnsweredWithPassword(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret", kbdInteractive: true})
	if res := mustRun(t, newClient(t, s, nil), "echo ki", nil); string(res.Stdout) != "ki\n" {
		t.Errorf("got %q", res.Stdout)
	}
}

func TestWrongPasswordIsNotRetried(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret"})
	c := newClient(t, s, func(c *Config) { c.Password, c.Retries = "wrong", 3 })
	e := runErr(t, c, "echo x")
	if !strings.Contains(e.Error(), `authentication as "admin" failed`) || e.Attempts != 1 || s.Accepts.Load() != 1 {
		t.Errorf("got %v (attempts %d, accepts %d)", e, e.Attempts, s.Accepts.Load())
	}
}

func TestPinnedHostKey(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret"})
	mustRun(t, newClient(t, s, nil), "echo ok", nil)

	_, _, other := sshtest.NewKey(t)
	c := newClient(t, s, func(c *Config) {
		c.HostKey, c.Retries = string(gossh.MarshalAuthorizedKey(other)), 3
	})
	e := runErr(t, c, "echo x")
	want := fmt.Sprintf(`SSH to device "gpu-1" (%s): host key mismatch: the host presented ssh-ed25519 %s, which is not the pinned host_key`,
		s.Addr, gossh.FingerprintSHA256(s.HostKey.PublicKey()))
	var hk *HostKeyError
	if !strings.HasPrefix(e.Error(), want) || !errors.As(e, &hk) || e.Attempts != 1 || s.execs.Load() != 1 {
		t.Errorf("got %v (attempts %d, execs %d)\nwant prefix %s", e, e.Attempts, s.execs.Load(), want)
	}

	c = newClient(t, s, func(c *Config) { c.HostKey = "ssh-ed25519 garbage" })
	if e := runErr(t, c, "echo x"); !strings.Contains(e.Error(), "host_key is not a public key") {
		t.Errorf("bad host_key: %v", e)
	}
}

func TestKnownHosts(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret"})
	dir := t.TempDir()
	write := func(name string, key gossh.PublicKey) string {
		path := filepath.Join(dir, name)
		line := knownhosts.Line([]string{knownhosts.Normalize(s.Addr)}, key) + "\n"
		if err := os.WriteFile(path, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	_, _, other := sshtest.NewKey(t)
	otherHost := knownhosts.Line([]string{"[10.9.9.9]:22"}, s.HostKey.PublicKey()) + "\n"
	unknown := filepath.Join(dir, "unknown")
	if err := os.WriteFile(unknown, []byte(otherHost), 0o600); err != nil {
		t.Fatal(err)
	}
	fp := "ssh-ed25519 " + gossh.FingerprintSHA256(s.HostKey.PublicKey())
	for _, tc := range []struct{ name, file, want string }{
		{"ok", write("good", s.HostKey.PublicKey()), ""},
		{"unknown host", unknown, "unknown host: the host presented " + fp + ", which is not in known_hosts_file " + unknown + ": add it with ssh-keyscan, or pin host_key"},
		{"mismatch", write("bad", other), "host key mismatch: the host presented " + fp + ", but known_hosts_file " + filepath.Join(dir, "bad") + " has ssh-ed25519 " + gossh.FingerprintSHA256(other) + " (line 1)"},
		{"missing file", filepath.Join(dir, "absent"), "known_hosts_file " + filepath.Join(dir, "absent") + " cannot be read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, s, func(c *Config) { c.HostKey, c.KnownHostsFile, c.Retries = "", tc.file, 2 })
			_, err := c.Run(context.Background(), "echo kh", nil)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v\nwant %s", err, tc.want)
			case tc.want != "" && err.(*Error).Attempts != 1:
				t.Errorf("retried: %v", err)
			}
		})
	}
	t.Run("default ~/.ssh/known_hosts", func(t *testing.T) {
		t.Setenv("HOME", dir)
		if err := os.Mkdir(filepath.Join(dir, ".ssh"), 0o700); err != nil {
			t.Fatal(err)
		}
		write(".ssh/known_hosts", s.HostKey.PublicKey())
		mustRun(t, newClient(t, s, func(c *Config) { c.HostKey = "" }), "echo home", nil)
		mustRun(t, newClient(t, s, func(c *Config) { c.HostKey, c.KnownHostsFile = "", "~/.ssh/known_hosts" }), "echo tilde", nil)
	})
}

func TestInsecureSkipsHostKeyCheck(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret"})
	absent := filepath.Join(t.TempDir(), "absent")
	mustRun(t, newClient(t, s, func(c *Config) { c.HostKey, c.KnownHostsFile, c.Insecure = "", absent, true }), "echo x", nil)
	_ = runErr(t, newClient(t, s, func(c *Config) { c.HostKey, c.KnownHostsFile = "", absent }), "echo x")
}

func TestNonZeroExitIsAResultNotRetried(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret"})
	c := newClient(t, s, func(c *Config) { c.Retries = 3 })
	res := mustRun(t, c, "exit 3", nil)
	if res.ExitCode != 3 || string(res.Stderr) != "exit 3\n" || s.execs.Load() != 1 {
		t.Errorf("got %+v, execs %d", res, s.execs.Load())
	}
}

func TestTimeoutKillsTheSession(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret"})
	c := newClient(t, s, func(c *Config) { c.Timeout, c.Retries = 300*time.Millisecond, 3 })
	start := time.Now()
	e := runErr(t, c, "sleep 10s")
	took := time.Since(start)
	// the server takes the signal on its own goroutine: the client may return first
	for wait := time.Now(); s.killed.Load() == 0 && time.Since(wait) < 2*time.Second; {
		time.Sleep(5 * time.Millisecond)
	}
	if !errors.Is(e, context.DeadlineExceeded) || !strings.Contains(e.Error(), "did not finish within the timeout of 300ms") ||
		took > 3*time.Second || s.killed.Load() != 1 || s.execs.Load() != 1 {
		t.Errorf("got %v after %s (killed %d, execs %d)", e, took, s.killed.Load(), s.execs.Load())
	}
	mustRun(t, c, "echo still", nil)
	if s.Accepts.Load() != 1 {
		t.Errorf("accepts = %d, want the connection kept", s.Accepts.Load())
	}

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := c.Run(ctx, "sleep 10s", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("caller's deadline: %v", err)
	}
}

func TestReconnectAfterServerDropsConnection(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret"})
	c := newClient(t, s, nil) // no retries: the reconnect is free once
	for i := 1; i <= 20; i++ {
		mustRun(t, c, "echo before", nil)
		s.DropAll()
		if i%2 == 0 {
			time.Sleep(10 * time.Millisecond) // let the client notice, or not
		}
	}
	mustRun(t, c, "echo after", nil)
	if got := s.Accepts.Load(); got != 21 {
		t.Errorf("accepts = %d, want 21", got)
	}
}

func TestDropWhileRunningIsNotRetried(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret"})
	c := newClient(t, s, func(c *Config) { c.Retries = 3 })
	e := runErr(t, c, "drop")
	if e.Op != "run" || e.Attempts != 1 || s.execs.Load() != 1 || !strings.Contains(e.Error(), "not retried") {
		t.Errorf("got %v (op %s, execs %d)", e, e.Op, s.execs.Load())
	}
	mustRun(t, c, "echo again", nil)
}

func TestConcurrentRunsShareOneConnection(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret"})
	c := newClient(t, s, nil)
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			res, err := c.Run(context.Background(), fmt.Sprintf("echo %d", i), nil)
			if err != nil || string(res.Stdout) != fmt.Sprintf("%d\n", i) {
				t.Errorf("run %d: %q, %v", i, res.Stdout, err)
			}
		})
	}
	wg.Wait()
	for range 10 {
		mustRun(t, c, "echo seq", nil)
	}
	if got := s.Accepts.Load(); got != 1 {
		t.Errorf("accepts = %d, want 1", got)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	mustRun(t, c, "echo reopened", nil)
	if got := s.Accepts.Load(); got != 2 {
		t.Errorf("accepts after Close = %d, want 2", got)
	}
}

func TestSessionRefusalsWaitForAFreeSlot(t *testing.T) {
	s := newTestServer(t, serverOpts{password: "secret", maxSessions: 2})
	c := newClient(t, s, nil) // no retries: refusals are waited out within the timeout
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			if res, err := c.Run(context.Background(), fmt.Sprintf("echo %d", i), nil); err != nil || res.ExitCode != 0 {
				t.Errorf("run %d: %+v, %v", i, res, err)
			}
		})
	}
	wg.Wait()
	if s.refused.Load() == 0 || s.Accepts.Load() != 1 || s.execs.Load() != 16 {
		t.Errorf("refused %d, accepts %d, execs %d", s.refused.Load(), s.Accepts.Load(), s.execs.Load())
	}
}

func TestDialFailuresAreRetried(t *testing.T) {
	addr := sshtest.FreeAddr(t)
	c := New(Config{Device: "gpu-1", Address: addr, Username: "admin", Password: "x", Insecure: true,
		Attempts: retry.Attempts{Retries: 2, Backoff: 10 * time.Millisecond}})
	e := runErr(t, c, "echo x")
	if e.Attempts != 3 || e.Op != "connect" || !strings.Contains(e.Error(), "after 3 attempts: dial tcp") ||
		!strings.Contains(e.Error(), "connection refused") {
		t.Errorf("got %v", e)
	}
}

func TestHandshakeTimeoutIsRetried(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	var mu sync.Mutex
	var held []net.Conn // accepted, never answered
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, nc := range held {
			_ = nc.Close()
		}
	})
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, nc)
			mu.Unlock()
		}
	}()
	c := New(Config{Device: "gpu-1", Address: ln.Addr().String(), Username: "admin", Password: "x", Insecure: true,
		Attempts: retry.Attempts{Timeout: 200 * time.Millisecond, Retries: 1, Backoff: 10 * time.Millisecond}})
	start := time.Now()
	e := runErr(t, c, "echo x")
	if e.Attempts != 2 || !errors.Is(e, context.DeadlineExceeded) || time.Since(start) > 2*time.Second ||
		!strings.Contains(e.Error(), "SSH handshake did not finish within the timeout of 200ms") {
		t.Errorf("got %v after %s", e, time.Since(start))
	}
}
