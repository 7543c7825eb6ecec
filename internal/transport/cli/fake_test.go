package cli

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/internal/sshtest"
	gossh "golang.org/x/crypto/ssh"
)

// fakeEOS is a scripted EOS CLI over SSH, just enough for the transport: password login into
// exec mode (`sw>`), `enable` (no password), echo of every typed character, EOS's prompts and
// error texts, configuration sessions (prompts show the first 6 characters of the name; they
// outlive the connection, abandoned ones lose their user and terminal) and a running-config that
// is only changed by `commit`. A configuration line is accepted when its first word is a known
// configuration keyword. The line in stall gets no answer at all (no output, no prompt).
type fakeEOS struct {
	*sshtest.Server

	mu         sync.Mutex
	transcript []string // every non-empty line typed, in order, all terminals
	running    []string
	sessions   map[string]*fakeSession
	ptyTerms   []string // terminal types of the pty requests
	vtys       int
	stall      string
	reject     string // a configuration line containing it answers `% Error: rejected`

	nx bool // speaks NX-OS instead (fake_nxos_test.go)
	nxState
}

type fakeSession struct {
	state, user, terminal string
	lines                 []string
}

// newFakeEOS serves on addr ("" for any free port) with password "secret" for user admin.
func newFakeEOS(t *testing.T, addr string) *fakeEOS {
	t.Helper()
	return newFakeServer(t, addr, false)
}

func newFakeServer(t *testing.T, addr string, nx bool) *fakeEOS {
	t.Helper()
	cfg := &gossh.ServerConfig{PasswordCallback: func(c gossh.ConnMetadata, pw []byte) (*gossh.Permissions, error) {
		if c.User() == "admin" && string(pw) == "secret" {
			return nil, nil
		}
		return nil, errors.New("denied")
	}}
	s := &fakeEOS{sessions: map[string]*fakeSession{}, nx: nx}
	s.clock = time.Date(2026, time.November, 30, 10, 5, 0, 0, time.UTC)
	s.Server = sshtest.Serve(t, addr, cfg, sshtest.Handlers{Session: func(_ net.Conn, ch gossh.Channel, reqs <-chan *gossh.Request, user string) {
		s.session(ch, reqs, user)
	}})
	return s
}

// session serves a pty shell; exec requests (and a shell without a pty) are refused.
func (s *fakeEOS) session(ch gossh.Channel, reqs <-chan *gossh.Request, user string) {
	pty := false
	for req := range reqs {
		switch req.Type {
		case "pty-req":
			var p struct {
				Term string
				W, H uint32
				PW   uint32
				PH   uint32
				Mode string
			}
			ok := gossh.Unmarshal(req.Payload, &p) == nil
			s.mu.Lock()
			s.ptyTerms = append(s.ptyTerms, p.Term)
			s.mu.Unlock()
			pty = ok
			_ = req.Reply(ok, nil)
		case "shell":
			_ = req.Reply(pty, nil)
			if pty {
				s.mu.Lock()
				s.vtys++
				vty := fmt.Sprintf("vty%d", s.vtys)
				s.mu.Unlock()
				go s.terminal(ch, &term{user: user, vty: vty, nx: s.nx, priv: s.nx})
			}
		default:
			if req.WantReply {
				_ = req.Reply(false, nil)
			}
		}
	}
}

// term is one CLI terminal's state.
type term struct {
	user, vty string
	priv      bool
	sess, sub string // the configuration session entered, its submode
	nx, conf  bool   // NX-OS; in configure terminal (submode in sub)
}

func (tm *term) prompt() string {
	switch {
	case tm.nx && tm.conf:
		return "nxos-1(config" + tm.sub + ")# "
	case tm.nx:
		return "nxos-1# "
	case tm.sess != "":
		return "sw(config-s-" + tm.sess[:min(6, len(tm.sess))] + tm.sub + ")#"
	case tm.priv:
		return "sw#"
	}
	return "sw>"
}

func (s *fakeEOS) terminal(ch gossh.Channel, tm *term) {
	defer func() {
		_ = ch.Close()
		s.mu.Lock()
		for _, ss := range s.sessions { // the terminal is gone: its session is abandoned
			if ss.terminal == tm.vty {
				ss.user, ss.terminal = "", ""
			}
		}
		s.mu.Unlock()
	}()
	_, _ = ch.Write([]byte("\r\nLast login: from 10.0.0.1\r\n" + tm.prompt()))
	r := bufio.NewReader(ch)
	var line []byte
	for {
		b, err := r.ReadByte()
		if err != nil {
			return
		}
		if b != '\r' && b != '\n' {
			line = append(line, b)
			_, _ = ch.Write([]byte{b}) // echo, as a pty does
			continue
		}
		_, _ = ch.Write([]byte("\r\n"))
		out, answer, open := s.exec(tm, strings.TrimSpace(string(line)))
		line = line[:0]
		if !open {
			return
		}
		if !answer {
			continue
		}
		if out != "" {
			_, _ = ch.Write([]byte(strings.ReplaceAll(out, "\n", "\r\n") + "\r\n"))
		}
		_, _ = ch.Write([]byte(tm.prompt()))
	}
}

