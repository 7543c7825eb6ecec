package cli

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/event/eventtest"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/internal/sshtest"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	rssh "github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
)

func TestHostKeys(t *testing.T) {
	s := newFakeEOS(t, "")
	other := newFakeEOS(t, "")
	fp := gossh.FingerprintSHA256(s.HostKey.PublicKey())

	c := newClient(t, s, func(c *Config) { c.HostKey = other.Pinned(); c.Retries = 3 })
	_, err := c.Show(context.Background(), "show version")
	e := asError(t, err, "connect")
	var hk *rssh.HostKeyError
	if !errors.As(err, &hk) || !strings.Contains(e.Error(), fp) || !strings.Contains(e.Error(), s.Addr) {
		t.Errorf("pinned mismatch: %v", err)
	}
	if n := s.Accepts.Load(); n != 1 {
		t.Errorf("host key failure retried: %d connections", n)
	}

	dir := t.TempDir()
	known := filepath.Join(dir, "known_hosts")
	line := knownhosts.Line([]string{knownhosts.Normalize(s.Addr)}, s.HostKey.PublicKey()) + "\n"
	if err := os.WriteFile(known, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	mustShow(t, newClient(t, s, func(c *Config) { c.HostKey, c.KnownHostsFile = "", known }), "show version")

	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = newClient(t, s, func(c *Config) { c.HostKey, c.KnownHostsFile = "", empty }).Show(context.Background(), "show version")
	if !errors.As(err, &hk) || !strings.Contains(err.Error(), "unknown host") || !strings.Contains(err.Error(), fp) {
		t.Errorf("unknown host: %v", err)
	}

	mustShow(t, newClient(t, s, func(c *Config) {
		c.HostKey, c.KnownHostsFile, c.Insecure = "", filepath.Join(dir, "missing"), true
	}), "show version")
}

func TestReconnectAfterServerDrop(t *testing.T) {
	s := newFakeEOS(t, "")
	c := newClient(t, s, nil)
	mustShow(t, c, "show version")
	s.DropAll()
	deadline := time.Now().Add(5 * time.Second)
	for c.cn.tr.IsAlive() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if out := mustShow(t, c, "show version"); !strings.HasPrefix(out[0], "Arista") {
		t.Errorf("after reconnect: %q", out)
	}
	if n := s.Accepts.Load(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
}

func TestRetryRefusedThenConnect(t *testing.T) {
	addr := sshtest.FreeAddr(t)
	log := &eventtest.Recorder{}
	c := New(Config{Config: rssh.Config{Device: "leaf-1", Address: addr, Username: "admin", Password: "secret", Insecure: true,
		Attempts: retry.Attempts{Timeout: 5 * time.Second, Retries: 10, Backoff: 20 * time.Millisecond,
			MaxBackoff: 100 * time.Millisecond}, Logger: log}, Platform: "arista_eos"})
	t.Cleanup(func() { _ = c.Close() })
	started := make(chan *fakeEOS, 1)
	go func() {
		time.Sleep(150 * time.Millisecond)
		started <- newFakeEOS(t, addr)
	}()
	mustShow(t, c, "show version")
	s := <-started
	if n := strings.Count(log.String(), "CLI connect "); n < 2 || s.Accepts.Load() != 1 {
		t.Errorf("%d connect attempts, %d accepted:\n%s", n, s.Accepts.Load(), log.String())
	}
}

func TestNoRetryOnAuthFailure(t *testing.T) {
	s := newFakeEOS(t, "")
	c := newClient(t, s, func(c *Config) { c.Password, c.Retries = "wrong", 3 })
	_, err := c.Show(context.Background(), "show version")
	e := asError(t, err, "connect")
	if !strings.Contains(e.Error(), `authentication as "admin" failed`) || e.Attempts != 1 {
		t.Errorf("error = %v (attempts %d)", e, e.Attempts)
	}
	if n := s.Accepts.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
}

func TestStalledShowTimesOut(t *testing.T) {
	s := newFakeEOS(t, "")
	s.stall = "show stall"
	c := newClient(t, s, func(c *Config) { c.Timeout = 500 * time.Millisecond })
	mustShow(t, c, "show version")
	start := time.Now()
	_, err := c.Show(context.Background(), "show stall")
	TimedOut(t, asError(t, err, "show"), 500*time.Millisecond, start, 3*time.Second)
	mustShow(t, c, "show version") // on a new connection
	if n := s.Accepts.Load(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
}

func TestCancelStopsAStalledShow(t *testing.T) {
	s := newFakeEOS(t, "")
	s.stall = "show stall"
	c := newClient(t, s, nil)
	mustShow(t, c, "show version")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Show(ctx, "show stall")
	if e := asError(t, err, "show"); !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
		t.Errorf("error = %v after %s", e, time.Since(start))
	}
	mustShow(t, c, "show version")
}

// TestSilentlyDeadConnectionIsProbed: a connection that stopped answering without closing (a
// firewall dropped it) is found by the keepalive probe before a command is lost in it.
func TestSilentlyDeadConnectionIsProbed(t *testing.T) {
	s := newFakeEOS(t, "")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	var blackhole atomic.Bool // the first proxied connection's traffic is swallowed once set
	go func() {
		for first := true; ; first = false {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", s.Addr)
			if err != nil {
				_ = in.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, in, out)
			mu.Unlock()
			pipe := func(dst, src net.Conn, swallow bool) {
				buf := make([]byte, 4096)
				for {
					n, err := src.Read(buf)
					if err != nil {
						return
					}
					if !swallow || !blackhole.Load() {
						_, _ = dst.Write(buf[:n])
					}
				}
			}
			go pipe(out, in, first)
			go pipe(in, out, first)
		}
	}()
	c := newClient(t, s, func(c *Config) { c.Address, c.Timeout = ln.Addr().String(), 500*time.Millisecond })
	c.probeIdle = 0
	mustShow(t, c, "show version")
	blackhole.Store(true)
	mustShow(t, c, "show version") // probed, found dead, reconnected: no command was lost
	if n := s.Accepts.Load(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
}
