package cliswitch

// The SSH sessions of the CLI switches (the server is internal/sshd): password or
// keyboard-interactive login, a pty shell running the dialect's CLI through the line discipline
// (line.go), and exec requests that run one command, as `ssh switch show
// running-config` does on EOS and NX-OS.

import (
	"io"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sshd"
)

// sshConfig: pty, environment and window changes are accepted, also once the shell runs; the
// first shell or exec request runs.
func (sw *Switch) sshConfig() sshd.Config {
	return sshd.Config{
		Version:     "SSH-2.0-OpenSSH_8.7 rocelab",
		Users:       sw.users,
		Faults:      &sw.faults,
		Connections: &sw.tally.Connections,
		Latency:     sw.latency,
		Session: sshd.Session{
			Accept:     []string{"pty-req", "env", "window-change"},
			AcceptLate: true,
			Shell: func(ch ssh.Channel, user string, fc *fault.Conn) int {
				sw.runShell(ch, user, fc)
				return 0
			},
			Exec: func(ch ssh.Channel, user, command string, pty bool, fc *fault.Conn) (int, bool) {
				sw.runExec(ch, user, command, pty, fc)
				return 0, true
			},
		},
	}
}

// runExec runs one command non-interactively (the lab's user has every privilege). FaultStall
// and FaultSlow hold it; it is never a configuration transaction, so fault.Drop and fault.Reject
// leave it alone.
func (sw *Switch) runExec(w io.Writer, user, command string, pty bool, fc *fault.Conn) {
	t := sw.dialect.OpenTerm(user, true)
	defer t.Leave()
	if !sw.faults.Stall(fc.Gone) {
		return
	}
	sw.pause()
	sw.runMu.Lock()
	out, _, _ := t.Enter(command)
	sw.runMu.Unlock()
	if pty {
		out = strings.ReplaceAll(out, "\n", "\r\n")
	}
	_, _ = io.WriteString(w, out)
}
