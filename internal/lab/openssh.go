package lab

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
)

// OpenSSH runs commands on a lab device with the real OpenSSH client, as an operator would:
// the host key pinned in a known_hosts file made from the inventory's host_key
// (StrictHostKeyChecking=yes), the password given through SSH_ASKPASS (no sshpass), no
// configuration file of the user's. Tests use it to check and change devices independently of
// the provider.
type OpenSSH struct {
	bin, knownHosts, askpass, host, port, user string
}

// NewOpenSSH prepares OpenSSH for device d, writing its files in dir. It fails when no ssh
// client is on PATH.
func NewOpenSSH(d DeviceEntry, dir string) (*OpenSSH, error) {
	bin, err := exec.LookPath("ssh")
	if err != nil {
		return nil, err
	}
	host, port, err := net.SplitHostPort(d.Address)
	if err != nil {
		return nil, err
	}
	o := &OpenSSH{bin: bin, host: host, port: port, user: d.Username,
		knownHosts: filepath.Join(dir, "known_hosts"), askpass: filepath.Join(dir, "askpass")}
	if err := o.Pin(d.HostKey); err != nil {
		return nil, err
	}
	//nolint:gosec // SSH_ASKPASS must be an executable
	if err := os.WriteFile(o.askpass, []byte("#!/bin/sh\necho '"+d.Password+"'\n"), 0o700); err != nil {
		return nil, err
	}
	return o, nil
}

// Pin makes key (authorized_keys form) the only one known for the device.
func (o *OpenSSH) Pin(key string) error {
	return os.WriteFile(o.knownHosts, []byte(fmt.Sprintf("[%s]:%s %s\n", o.host, o.port, key)), 0o600)
}

// Command is `ssh ... USER@HOST COMMAND`; set its output and run it.
func (o *OpenSSH) Command(command string) *exec.Cmd {
	cmd := exec.Command(o.bin, "-F", "/dev/null", //nolint:gosec // a test client: the command is the caller's
		"-o", "UserKnownHostsFile="+o.knownHosts, "-o", "GlobalKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=yes",
		"-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=keyboard-interactive,password",
		"-o", "NumberOfPasswordPrompts=1", "-o", "ConnectTimeout=10", "-o", "LogLevel=ERROR",
		"-p", o.port, o.user+"@"+o.host, command)
	cmd.Env = append(os.Environ(), "SSH_ASKPASS="+o.askpass, "SSH_ASKPASS_REQUIRE=force", "DISPLAY=lab:0")
	return cmd
}
