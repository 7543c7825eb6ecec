package ssh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/internal/sshtest"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/retry"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

const sshdPath = "/usr/sbin/sshd" // sshd insists on being started by absolute path

// TestInteropOpenSSH runs the client against a real OpenSSH sshd that the test starts on a free
// loopback port, with throwaway host and client keys.
func TestInteropOpenSSH(t *testing.T) {
	if _, err := os.Stat(sshdPath); err != nil {
		if os.Getenv("ROCE_REQUIRE_SSHD") == "1" {
			t.Fatalf("interop with OpenSSH: %s not installed but ROCE_REQUIRE_SSHD=1: .ci/run installs openssh-server", sshdPath)
		}
		t.Skipf("interop with OpenSSH skipped: %s not installed: .ci/run installs openssh-server", sshdPath)
	}
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	_, hostPEM, hostPub := sshtest.NewKey(t)
	_, clientPEM, clientPub := sshtest.NewKey(t)
	addr := startSSHD(t, me.Username, hostPEM, clientPub)
	pinned := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(hostPub)))
	client := func(edit func(*Config)) *Client {
		cfg := Config{Device: "gpu-1", Address: addr, Username: me.Username, PrivateKey: clientPEM, HostKey: pinned,
			Attempts: retry.Attempts{Timeout: 10 * time.Second, Backoff: 50 * time.Millisecond}}
		if edit != nil {
			edit(&cfg)
		}
		c := New(cfg)
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	ctx := context.Background()

	t.Run("key auth and pinned host key", func(t *testing.T) {
		res, err := client(nil).Run(ctx, "echo hello; id -u", nil)
		if want := fmt.Sprintf("hello\n%d\n", os.Getuid()); err != nil || string(res.Stdout) != want || res.ExitCode != 0 {
			t.Errorf("got %q (exit %d), %v; want %q", res.Stdout, res.ExitCode, err, want)
		}
	})

	t.Run("known_hosts", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "known_hosts")
		line := knownhosts.Line([]string{knownhosts.Normalize(addr)}, hostPub) + "\n"
		if err := os.WriteFile(path, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		res, err := client(func(c *Config) { c.HostKey, c.KnownHostsFile = "", path }).Run(ctx, "echo known", nil)
		if err != nil || string(res.Stdout) != "known\n" {
			t.Errorf("got %q, %v", res.Stdout, err)
		}
	})

	t.Run("exit status, stdin and quoting through a login shell", func(t *testing.T) {
		c := client(nil)
		if res, err := c.Run(ctx, "echo oops >&2; exit 7", nil); err != nil || res.ExitCode != 7 || string(res.Stderr) != "oops\n" {
			t.Errorf("exit 7: %+v, %v", res, err)
		}
		if res, err := c.Run(ctx, "cat", []byte("from stdin\n")); err != nil || string(res.Stdout) != "from stdin\n" {
			t.Errorf("cat: %q, %v", res.Stdout, err)
		}
		// The command line reaches the remote shell byte for byte (quoting is the caller's:
		// platform/mlx5 shQuote, tested against /bin/sh there).
		res, err := c.Run(ctx, `printf '[%s]' 'it'\''s' 'a b' '$(id)' "\$HOME" 'tab	here'`, nil)
		if want := "[it's][a b][$(id)][$HOME][tab	here]"; err != nil || string(res.Stdout) != want {
			t.Errorf("command line: got %q, %v\nwant %q", res.Stdout, err, want)
		}
	})

	t.Run("runs share one connection", func(t *testing.T) {
		c := client(nil)
		seen := make([]string, 12)
		var wg sync.WaitGroup
		for i := range seen {
			wg.Go(func() {
				res, err := c.Run(ctx, `echo "$SSH_CONNECTION"`, nil)
				if err != nil {
					t.Error(err)
				}
				seen[i] = strings.TrimSpace(string(res.Stdout))
			})
		}
		wg.Wait()
		for _, s := range seen {
			if s == "" || s != seen[0] {
				t.Fatalf("runs came from different connections (client address and port): %q", seen)
			}
		}
	})

	t.Run("timeout kills the command", func(t *testing.T) {
		c := client(func(c *Config) { c.Timeout = time.Second })
		_, err := c.Run(ctx, "sleep 37.25", nil)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "within the timeout of 1s") {
			t.Fatalf("got %v", err)
		}
		if os.Geteuid() == 0 {
			// sshd delivers signals only through privilege separation, which a root login
			// does not use ("session signalling requires privilege separation"): the command
			// outlives its closed session. End it here.
			if pid := running(t, "sleep\x0037.25\x00"); pid > 0 {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Log("running as root: sshd cannot signal a root session; the timed-out command was killed by the test")
		} else {
			deadline := time.Now().Add(5 * time.Second)
			for running(t, "sleep\x0037.25\x00") > 0 {
				if time.Now().After(deadline) {
					t.Fatal("sleep 37.25 still runs after the timeout")
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		if res, err := c.Run(ctx, "echo after", nil); err != nil || string(res.Stdout) != "after\n" {
			t.Errorf("after the timeout: %q, %v", res.Stdout, err)
		}
	})

	t.Run("unauthorized key", func(t *testing.T) {
		_, otherPEM, _ := sshtest.NewKey(t)
		_, err := client(func(c *Config) { c.PrivateKey = otherPEM }).Run(ctx, "true", nil)
		if want := fmt.Sprintf("authentication as %q failed", me.Username); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %s", err, want)
		}
	})

	t.Run("pinned host key mismatch", func(t *testing.T) {
		_, _, other := sshtest.NewKey(t)
		_, err := client(func(c *Config) { c.HostKey = string(gossh.MarshalAuthorizedKey(other)) }).Run(ctx, "true", nil)
		want := fmt.Sprintf(`SSH to device "gpu-1" (%s): host key mismatch: the host presented ssh-ed25519 %s, which is not the pinned host_key`,
			addr, gossh.FingerprintSHA256(hostPub))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("got %v\nwant %s", err, want)
		}
	})
}

