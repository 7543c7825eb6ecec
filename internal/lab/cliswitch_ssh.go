package lab

// The SSH sessions of the CLI switches (the server is internal/sshd): password or
// keyboard-interactive login, a pty shell running the dialect's CLI through the line discipline
// (cliswitch_line.go), and exec requests that run one command, as `ssh switch show
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
func (sw *cliSwitch) sshConfig() sshd.Config {
	return sshd.Config{
		Version:     "SSH-2.0-OpenSSH_8.7 rocelab",
		Users:       sw.users,
		Faults:      &sw.faults,
		Connections: &sw.counters.connections,
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
// and FaultSlow hold it; it is never a configuration transaction, so FaultDrop and FaultReject
// leave it alone.
func (sw *cliSwitch) runExec(w io.Writer, user, command string, pty bool, fc *fault.Conn) {
	t := sw.dialect.openTerm(user, true)
	defer t.leave()
	if !sw.faults.Stall(fc.Gone) {
		return
	}
	sw.pause()
	sw.runMu.Lock()
	out, _, _ := t.enter(command)
	sw.runMu.Unlock()
	if pty {
		out = strings.ReplaceAll(out, "\n", "\r\n")
	}
	_, _ = io.WriteString(w, out)
}
