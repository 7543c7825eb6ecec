package ssh

import (
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/internal/sshtest"
	gossh "golang.org/x/crypto/ssh"
)

// testServer is a tiny exec-only SSH server. Commands: "echo WORDS", "exit N" (N on stderr too),
// "cat" (stdin to stdout), "sleep DURATION" (ends early on a KILL signal or a closed session),
// "drop" (closes the TCP connection without an exit status).
type testServer struct {
	*sshtest.Server
	execs   atomic.Int32 // commands started
	killed  atomic.Int32 // KILL signals received
	open    atomic.Int32 // sessions holding a slot
	refused atomic.Int32 // sessions refused for want of a slot
	max     int32        // session slots per server, like sshd's MaxSessions; 0: unlimited

}

type serverOpts struct {
	password       string          // accepted for user "admin"; "" turns password auth off
	kbdInteractive bool            // ask for the password by keyboard-interactive only
	authorized     gossh.PublicKey // accepted client key, if any
	maxSessions    int32           // refuse sessions beyond this many; a slot frees 20ms after its session ends
}

func newTestServer(t *testing.T, o serverOpts) *testServer {
	t.Helper()
	cfg := &gossh.ServerConfig{}
	check := func(user, pw string) (*gossh.Permissions, error) {
		if user == "admin" && pw == o.password {
			return nil, nil
		}
		return nil, errors.New("denied")
	}
	if o.password != "" && !o.kbdInteractive {
		cfg.PasswordCallback = func(c gossh.ConnMetadata, pw []byte) (*gossh.Permissions, error) {
			return check(c.User(), string(pw))
		}
	}
	if o.kbdInteractive {
		cfg.KeyboardInteractiveCallback = func(c gossh.ConnMetadata, ask gossh.KeyboardInteractiveChallenge) (*gossh.Permissions, error) {
			answers, err := ask(c.User(), "", []string{"Password: "}, []bool{false})
			if err != nil || len(answers) != 1 {
				return nil, errors.New("denied")
			}
			return check(c.User(), answers[0])
		}
	}
	if o.authorized != nil {
		cfg.PublicKeyCallback = func(c gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
			if c.User() == "admin" && bytes.Equal(key.Marshal(), o.authorized.Marshal()) {
				return nil, nil
			}
			return nil, errors.New("denied")
		}
	}
	s := &testServer{max: o.maxSessions}
	s.Server = sshtest.Serve(t, "", cfg, sshtest.Handlers{
		Admit: func(nch gossh.NewChannel) bool {
			if n := s.open.Add(1); s.max > 0 && n > s.max {
				s.open.Add(-1)
				s.refused.Add(1)
				_ = nch.Reject(gossh.ResourceShortage, "no more sessions")
				return false
			}
			return true
		},
		Session: func(nc net.Conn, ch gossh.Channel, reqs <-chan *gossh.Request, _ string) { s.session(nc, ch, reqs) },
		Done: func() {
			time.Sleep(20 * time.Millisecond) // sshd too frees the slot a moment later
			s.open.Add(-1)
		},
	})
	return s
}

func (s *testServer) session(nc net.Conn, ch gossh.Channel, reqs <-chan *gossh.Request) {
	defer func() { _ = ch.Close() }()
	stop := make(chan struct{})
	var once sync.Once
	defer once.Do(func() { close(stop) })
	started := false
	for req := range reqs {
		switch req.Type {
		case "exec":
			var p struct{ Command string }
			if started || gossh.Unmarshal(req.Payload, &p) != nil {
				_ = req.Reply(false, nil)
				continue
			}
			started = true
			_ = req.Reply(true, nil)
			s.execs.Add(1)
			go s.exec(nc, ch, p.Command, stop)
		case "signal":
			var sig struct{ Signal string }
			if gossh.Unmarshal(req.Payload, &sig) == nil && sig.Signal == "KILL" {
				s.killed.Add(1)
				once.Do(func() { close(stop) })
			}
		default:
			if req.WantReply {
				_ = req.Reply(false, nil)
			}
		}
	}
}

func (s *testServer) exec(nc net.Conn, ch gossh.Channel, cmd string, stop <-chan struct{}) {
	name, arg, _ := strings.Cut(cmd, " ")
	status := 0
	switch name {
	case "echo":
		_, _ = fmt.Fprintln(ch, arg)
	case "exit":
		status, _ = strconv.Atoi(arg)
		_, _ = fmt.Fprintln(ch.Stderr(), cmd)
	case "cat":
		_, _ = io.Copy(ch, ch)
	case "sleep":
		d, _ := time.ParseDuration(arg)
		select {
		case <-time.After(d):
		case <-stop:
			_ = ch.Close()
			return
		}
	case "drop":
		_ = nc.Close()
		return
	default:
		_, _ = fmt.Fprintln(ch.Stderr(), "unknown command")
		status = 127
	}
	_, _ = ch.SendRequest("exit-status", false, gossh.Marshal(struct{ Status uint32 }{uint32(status)}))
	_ = ch.Close()
}

// pkcs8PEM re-encodes an OpenSSH-format ed25519 private key as PKCS#8 PEM.
func pkcs8PEM(t *testing.T, openssh []byte) []byte {
	t.Helper()
	raw, err := gossh.ParseRawPrivateKey(openssh)
	if err != nil {
		t.Fatal(err)
	}
	if k, ok := raw.(*ed25519.PrivateKey); ok {
		raw = *k
	}
	der, err := x509.MarshalPKCS8PrivateKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}
