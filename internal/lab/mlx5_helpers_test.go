package lab

// The host tests log in with a plain golang.org/x/crypto/ssh client (room labtest's), the
// way any SSH client would from the inventory: password authentication
// against the pinned host key.

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// startHosts starts a lab of mlx5 hosts only (fast: no gNMI datastore).
func startHosts(t *testing.T, n int, opts ...func(*Options)) *Lab {
	t.Helper()
	o := Options{Hosts: map[string]int{"mlx5": n}}
	for _, f := range opts {
		f(&o)
	}
	l := startLab(t, o)
	return l
}

// The SSH test client is room labtest's.
var (
	sshDial   = labtest.SSHDial
	sshClient = labtest.SSHClient
	runOn     = labtest.RunOn
)

// hostEnv is one host of a fresh lab with a logged-in client.
type hostEnv struct {
	labtest.Shell
	l *Lab
	h *Host
	d DeviceEntry
}

func newHostEnv(t *testing.T) *hostEnv {
	t.Helper()
	l := startHosts(t, 1)
	d := l.Inventory().Devices["mlx5-1"]
	return &hostEnv{Shell: labtest.Shell{T: t, C: sshClient(t, d)}, l: l, h: l.Host("mlx5-1"), d: d}
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
