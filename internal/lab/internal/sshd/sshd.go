// Package sshd is the SSH front door the lab's SSH devices share (the CLI switches and the mlx5
// hosts): an ed25519 host key, OpenSSH-style password and keyboard-interactive login, every
// connection tracked so a fault (FaultRefuse) or stop can close it, and each session channel
// served the way sshd does, its shell or command run by the device.
package sshd

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

// Config is what a device gives its SSH server.
type Config struct {
	// Version is the identification string, as the device's sshd sends it.
	Version string
	// Users are the logins and their passwords.
	Users map[string]string
	// Faults are the device's; FaultRefuse resets new connections.
	Faults *fault.Set
	// Connections counts every accepted TCP connection.
	Connections *atomic.Int64
	// Latency is the device's delay before a handshake (FaultSlow's delay adds to it).
	Latency time.Duration
	Session Session
}

// Session is how the device serves a session channel.
type Session struct {
	// Accept are the requests answered yes and otherwise ignored ("env", "pty-req", ...).
	Accept []string
	// AcceptLate answers them yes after the shell or command started too, as a terminal's
	// window-change wants; otherwise every request after the first shell or exec is refused.
	AcceptLate bool
	// Shell runs an interactive login to its end and returns its exit status.
	Shell func(ch ssh.Channel, user string, fc *fault.Conn) int
	// Exec runs command (pty says a pty was requested first) and returns its exit status; ok
	// false ends the session without one (a fault dropped the connection).
	Exec func(ch ssh.Channel, user, command string, pty bool, fc *fault.Conn) (status int, ok bool)
}

// Server is one device's SSH server.
type Server struct {
	cfg     Config
	config  *ssh.ServerConfig
	lis     net.Listener
	hostKey string

	wg      sync.WaitGroup
	connMu  sync.Mutex
	conns   map[net.Conn]struct{}
	closing bool
}

// Listen makes the host key and listens on 127.0.0.1; Start serves.
func Listen(cfg Config) (*Server, error) {
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	signer, err := ssh.NewSignerFromKey(key)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	s := &Server{cfg: cfg, config: passwordConfig(cfg.Version, cfg.Users),
		hostKey: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(signer.PublicKey())))}
	s.config.AddHostKey(signer)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.lis = lis
	return s, nil
}

// Addr is the host:port the server listens on.
func (s *Server) Addr() string { return s.lis.Addr().String() }

// HostKey is the host key in authorized_keys form, as the inventory's host_key.
func (s *Server) HostKey() string { return s.hostKey }

// Entry is the inventory entry of the device behind the server: its address and host key, the
// platform and password of spec, and username as the login.
func (s *Server) Entry(spec device.Spec, username string) device.Entry {
	return device.Entry{Address: s.Addr(), Platform: spec.Platform, Username: username,
		Password: spec.Password, HostKey: s.hostKey}
}

// passwordConfig is an sshd that takes a password, typed or answered to a keyboard-interactive
// "Password: " prompt, as OpenSSH offers both by default.
func passwordConfig(version string, users map[string]string) *ssh.ServerConfig {
	check := func(user string, password []byte) error {
		want, ok := users[user]
		if ok && subtle.ConstantTimeCompare(password, []byte(want)) == 1 {
			return nil
		}
		return errors.New("permission denied")
	}
	return &ssh.ServerConfig{
		ServerVersion: version,
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

// Start accepts connections until Stop.
func (s *Server) Start() {
	s.conns = map[net.Conn]struct{}{}
	s.wg.Add(1)
	go s.serve()
}

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		nc, err := s.lis.Accept()
		if err != nil {
			return
		}
		s.connMu.Lock()
		if s.closing {
			s.connMu.Unlock()
			_ = nc.Close()
			return
		}
		s.cfg.Connections.Add(1)
		if s.cfg.Faults.Has(fault.Refuse) {
			s.connMu.Unlock()
			fault.ResetConn(nc)
			continue
		}
		s.conns[nc] = struct{}{}
		s.wg.Add(1)
		s.connMu.Unlock()
		go s.handleConn(nc)
	}
}

// Stop closes the listener and every connection, and waits for every session to end.
func (s *Server) Stop() {
	s.cfg.Faults.Stop()
	s.connMu.Lock()
	s.closing = true
	_ = s.lis.Close()
	for c := range s.conns {
		_ = c.Close()
	}
	s.connMu.Unlock()
	s.wg.Wait()
}

// CloseConns closes every open connection (FaultRefuse).
func (s *Server) CloseConns() {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	for c := range s.conns {
		_ = c.Close()
	}
}

func (s *Server) handleConn(nc net.Conn) {
	defer s.wg.Done()
	defer func() {
		s.connMu.Lock()
		delete(s.conns, nc)
		s.connMu.Unlock()
		_ = nc.Close()
	}()
	s.cfg.Faults.Pause(s.cfg.Latency)                    // a remote device: the handshake starts late
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second)) // for the handshake only
	sconn, chans, reqs, err := ssh.NewServerConn(nc, s.config)
	if err != nil {
		return
	}
	_ = nc.SetDeadline(time.Time{})
	defer func() { _ = sconn.Close() }()
	go ssh.DiscardRequests(reqs)
	fc := fault.NewConn(nc)
	defer close(fc.Gone)
	for nch := range chans {
		if nch.ChannelType() != "session" {
			_ = nch.Reject(ssh.UnknownChannelType, "unknown channel type")
			continue
		}
		ch, creqs, err := nch.Accept()
		if err != nil {
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.session(ch, creqs, sconn.User(), fc)
		}()
	}
}

// session serves one session channel: the requests the device accepts are, the first shell or
// exec request runs, every other request is refused.
func (s *Server) session(ch ssh.Channel, reqs <-chan *ssh.Request, user string, fc *fault.Conn) {
	done := make(chan struct{})
	started, pty := false, false
	// run starts the shell or command. The request is answered first: a channel closed ahead
	// of the reply makes the client's Run fail with EOF (seen in CI).
	run := func(req *ssh.Request, f func() (status int, ok bool)) {
		_ = req.Reply(true, nil)
		req.WantReply = false
		started = true
		go func() {
			defer close(done)
			if status, ok := f(); ok {
				finish(ch, status)
			}
		}()
	}
	for req := range reqs {
		ok := false
		switch {
		case started && !s.cfg.Session.AcceptLate:
		case slices.Contains(s.cfg.Session.Accept, req.Type):
			ok = true
			pty = pty || req.Type == "pty-req"
		case started:
		case req.Type == "shell":
			ok = true
			run(req, func() (int, bool) { return s.cfg.Session.Shell(ch, user, fc), true })
		case req.Type == "exec":
			var payload struct{ Command string }
			ok = ssh.Unmarshal(req.Payload, &payload) == nil
			if ok {
				run(req, func() (int, bool) { return s.cfg.Session.Exec(ch, user, payload.Command, pty, fc) })
			}
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

// finish ends a session the way sshd does: EOF, exit-status, close.
func finish(ch ssh.Channel, status int) {
	_ = ch.CloseWrite()
	_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(status)})) //nolint:gosec // 0..255
	_ = ch.Close()
}
