package lab

// The SSH server of the CLI switches: password or keyboard-interactive login, a pty shell
// running the dialect's CLI through the line discipline (cliswitch_line.go), and exec requests
// that run one command, as `ssh switch show running-config` does on EOS and NX-OS.

import (
	"crypto/subtle"
	"errors"
	"io"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

func (sw *cliSwitch) sshConfig() *ssh.ServerConfig {
	return passwordConfig("SSH-2.0-OpenSSH_8.7 rocelab", func(user string, password []byte) error {
		want, ok := sw.users[user]
		if ok && subtle.ConstantTimeCompare(password, []byte(want)) == 1 {
			return nil
		}
		return errors.New("permission denied")
	})
}

// handleSession serves one session channel: pty, environment and window changes are
// accepted, the first shell or exec request runs.
func (sw *cliSwitch) handleSession(ch ssh.Channel, reqs <-chan *ssh.Request, user string, fc *fault.Conn) {
	done := make(chan struct{})
	started, pty := false, false
	for req := range reqs {
		ok := true
		switch req.Type {
		case "pty-req":
			pty = true
		case "env", "window-change":
		case "shell":
			ok = !started
			if ok {
				// Reply before the command can finish: a channel closed ahead of the reply
				// makes the client's Run fail with EOF (seen in CI).
				_ = req.Reply(true, nil)
				req.WantReply = false
				started = true
				go func() {
					defer close(done)
					sw.runShell(ch, user, fc)
					finish(ch, 0)
				}()
			}
		case "exec":
			var payload struct{ Command string }
			ok = !started && ssh.Unmarshal(req.Payload, &payload) == nil
			if ok {
				_ = req.Reply(true, nil)
				req.WantReply = false
				started = true
				go func() {
					defer close(done)
					sw.runExec(ch, user, payload.Command, pty, fc)
					finish(ch, 0)
				}()
			}
		default:
			ok = false
		}
		if req.WantReply {
			_ = req.Reply(ok, nil)
		}
	}
	if started {
		<-done
	}
	_ = ch.Close()
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
