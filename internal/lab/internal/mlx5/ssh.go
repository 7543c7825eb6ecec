package mlx5

// The host's SSH sessions (the server is internal/sshd): what OpenSSH's sshd does for a user
// whose login shell is /bin/sh (dash, the shell Debian's useradd gives new users), with
// password and keyboard-interactive authentication and exec requests.

import (
	"io"

	"golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sshd"
)

// shellNotice answers an interactive login: the lab emulates commands, not
// a terminal session.
const shellNotice = "This lab host runs commands given with exec (ssh HOST 'COMMAND'); it has no interactive shell.\r\n"

// sshConfig: environment and pty requests are accepted and ignored before the command, the
// first exec or shell request runs (an exec after the injected faults, faultExec).
func (h *Host) sshConfig() sshd.Config {
	return sshd.Config{
		Version:     "SSH-2.0-OpenSSH_9.6p1 rocelab",
		Users:       map[string]string{h.user: h.password},
		Faults:      &h.faults,
		Connections: &h.tally.Connections,
		Latency:     h.latency,
		Session: sshd.Session{
			Accept: []string{"env", "pty-req"},
			Shell: func(ch ssh.Channel, _ string, _ *fault.Conn) int {
				_, _ = io.WriteString(ch.Stderr(), shellNotice)
				return 1
			},
			Exec: func(ch ssh.Channel, _, command string, _ bool, fc *fault.Conn) (int, bool) {
				h.tally.Requests.Add(1)
				return h.faultExec(ch, fc, command)
			},
		},
	}
}

// pause is the Options.Latency a remote host adds before answering an exec request, and
// fault.Slow's delay.
func (h *Host) pause() {
	h.faults.Pause(h.latency)
}

// stop closes the listener and every connection, and waits for every command to finish.
func (h *Host) Stop() { h.srv.Stop() }
