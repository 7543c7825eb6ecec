package lab

// The SSH front door the lab's SSH devices share (the CLI switches, cliswitch_ssh.go, and the
// mlx5 hosts, mlx5ssh.go): OpenSSH-style password and keyboard-interactive login, every
// connection tracked so a fault (FaultRefuse) or stop can close it, and each session channel
// handed to the device.

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

type sshServer struct {
	config      *ssh.ServerConfig
	lis         net.Listener
	faults      *fault.Set
	connections *atomic.Int64
	// pause is the device's latency (and FaultSlow's delay) before a handshake.
	pause func()
	// session serves one accepted session channel until it ends.
	session func(ch ssh.Channel, reqs <-chan *ssh.Request, user string, fc *fault.Conn)

	wg      sync.WaitGroup
	connMu  sync.Mutex
	conns   map[net.Conn]struct{}
	closing bool
}

// passwordConfig is an sshd that takes a password, typed or answered to a keyboard-interactive
// "Password: " prompt, as OpenSSH offers both by default; check judges it.
func passwordConfig(version string, check func(user string, password []byte) error) *ssh.ServerConfig {
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

// start accepts connections on lis until stop.
func (s *sshServer) start(lis net.Listener) {
	s.lis = lis
	s.conns = map[net.Conn]struct{}{}
	s.wg.Add(1)
	go s.serve()
}

func (s *sshServer) serve() {
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
		s.connections.Add(1)
		if s.faults.Has(FaultRefuse) {
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

// stop closes the listener and every connection, and waits for every session to end.
func (s *sshServer) stop() {
	s.faults.Stop()
	s.connMu.Lock()
	s.closing = true
	_ = s.lis.Close()
	for c := range s.conns {
		_ = c.Close()
	}
	s.connMu.Unlock()
	s.wg.Wait()
}

// closeConns closes every open connection (FaultRefuse).
func (s *sshServer) closeConns() {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	for c := range s.conns {
		_ = c.Close()
	}
}

func (s *sshServer) handleConn(nc net.Conn) {
	defer s.wg.Done()
	defer func() {
		s.connMu.Lock()
		delete(s.conns, nc)
		s.connMu.Unlock()
		_ = nc.Close()
	}()
	s.pause()                                            // a remote device: the handshake starts late
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

// finish ends a session the way sshd does: EOF, exit-status, close.
func finish(ch ssh.Channel, status int) {
	_ = ch.CloseWrite()
	_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(status)})) //nolint:gosec // 0..255
	_ = ch.Close()
}
