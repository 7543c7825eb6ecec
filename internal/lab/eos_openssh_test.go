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

// TestEOSWithOpenSSH types into the switch's CLI through the real OpenSSH client with a pty
// (ssh -tt): host key pinned from the inventory, password through SSH_ASKPASS, the echo, the
// prompts and the output as an engineer's terminal gets them.
func TestEOSWithOpenSSH(t *testing.T) {
	sshBin, err := exec.LookPath("ssh")
	if err != nil {
		if os.Getenv("ROCE_REQUIRE_SSHD") == "1" {
			t.Fatal("no OpenSSH client (ssh) on PATH but ROCE_REQUIRE_SSHD=1: .ci/run installs openssh-server, which brings it")
		}
		t.Skip("no OpenSSH client (ssh) on PATH (.ci/run installs it); the scrapligo and golang.org/x/crypto/ssh tests cover the protocol")
	}
	l, sw := startEOS(t)
	d := l.Inventory().Devices["eos-1"]
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

	typed := "show hostname\nenable\nconf t\nint Et1\nservice-profile ROCE\nmtu 99999\nend\nsh run int Et1\nexit\n"
	want := strings.ReplaceAll(`eos-1>show hostname
Hostname: eos-1
FQDN:     eos-1
eos-1>enable
eos-1#conf t
eos-1(config)#int Et1
eos-1(config-if-Et1)#service-profile ROCE
eos-1(config-if-Et1)#mtu 99999
% Invalid input (at token 1: '99999')
eos-1(config-if-Et1)#end
eos-1#sh run int Et1
interface Ethernet1
   service-profile ROCE
eos-1#exit
`, "\n", "\r\n")
	out, errOut, status := ssh(typed, "-tt")
	if out != want || status != 0 {
		t.Errorf("OpenSSH terminal: exit %d, stderr %q, got:\n%q\nwant:\n%q", status, errOut, out, want)
	}

	// An exec request runs one command in privileged mode, as `ssh switch show ...` does.
	out, errOut, status = ssh("", "show running-config")
	if out != sw.RunningConfig() || status != 0 {
		t.Errorf("ssh eos-1 show running-config: exit %d, stderr %q:\n%s", status, errOut, out)
	}
}
