// Package sshtest is the SSH server the transports' tests (ssh, cli) script their devices on:
// a loopback listener that counts its connections, completes the handshake and hands each
// session channel to the test's handler. What the device says stays in each test package;
// only tests import this one.
package sshtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// Server is one listening test server.
type Server struct {
	Addr    string       // host:port it listens on
	HostKey gossh.Signer // a fresh ed25519 host key
	Accepts atomic.Int32 // TCP connections accepted

	mu    sync.Mutex
	conns []net.Conn
}

// Handlers are what a test's device does with sessions. Admit, when set, may refuse a session
// channel (it rejects the channel itself and returns false); Done, when set, runs after each
// admitted session ends (or could not be accepted). Session serves a channel the client opened
// as user on nc.
type Handlers struct {
	Admit   func(nch gossh.NewChannel) bool
	Session func(nc net.Conn, ch gossh.Channel, reqs <-chan *gossh.Request, user string)
	Done    func()
}

// Serve listens on addr ("" for a free loopback port) with cfg, to which it adds a fresh host
// key, until the test ends; then it closes the listener and every connection.
func Serve(t *testing.T, addr string, cfg *gossh.ServerConfig, h Handlers) *Server {
	t.Helper()
	hostKey, _, _ := NewKey(t)
	cfg.AddHostKey(hostKey)
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: ln.Addr().String(), HostKey: hostKey}
	t.Cleanup(func() { _ = ln.Close(); s.DropAll() })
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			s.Accepts.Add(1)
			s.mu.Lock()
			s.conns = append(s.conns, nc)
			s.mu.Unlock()
			go s.handle(nc, cfg, h)
		}
	}()
	return s
}

// Pinned is the server's host key in authorized_keys form.
func (s *Server) Pinned() string {
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.HostKey.PublicKey())))
}

// DropAll closes every connection from the server's side.
func (s *Server) DropAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, nc := range s.conns {
		_ = nc.Close()
	}
	s.conns = nil
}

func (s *Server) handle(nc net.Conn, cfg *gossh.ServerConfig, h Handlers) {
	sc, chans, reqs, err := gossh.NewServerConn(nc, cfg)
	if err != nil {
		_ = nc.Close()
		return
	}
	defer func() { _ = sc.Close() }()
	go gossh.DiscardRequests(reqs)
	for nch := range chans {
		if nch.ChannelType() != "session" {
			_ = nch.Reject(gossh.UnknownChannelType, "sessions only")
			continue
		}
		if h.Admit != nil && !h.Admit(nch) {
			continue
		}
		done := func() {
			if h.Done != nil {
				h.Done()
			}
		}
		ch, creqs, err := nch.Accept()
		if err != nil {
			done()
			continue
		}
		go func() {
			h.Session(nc, ch, creqs, sc.User())
			done()
		}()
	}
}

// NewKey makes an ed25519 key: its signer, its OpenSSH-format private key PEM, its public key.
func NewKey(t *testing.T) (gossh.Signer, []byte, gossh.PublicKey) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	return signer, pem.EncodeToMemory(block), signer.PublicKey()
}

// FreeAddr is a loopback address nothing listens on when it returns: a port the system gave out
// and this closed again, for a test of a refused dial or of a server that starts there later.
func FreeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}
