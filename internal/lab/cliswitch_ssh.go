package lab

// The SSH server of the CLI switches: password or keyboard-interactive login, a pty shell
// running the dialect's CLI through the line discipline (cliswitch_line.go), and exec requests
// that run one command, as `ssh switch show running-config` does on EOS and NX-OS.

import (
	"crypto/subtle"
	"errors"
	"io"
	"net"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

func (sw *cliSwitch) sshConfig() *ssh.ServerConfig {
	check := func(user string, password []byte) error {
		want, ok := sw.users[user]
		if ok && subtle.ConstantTimeCompare(password, []byte(want)) == 1 {
			return nil
		}
		return errors.New("permission denied")
	}
	return &ssh.ServerConfig{
		ServerVersion: "SSH-2.0-OpenSSH_8.7 rocelab",
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

func (sw *cliSwitch) serve() {
	defer sw.wg.Done()
	for {
		nc, err := sw.lis.Accept()
		if err != nil {
			return
		}
		sw.connMu.Lock()
		if sw.closing {
			sw.connMu.Unlock()
			_ = nc.Close()
			return
		}
		sw.counters.connections.Add(1)
		if sw.faults.has(FaultRefuse) {
			sw.connMu.Unlock()
			resetConn(nc)
			continue
		}
		sw.conns[nc] = struct{}{}
		sw.wg.Add(1)
		sw.connMu.Unlock()
		go sw.handleConn(nc)
	}
}

// stop closes the listener and every connection, and waits for every shell to end.
func (sw *cliSwitch) stop() {
	sw.faults.stop()
	sw.connMu.Lock()
	sw.closing = true
	_ = sw.lis.Close()
	for c := range sw.conns {
		_ = c.Close()
	}
	sw.connMu.Unlock()
	sw.wg.Wait()
}

func (sw *cliSwitch) handleConn(nc net.Conn) {
	defer sw.wg.Done()
	defer func() {
		sw.connMu.Lock()
		delete(sw.conns, nc)
		sw.connMu.Unlock()
		_ = nc.Close()
	}()
	sw.pause()                                           // a remote switch: the handshake starts late
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second)) // for the handshake only
	sconn, chans, reqs, err := ssh.NewServerConn(nc, sw.config)
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
		sw.wg.Add(1)
		go sw.handleSession(ch, creqs, sconn.User(), fc)
	}
}

// handleSession serves one session channel: pty, environment and window changes are
// accepted, the first shell or exec request runs.
func (sw *cliSwitch) handleSession(ch ssh.Channel, reqs <-chan *ssh.Request, user string, fc *faultConn) {
	defer sw.wg.Done()
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
func (sw *cliSwitch) runExec(w io.Writer, user, command string, pty bool, fc *faultConn) {
	t := sw.dialect.openTerm(user, true)
	defer t.leave()
	if !sw.faults.stall(fc.gone) {
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
