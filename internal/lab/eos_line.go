package lab

// The line discipline of the `eos` switch's pty: EOS echoes what is typed (scrapli and
// OpenSSH wait for the echo), ends a line at \r, \n or \r\n (once), erases with backspace or
// DEL, abandons the line on Ctrl-C and logs out on Ctrl-D at an empty exec prompt. Output
// lines end with \r\n and the prompt follows with no trailing space.

import (
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// lineEditor holds the state of the line being typed.
type lineEditor struct {
	line   []byte
	lastCR bool // the previous byte ended a line with \r: a following \n is part of it
	esc    int  // inside an escape sequence (arrow keys): 1 after ESC, 2 after ESC [
}

// runShell runs the CLI until exit/logout, Ctrl-D or the end of the connection.
func (sw *EOSSwitch) runShell(rw io.ReadWriter, user string) {
	t := sw.newTerm(user)
	defer t.leave()
	if _, err := io.WriteString(rw, t.prompt()); err != nil {
		return
	}
	var ed lineEditor
	buf := make([]byte, 4096)
	for {
		n, err := rw.Read(buf)
		for _, c := range buf[:n] {
			if !sw.typed(t, &ed, c, rw) {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// typed handles one byte from the terminal; false ends the shell.
func (sw *EOSSwitch) typed(t *eosTerm, ed *lineEditor, c byte, w io.Writer) bool {
	switch ed.esc {
	case 1:
		ed.esc = 0
		if c == '[' || c == 'O' {
			ed.esc = 2
		}
		return true
	case 2:
		if c >= 0x40 && c <= 0x7e {
			ed.esc = 0
		}
		return true
	}
	afterCR := ed.lastCR
	ed.lastCR = false
	var err error
	switch {
	case c == '\r' || (c == '\n' && !afterCR):
		ed.lastCR = c == '\r'
		return sw.enter(t, ed, w)
	case c == '\n':
	case c == 0x1b:
		ed.esc = 1
	case c == 0x7f || c == 0x08:
		if len(ed.line) > 0 {
			_, size := utf8.DecodeLastRune(ed.line)
			ed.line = ed.line[:len(ed.line)-size]
			_, err = io.WriteString(w, "\b \b")
		}
	case c == 0x03:
		ed.line = ed.line[:0]
		_, err = io.WriteString(w, "^C\r\n"+t.prompt())
	case c == 0x04:
		return len(ed.line) > 0 || t.inConfig()
	case c >= 0x20:
		ed.line = append(ed.line, c)
		_, err = w.Write([]byte{c})
	}
	return err == nil
}

// enter runs the typed line and prints its output and the next prompt.
func (sw *EOSSwitch) enter(t *eosTerm, ed *lineEditor, w io.Writer) bool {
	if _, err := io.WriteString(w, "\r\n"); err != nil {
		return false
	}
	if sw.latency > 0 {
		time.Sleep(sw.latency)
	}
	line := string(ed.line)
	ed.line = ed.line[:0]
	out, prompt, closed := t.runForShell(line)
	if _, err := io.WriteString(w, strings.ReplaceAll(out, "\n", "\r\n")); err != nil || closed {
		return false
	}
	_, err := io.WriteString(w, prompt)
	return err == nil
}

// runForShell runs a line and returns its output, the prompt after it and whether the
// terminal logged out, all under one lock.
func (t *eosTerm) runForShell(line string) (out, prompt string, closed bool) {
	t.sw.mu.Lock()
	defer t.sw.mu.Unlock()
	out = t.runLocked(line)
	return out, t.promptLocked(), t.closed
}

func (t *eosTerm) inConfig() bool {
	t.sw.mu.Lock()
	defer t.sw.mu.Unlock()
	return t.mode.isConfig()
}
