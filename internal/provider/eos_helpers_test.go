package provider

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	xssh "golang.org/x/crypto/ssh"
)

// cliTerminal is an operator typing at a switch's CLI over their own SSH session (plain
// x/crypto/ssh with a pty, not the provider's scrapligo transport): how out-of-band changes
// reach a CLI switch in the tests.
type cliTerminal struct {
	t      *testing.T
	prompt *regexp.Regexp
	stdin  io.WriteCloser

	mu  sync.Mutex
	buf bytes.Buffer
}

type lockedWriter struct{ c *cliTerminal }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	return w.c.buf.Write(p)
}

// terminal logs in to a CLI switch of the lab and waits for its first prompt.
func (l *accLab) terminal(t *testing.T, device string) *cliTerminal {
	t.Helper()
	c := l.dialSSH(t, device)
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	term := &cliTerminal{t: t, prompt: regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(device) + `(\([^)]*\))?[>#]\s?$`)}
	s.Stdout, s.Stderr = lockedWriter{term}, lockedWriter{term}
	if term.stdin, err = s.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty("vt100", 24, 200, xssh.TerminalModes{xssh.ECHO: 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	term.wait()
	return term
}

// wait returns what the switch printed up to its next prompt.
func (c *cliTerminal) wait() string {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		text := c.buf.String()
		if loc := c.prompt.FindStringIndex(strings.ReplaceAll(text, "\r", "")); loc != nil {
			clean := strings.ReplaceAll(text, "\r", "")
			c.buf.Reset()
			c.buf.WriteString(clean[loc[1]:])
			c.mu.Unlock()
			return clean[:loc[1]]
		}
		c.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t.Fatalf("no prompt within 10s; the switch printed:\n%s", c.buf.String())
	return ""
}

// typeLine types one line and returns the switch's answer (echo, output and prompt).
func (c *cliTerminal) typeLine(line string) string {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.stdin, "%s\n", line); err != nil {
		c.t.Fatal(err)
	}
	return c.wait()
}

// configure types lines in `configure terminal` as an operator would, failing the test on
// any `%` error the switch prints.
func (c *cliTerminal) configure(lines ...string) {
	c.t.Helper()
	for _, line := range append(append([]string{"enable", "configure terminal"}, lines...), "end") {
		if out := c.typeLine(line); strings.Contains(out, "\n% ") {
			c.t.Fatalf("the switch refused %q:\n%s", line, out)
		}
	}
}
