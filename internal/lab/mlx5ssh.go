package lab

// The host's SSH server: what OpenSSH's sshd does for a user whose login
// shell is /bin/sh (dash, the shell Debian's useradd gives new users), with
// password and keyboard-interactive authentication and exec requests.

import (
	"crypto/subtle"
	"errors"
	"io"

	"golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

// shellNotice answers an interactive login: the lab emulates commands, not
// a terminal session.
const shellNotice = "This lab host runs commands given with exec (ssh HOST 'COMMAND'); it has no interactive shell.\r\n"

func (h *Host) sshConfig() *ssh.ServerConfig {
	return passwordConfig("SSH-2.0-OpenSSH_9.6p1 rocelab", func(user string, password []byte) error {
		okUser := subtle.ConstantTimeCompare([]byte(user), []byte(h.user)) == 1
		okPass := subtle.ConstantTimeCompare(password, []byte(h.password)) == 1
		if okUser && okPass {
			return nil
		}
		return errors.New("permission denied")
	})
}

// handleSession serves one session channel: environment and pty requests
// are accepted and ignored, the first exec or shell request runs (after the
// injected faults, faultExec).
func (h *Host) handleSession(ch ssh.Channel, reqs <-chan *ssh.Request, _ string, fc *fault.Conn) {
	done := make(chan struct{})
	started := false
	for req := range reqs {
		switch {
		case started:
			_ = req.Reply(false, nil)
		case req.Type == "env" || req.Type == "pty-req":
			_ = req.Reply(true, nil)
		case req.Type == "exec":
			var payload struct{ Command string }
			if err := ssh.Unmarshal(req.Payload, &payload); err != nil {
				_ = req.Reply(false, nil)
				continue
			}
			_ = req.Reply(true, nil)
			started = true
			h.counters.exec.Add(1)
			go func() {
				defer close(done)
				if !h.faultExec(ch, fc, payload.Command) {
					return
				}
				status := h.runScript(payload.Command, false, ch, ch, ch.Stderr())
				finish(ch, status)
			}()
		case req.Type == "shell":
			_ = req.Reply(true, nil)
			started = true
			go func() {
				defer close(done)
				_, _ = io.WriteString(ch.Stderr(), shellNotice)
				finish(ch, 1)
			}()
		default:
			_ = req.Reply(false, nil)
		}
	}
	if started {
		<-done
	}
	_ = ch.Close()
}

// pause is the Options.Latency a remote host adds before a handshake and
// before answering an exec request, and FaultSlow's delay.
func (h *Host) pause() {
	h.faults.Pause(h.latency)
}

// stop closes the listener and every connection, and waits for every command to finish.
func (h *Host) stop() { h.srv.stop() }
