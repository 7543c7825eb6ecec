package lab

// The host's SSH server: what OpenSSH's sshd does for a user whose login
// shell is /bin/sh (dash, the shell Debian's useradd gives new users), with
// password and keyboard-interactive authentication and exec requests.

import (
	"crypto/subtle"
	"errors"
	"io"
	"net"
	"time"

	"golang.org/x/crypto/ssh"
)

// shellNotice answers an interactive login: the lab emulates commands, not
// a terminal session.
const shellNotice = "This lab host runs commands given with exec (ssh HOST 'COMMAND'); it has no interactive shell.\r\n"

func (h *Host) sshConfig() *ssh.ServerConfig {
	check := func(user string, password []byte) error {
		okUser := subtle.ConstantTimeCompare([]byte(user), []byte(h.user)) == 1
		okPass := subtle.ConstantTimeCompare(password, []byte(h.password)) == 1
		if okUser && okPass {
			return nil
		}
		return errors.New("permission denied")
	}
	return &ssh.ServerConfig{
		ServerVersion: "SSH-2.0-OpenSSH_9.6p1 rocelab",
		MaxAuthTries:  6,
		PasswordCallback: func(c ssh.ConnMetadata, password []byte) (*ssh.Permissions, error) {
			return nil, check(c.User(), password)
		},
		KeyboardInteractiveCallback: func(c ssh.ConnMetadata, ask ssh.KeyboardInteractiveChallenge) (*ssh.Permissions, error) {
			answers, err := ask("", "", []string{"Password: "}, []bool{false})
			if err != nil {
				return nil, err
			}
			if len(answers) != 1 {
				return nil, errors.New("permission denied")
			}
			return nil, check(c.User(), []byte(answers[0]))
		},
	}
}

func (h *Host) serve() {
	defer h.wg.Done()
	for {
		nc, err := h.lis.Accept()
		if err != nil {
			return
		}
		h.connMu.Lock()
		if h.closing {
			h.connMu.Unlock()
			_ = nc.Close()
			return
		}
		h.counters.connections.Add(1)
		if h.faults.has(FaultRefuse) {
			h.connMu.Unlock()
			resetConn(nc)
			continue
		}
		h.conns[nc] = struct{}{}
		h.wg.Add(1)
		h.connMu.Unlock()
		go h.handleConn(nc)
	}
}

// stop closes the listener and every connection, and waits for every
// command to finish.
func (h *Host) stop() {
	h.faults.stop()
	h.connMu.Lock()
	h.closing = true
	_ = h.lis.Close()
	for c := range h.conns {
		_ = c.Close()
	}
	h.connMu.Unlock()
	h.wg.Wait()
}

func (h *Host) handleConn(nc net.Conn) {
	defer h.wg.Done()
	defer func() {
		h.connMu.Lock()
		delete(h.conns, nc)
		h.connMu.Unlock()
		_ = nc.Close()
	}()
	h.pause()                                            // a remote host: the handshake starts late
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second)) // for the handshake only
	sconn, chans, reqs, err := ssh.NewServerConn(nc, h.config)
	if err != nil {
		return
	}
	_ = nc.SetDeadline(time.Time{})
	defer func() { _ = sconn.Close() }()
	go ssh.DiscardRequests(reqs)
	fc := newFaultConn(nc)
	defer close(fc.gone)
	for nch := range chans {
		if nch.ChannelType() != "session" {
			_ = nch.Reject(ssh.UnknownChannelType, "unknown channel type")
			continue
		}
		ch, creqs, err := nch.Accept()
		if err != nil {
			continue
		}
		h.wg.Add(1)
		go h.handleSession(ch, creqs, fc)
	}
}

// handleSession serves one session channel: environment and pty requests
// are accepted and ignored, the first exec or shell request runs (after the
// injected faults, faultExec).
func (h *Host) handleSession(ch ssh.Channel, reqs <-chan *ssh.Request, fc *faultConn) {
	defer h.wg.Done()
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
	h.faults.sleep(h.latency + h.faults.slow())
}

// finish ends a session the way sshd does: EOF, exit-status, close.
func finish(ch ssh.Channel, status int) {
	_ = ch.CloseWrite()
	_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(status)})) //nolint:gosec // 0..255
	_ = ch.Close()
}
