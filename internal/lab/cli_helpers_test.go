package lab

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
	"golang.org/x/crypto/ssh"
)

// startEOS starts a lab with one `eos` switch of 4 ports (fast: no gNMI datastore).
func startEOS(t *testing.T, opts ...func(*Options)) (*Lab, *EOSSwitch) {
	t.Helper()
	return startSwitch(t, "eos", (*Lab).EOS, opts...)
}

// startSwitch starts a lab with one switch of platform, 4 ports, and returns it as get finds
// it by name.
func startSwitch[S comparable](t *testing.T, platform string, get func(*Lab, string) S, opts ...func(*Options)) (*Lab, S) {
	t.Helper()
	o := Options{Switches: map[string]int{platform: 1}, Ports: 4}
	for _, f := range opts {
		f(&o)
	}
	l := startLab(t, o)
	var none S
	sw := get(l, platform+"-1")
	if sw == none {
		t.Fatalf("no %s-1 in the lab", platform)
	}
	return l, sw
}

// cliShell is an interactive pty shell on a CLI switch through golang.org/x/crypto/ssh.
type cliShell struct {
	t      *testing.T
	client *ssh.Client
	sess   *ssh.Session
	stdin  io.WriteCloser
	out    *syncBuffer
	seen   int // bytes of out already returned by expect
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// openEOSShell logs in, asks for a pty and a shell, and waits for the exec prompt.
func openEOSShell(t *testing.T, d DeviceEntry) *cliShell {
	t.Helper()
	return openCLIShell(t, d, "eos-1>")
}

// openCLIShell logs in, asks for a pty and a shell, and waits for the first prompt.
func openCLIShell(t *testing.T, d DeviceEntry, prompt string) *cliShell {
	t.Helper()
	c, err := sshDial(t, d)
	if err != nil {
		t.Fatalf("login to %s: %v", d.Address, err)
	}
	s := &cliShell{t: t, client: c, out: &syncBuffer{}}
	t.Cleanup(func() { _ = c.Close() })
	if s.sess, err = c.NewSession(); err != nil {
		t.Fatal(err)
	}
	if err := s.sess.RequestPty("xterm", 40, 200, ssh.TerminalModes{ssh.ECHO: 1}); err != nil {
		t.Fatal(err)
	}
	if s.stdin, err = s.sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	s.sess.Stdout = s.out
	if err := s.sess.Shell(); err != nil {
		t.Fatal(err)
	}
	s.expect(prompt)
	return s
}

// concurrently types on n terminals of d at once, each on its own connection and logged in
// to prompt, as typing says (run with -race); it returns when all are done.
func concurrently(t *testing.T, d DeviceEntry, prompt string, n int, typing func(s *cliShell, i int)) {
	t.Helper()
	t.Run("terminals", func(t *testing.T) {
		for i := range n {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				typing(openCLIShell(t, d, prompt), i)
			})
		}
	})
}

// send types text (no line end added).
func (s *cliShell) send(text string) {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, text); err != nil {
		s.t.Fatal(err)
	}
}

// expect waits until the output since the last expect ends with suffix, and returns it.
func (s *cliShell) expect(suffix string) string {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		all := s.out.String()
		if len(all) > s.seen && strings.HasSuffix(all[s.seen:], suffix) {
			got := all[s.seen:]
			s.seen = len(all)
			return got
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waiting for %q, got %q", suffix, all[s.seen:])
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// line types a line ending in \n and returns what the switch printed up to the prompt.
func (s *cliShell) line(text, prompt string) string {
	s.t.Helper()
	s.send(text + "\n")
	return s.expect(prompt)
}

// wantTyped types text (its line end or control key included) and wants the switch to print
// want, up to the prompt after it; what names the check.
func (s *cliShell) wantTyped(what, text, prompt, want string) {
	s.t.Helper()
	s.send(text)
	if got := s.expect(prompt); got != want {
		s.t.Errorf("%s: %q, want %q", what, got, want)
	}
}

// wantCtrlC types text and Ctrl-C: the line is abandoned, echoed with ^C and followed by the
// same prompt, and not counted among sw's commands.
func (s *cliShell) wantCtrlC(sw *cliswitch.Switch, text, prompt string) {
	s.t.Helper()
	before := sw.Counters().Commands
	s.send(text + "\x03")
	if got := s.expect(prompt); got != text+"^C\r\n"+prompt || sw.Counters().Commands != before {
		s.t.Errorf("Ctrl-C: %q, %d commands (was %d)", got, sw.Counters().Commands, before)
	}
}

// execOut runs cmd as an SSH exec request on a CLI switch and returns what it printed.
func execOut(t *testing.T, d DeviceEntry, cmd string) string {
	t.Helper()
	out, _, _ := runOn(t, sshClient(t, d), cmd, "")
	return out
}

// wantAnswers types each line and wants it echoed and answered with answer before prompt.
func (s *cliShell) wantAnswers(answer, prompt string, lines ...string) {
	s.t.Helper()
	for _, line := range lines {
		if got := s.line(line, prompt); got != line+"\r\n"+answer+prompt {
			s.t.Errorf("%q: %q, want the answer %q", line, got, answer)
		}
	}
}

// wantLogout types keys, which log out (what names them), and waits for the shell's session
// to end with exit status 0.
func (s *cliShell) wantLogout(what, keys string) {
	s.t.Helper()
	s.send(keys)
	done := make(chan error, 1)
	go func() { done <- s.sess.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			s.t.Errorf("%s: %v (want exit status 0)", what, err)
		}
	case <-time.After(10 * time.Second):
		s.t.Fatalf("%s did not end the session", what)
	}
}
