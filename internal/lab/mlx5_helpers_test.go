package lab

// The host tests log in with a plain golang.org/x/crypto/ssh client, the
// way any SSH client would from the inventory: password authentication
// against the pinned host key.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// startHosts starts a lab of mlx5 hosts only (fast: no gNMI datastore).
func startHosts(t *testing.T, n int, opts ...func(*Options)) *Lab {
	t.Helper()
	o := Options{Hosts: map[string]int{"mlx5": n}}
	for _, f := range opts {
		f(&o)
	}
	l, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Stop)
	return l
}

func hostKeyCallback(t *testing.T, authorized string) ssh.HostKeyCallback {
	t.Helper()
	pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(authorized))
	if err != nil {
		t.Fatalf("inventory host_key %q: %v", authorized, err)
	}
	return ssh.FixedHostKey(pub)
}

func sshDial(t *testing.T, d DeviceEntry, auth ...ssh.AuthMethod) (*ssh.Client, error) {
	t.Helper()
	if len(auth) == 0 {
		auth = []ssh.AuthMethod{ssh.Password(d.Password)}
	}
	return ssh.Dial("tcp", d.Address, &ssh.ClientConfig{
		User:            d.Username,
		Auth:            auth,
		HostKeyCallback: hostKeyCallback(t, d.HostKey),
		Timeout:         10 * time.Second,
	})
}

// sshClient is a logged-in client, closed at the end of the test.
func sshClient(t *testing.T, d DeviceEntry) *ssh.Client {
	t.Helper()
	c, err := sshDial(t, d)
	if err != nil {
		t.Fatalf("login to %s: %v", d.Address, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// runOn runs one command in a new session and returns what it printed
// and its exit status.
func runOn(t *testing.T, c *ssh.Client, cmd, stdin string) (stdout, stderr string, status int) {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	var out, errOut bytes.Buffer
	s.Stdout, s.Stderr, s.Stdin = &out, &errOut, strings.NewReader(stdin)
	err = s.Run(cmd)
	var exit *ssh.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitStatus()
	case err != nil:
		t.Fatalf("%q: %v", cmd, err)
	}
	return out.String(), errOut.String(), status
}

// hostEnv is one host of a fresh lab with a logged-in client.
type hostEnv struct {
	t *testing.T
	l *Lab
	h *Host
	d DeviceEntry
	c *ssh.Client
}

func newHostEnv(t *testing.T) *hostEnv {
	t.Helper()
	l := startHosts(t, 1)
	d := l.Inventory().Devices["mlx5-1"]
	return &hostEnv{t: t, l: l, h: l.Host("mlx5-1"), d: d, c: sshClient(t, d)}
}

func (e *hostEnv) run(cmd string) (string, string, int) {
	e.t.Helper()
	return runOn(e.t, e.c, cmd, "")
}

// must runs cmd and fails the test unless it exits 0 without stderr.
func (e *hostEnv) must(cmd string) string {
	e.t.Helper()
	out, errOut, status := e.run(cmd)
	if status != 0 || errOut != "" {
		e.t.Fatalf("%q: exit %d, stderr %q, stdout %q", cmd, status, errOut, out)
	}
	return out
}

// expect checks a command's whole result.
func (e *hostEnv) expect(cmd, stdout, stderr string, status int) {
	e.t.Helper()
	out, errOut, got := e.run(cmd)
	if out != stdout || errOut != stderr || got != status {
		e.t.Errorf("%q:\n got exit %d stdout %q stderr %q\nwant exit %d stdout %q stderr %q",
			cmd, got, out, errOut, status, stdout, stderr)
	}
}

// requireOpenSSH skips the test when no OpenSSH client is on PATH (covered says which tests
// check the protocol without it), or fails it under ROCE_REQUIRE_SSHD=1: CI installs
// openssh-server, which brings the client.
func requireOpenSSH(t *testing.T, covered string) {
	t.Helper()
	if _, err := exec.LookPath("ssh"); err != nil {
		if os.Getenv("ROCE_REQUIRE_SSHD") == "1" {
			t.Fatal("no OpenSSH client (ssh) on PATH but ROCE_REQUIRE_SSHD=1: .ci/run installs openssh-server, which brings it")
		}
		t.Skip("no OpenSSH client (ssh) on PATH (.ci/run installs it); " + covered + " cover the protocol")
	}
}

// openSSH is the real OpenSSH client on d (NewOpenSSH); its run types stdin into
// `ssh ... USER@HOST ARG` and returns the output, the error output and the exit status.
func openSSH(t *testing.T, d DeviceEntry) (*OpenSSH, func(stdin, arg string) (string, string, int)) {
	t.Helper()
	o, err := NewOpenSSH(d, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return o, func(stdin, arg string) (string, string, int) {
		cmd := o.Command(arg)
		cmd.Stdin = strings.NewReader(stdin)
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("ssh: %v", err)
		}
		return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
	}
}