var configWords = map[string]bool{"qos": true, "priority-flow-control": true, "service-profile": true,
	"description": true, "hostname": true, "tx-queue": true, "bandwidth": true, "no": true}

// exec runs one line in the terminal's dialect: its output, whether a prompt follows, whether
// the terminal stays open. Every line but an empty one goes into the transcript; the stall
// line gets no answer.
func (s *fakeEOS) exec(tm *term, line string) (out string, answer, open bool) {
	if line == "" {
		return "", true, true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.transcript = append(s.transcript, line)
	if line == s.stall {
		return "", false, true
	}
	if tm.nx {
		return s.execNX(tm, line, strings.Fields(line))
	}
	return s.execEOS(tm, line, strings.Fields(line))
}

// execEOS runs one EOS line (w its words) for exec.
func (s *fakeEOS) execEOS(tm *term, line string, w []string) (out string, answer, open bool) {
	// Interactive EOS prints a bare "% Invalid input" (the "(at token N: ...)" form is eAPI's):
	// internal/lab/eos-switch.md cites the captures.
	invalid := "% Invalid input"
	switch {
	case line == "exit" && tm.sess == "" || line == "logout":
		return "", false, false
	case line == "show version":
		return "Arista vEOS-lab\nSoftware image version: 4.31.2F", true, true
	case !tm.priv && line == "enable":
		tm.priv = true
	case !tm.priv && (w[0] == "configure" || w[0] == "show"):
		return "% Invalid input (privileged mode required)", true, true
	case !tm.priv:
		return invalid, true, true
	case tm.sess != "":
		return s.inSession(tm, line, w, invalid), true, true
	case line == "disable":
		tm.priv = false
	case line == "terminal length 0":
		return "Pagination disabled.", true, true
	case len(w) == 3 && line == "terminal width "+w[2]:
		return "Width set to " + w[2] + " columns.", true, true
	case line == "show running-config":
		return strings.Join(s.running, "\n"), true, true
	case line == "show configuration sessions":
		return s.sessionTable(tm), true, true
	case line == "write memory":
		return "Copy completed successfully.", true, true
	case len(w) == 3 && w[0] == "configure" && w[1] == "session":
		ss := s.sessions[w[2]]
		if ss == nil {
			ss = &fakeSession{state: "pending"}
			s.sessions[w[2]] = ss
		}
		ss.user, ss.terminal, tm.sess = tm.user, tm.vty, w[2]
	case len(w) == 4 && w[0] == "configure" && w[1] == "session" && w[3] == "abort",
		len(w) == 4 && w[0] == "no" && w[1] == "configure" && w[2] == "session":
		name := w[len(w)-1]
		if w[0] == "configure" {
			name = w[2]
		}
		if s.sessions[name] == nil {
			return "% Session " + name + " does not exist", true, true
		}
		delete(s.sessions, name)
	default:
		return invalid, true, true
	}
	return "", true, true
}

func (s *fakeEOS) inSession(tm *term, line string, w []string, invalid string) string {
	ss := s.sessions[tm.sess]
	switch {
	case line == "abort":
		delete(s.sessions, tm.sess)
		tm.sess, tm.sub = "", ""
	case line == "commit":
		s.running = append(s.running, ss.lines...)
		delete(s.sessions, tm.sess)
		tm.sess, tm.sub = "", ""
	case line == "end" || line == "exit" && tm.sub == "":
		ss.user, ss.terminal = "", ""
		tm.sess, tm.sub = "", ""
	case line == "exit":
		tm.sub = ""
	case line == "show version":
		return "Arista vEOS-lab"
	case w[0] == "interface" && len(w) == 2 && strings.HasPrefix(w[1], "Ethernet"):
		tm.sub = "-if-Et" + strings.TrimPrefix(w[1], "Ethernet")
		ss.lines = append(ss.lines, line)
	case s.reject != "" && strings.Contains(line, s.reject):
		return "% Error: rejected"
	case configWords[w[0]]:
		ss.lines = append(ss.lines, line)
	default:
		return invalid
	}
	return ""
}

func (s *fakeEOS) sessionTable(tm *term) string {
	names := make([]string, 0, len(s.sessions))
	for n := range s.sessions {
		names = append(names, n)
	}
	sort.Strings(names)
	rows := []string{"Maximum number of completed sessions: 1", "Maximum number of pending sessions: 5", "",
		"  Name                State         User       Terminal",
		"  ------------------- ------------- ---------- --------"}
	for _, n := range names {
		ss := s.sessions[n]
		mark := " "
		if ss.terminal == tm.vty {
			mark = "*"
		}
		rows = append(rows, strings.TrimRight(fmt.Sprintf("%s %-19s %-13s %-10s %s", mark, n, ss.state, ss.user, ss.terminal), " "))
	}
	return strings.Join(rows, "\n")
}

// state returns copies of the transcript, running-config and session names, for assertions.
func (s *fakeEOS) state() (transcript, running, sessions []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n := range s.sessions {
		sessions = append(sessions, n)
	}
	sort.Strings(sessions)
	return append([]string(nil), s.transcript...), append([]string(nil), s.running...), sessions
}