// startSSHD runs sshd -D in the foreground on a free loopback port, admitting only user with
// clientKey, and stops it when the test ends. It returns the address.
func startSSHD(t *testing.T, username string, hostKeyPEM []byte, clientKey gossh.PublicKey) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	addr := sshtest.FreeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	lines := []string{
		"ListenAddress 127.0.0.1", "Port " + port,
		"HostKey " + write("host_ed25519", hostKeyPEM),
		"AuthorizedKeysFile " + write("authorized_keys", gossh.MarshalAuthorizedKey(clientKey)),
		"PidFile " + filepath.Join(dir, "sshd.pid"),
		"UsePAM no", "StrictModes no", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
		"PubkeyAuthentication yes", "AllowUsers " + username, "LogLevel VERBOSE",
		// bash runs ~/.bashrc for a command from sshd only as a top-level shell (shell.c:
		// shell_level < 2): with SHLVL=1 the login user's rc files stay out of the test. They are
		// the machine's, not what is tested, and can stall concurrent sessions (pyenv's
		// `pyenv rehash` in root's .bashrc takes a lock for up to 60 s).
		"SetEnv SHLVL=1",
	}
	if os.Geteuid() == 0 {
		lines = append(lines, "PermitRootLogin prohibit-password")
	}
	// OpenSSH 9.8+ shuts out, for a while, clients that left before authenticating (as the
	// mismatch test does); older versions do not know the keyword.
	config := write("sshd_config", []byte(strings.Join(append(lines, "PerSourcePenalties no"), "\n")+"\n"))
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil { // the privilege separation directory
		t.Logf("creating /run/sshd: %v", err)
	}
	if out, err := exec.Command(sshdPath, "-t", "-f", config).CombinedOutput(); err != nil {
		config = write("sshd_config", []byte(strings.Join(lines, "\n")+"\n"))
		if out2, err := exec.Command(sshdPath, "-t", "-f", config).CombinedOutput(); err != nil {
			t.Fatalf("sshd -t rejects the test config: %v\n%s%s", err, out, out2)
		}
	}

	var logs syncBuffer
	cmd := exec.Command(sshdPath, "-D", "-e", "-f", config)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("sshd log:\n%s", logs.String())
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("sshd exited early:\n%s", logs.String())
		default:
		}
		if nc, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			_ = nc.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshd does not accept on %s after 10s:\n%s", addr, logs.String())
		}
	}
}

// running returns the pid of a process with exactly this NUL-separated command line, or 0.
func running(t *testing.T, cmdline string) int {
	t.Helper()
	procs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && string(b) == cmdline {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			return pid
		}
	}
	return 0
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
