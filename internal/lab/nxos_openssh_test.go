package lab

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNXOSWithOpenSSH types into the switch's CLI through the real OpenSSH client with a pty
// (ssh -tt): host key pinned from the inventory, password through SSH_ASKPASS, the echo, the
// prompts with their trailing space, a caret error and the output as an engineer's terminal
// gets them.
func TestNXOSWithOpenSSH(t *testing.T) {
	sshBin, err := exec.LookPath("ssh")
	if err != nil {
		if os.Getenv("ROCE_REQUIRE_SSHD") == "1" {
			t.Fatal("no OpenSSH client (ssh) on PATH but ROCE_REQUIRE_SSHD=1: .ci/run installs openssh-server, which brings it")
		}
		t.Skip("no OpenSSH client (ssh) on PATH (.ci/run installs it); the scrapligo and golang.org/x/crypto/ssh tests cover the protocol")
	}
	l, sw := startNXOS(t)
	d := l.Inventory().Devices["nxos-1"]
	dir := t.TempDir()
	host, port, _ := net.SplitHostPort(d.Address)
	known := filepath.Join(dir, "known_hosts")
	if err := os.WriteFile(known, []byte(fmt.Sprintf("[%s]:%s %s\n", host, port, d.HostKey)), 0o600); err != nil {
		t.Fatal(err)
	}
	askpass := filepath.Join(dir, "askpass")
	if err := os.WriteFile(askpass, []byte("#!/bin/sh\necho '"+d.Password+"'\n"), 0o700); err != nil { //nolint:gosec // a script must be executable
		t.Fatal(err)
	}
	ssh := func(stdin string, args ...string) (string, string, int) {
		cmd := exec.Command(sshBin, append([]string{"-F", "/dev/null",
			"-o", "UserKnownHostsFile=" + known, "-o", "GlobalKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=yes",
			"-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=keyboard-interactive,password",
			"-o", "NumberOfPasswordPrompts=1", "-o", "ConnectTimeout=10", "-o", "LogLevel=ERROR",
			"-p", port, d.Username + "@" + host}, args...)...)
		cmd.Env = append(os.Environ(), "SSH_ASKPASS="+askpass, "SSH_ASKPASS_REQUIRE=force", "DISPLAY=lab:0")
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

	typed := "show hostname\nconf t\npolicy-map type qos ROCE\nclass class-default\nset qos-group 9\nset qos-group 0\n" +
		"int e1/1\nservice-policy type qos input ROCE\nend\nsh run intrface e1/1\ncheckpoint cp\nexit\n"
	want := strings.ReplaceAll(`nxos-1# show hostname
nxos-1
nxos-1# conf t
Enter configuration commands, one per line. End with CNTL/Z.
nxos-1(config)# policy-map type qos ROCE
nxos-1(config-pmap-qos)# class class-default
nxos-1(config-pmap-c-qos)# set qos-group 9
                                         ^
% Invalid number, range is (0:7) at '^' marker.
nxos-1(config-pmap-c-qos)# set qos-group 0
nxos-1(config-pmap-c-qos)# int e1/1
nxos-1(config-if)# service-policy type qos input ROCE
nxos-1(config-if)# end
nxos-1# sh run intrface e1/1
               ^
% Invalid command at '^' marker.
nxos-1# checkpoint cp
Done
nxos-1# exit
`, "\n", "\r\n")
	out, errOut, status := ssh(typed, "-tt")
	if out != want || status != 0 {
		t.Errorf("OpenSSH terminal: exit %d, stderr %q, got:\n%q\nwant:\n%q", status, errOut, out, want)
	}
	if got := sw.Checkpoints(); len(got) != 1 || got[0] != "cp" {
		t.Errorf("checkpoints %v", got)
	}

	// An exec request runs one command, as `ssh switch show ...` does.
	out, errOut, status = ssh("", "show running-config ipqos")
	if withoutTimes(out) != sw.RunningConfig() || status != 0 {
		t.Errorf("ssh nxos-1 show running-config ipqos: exit %d, stderr %q:\n%s", status, errOut, out)
	}
}
