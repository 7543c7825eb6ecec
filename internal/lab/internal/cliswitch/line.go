package cliswitch

// The line discipline of a CLI switch's pty, as EOS and NX-OS both behave: what is typed is
// echoed (scrapli and OpenSSH wait for the echo), a line ends at \r, \n or \r\n (once),
// backspace or DEL erases, arrow keys are ignored, Ctrl-C abandons the line, Ctrl-D logs out
// at an empty prompt outside configuration modes, and Ctrl-Z is left to the dialect. Output
// lines end with \r\n and the dialect's prompt follows, exactly as the dialect prints it.

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

// lineEditor holds the state of the line being typed.
type lineEditor struct {
	line   []byte
	lastCR bool // the previous byte ended a line with \r: a following \n is part of it
	esc    int  // inside an escape sequence (arrow keys): 1 after ESC, 2 after ESC [
}

// cliShellState is one pty shell: the line being typed, the configuration transaction (for
// injected faults) and the connection.
type cliShellState struct {
	ed   lineEditor
	tx   cliTx
	conn *fault.Conn
}

// runShell runs the CLI until exit/logout, Ctrl-D or the end of the connection.
func (sw *Switch) runShell(rw io.ReadWriter, user string, conn *fault.Conn) {
	t := sw.dialect.OpenTerm(user, false)
	defer t.Leave()
	if _, err := io.WriteString(rw, t.Prompt()); err != nil {
		return
	}
	sh := &cliShellState{conn: conn}
	buf := make([]byte, 4096)
	for {
		n, err := rw.Read(buf)
		for _, c := range buf[:n] {
			if !sw.typed(t, sh, c, rw) {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// typed handles one byte from the terminal; false ends the shell.
func (sw *Switch) typed(t Term, sh *cliShellState, c byte, w io.Writer) bool {
	ed := &sh.ed
	if ed.escape(c) {
		return true
	}
	afterCR := ed.lastCR
	ed.lastCR = false
	var err error
	switch {
	case c == '\r' || (c == '\n' && !afterCR):
		ed.lastCR = c == '\r'
		return sw.enter(t, sh, w)
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
		_, err = io.WriteString(w, "^C\r\n"+t.Prompt())
	case c == 0x04:
		return len(ed.line) > 0 || t.InConfig()
	case c == 0x1a:
		if prompt, ok := t.CtrlZ(); ok {
			ed.line = ed.line[:0]
			_, err = io.WriteString(w, "^Z\r\n"+prompt)
		}
	case c >= 0x20:
		ed.line = append(ed.line, c)
		_, err = w.Write([]byte{c})
	}
	return err == nil
}

// escape swallows the bytes of an escape sequence (ESC, then [ or O and a final byte).
func (ed *lineEditor) escape(c byte) bool {
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
	return false
}

// enter runs the typed line and prints its output and the next prompt. Injected faults act
// first: a stall holds the line, a drop closes the connection instead of running it.
func (sw *Switch) enter(t Term, sh *cliShellState, w io.Writer) bool {
	if _, err := io.WriteString(w, "\r\n"); err != nil {
		return false
	}
	line := string(sh.ed.line)
	sh.ed.line = sh.ed.line[:0]
	if !sw.faults.Stall(sh.conn.Gone) {
		return false
	}
	sw.pause()
	if !sw.faultLine(t, &sh.tx, sh.conn, line) {
		return false
	}
	sw.runMu.Lock()
	sw.setTxReject(sh.tx.reject)
	out, prompt, closed := t.Enter(line)
	sw.setTxReject("")
	sw.runMu.Unlock()
	if !t.InConfig() {
		sh.tx = cliTx{}
	}
	if _, err := io.WriteString(w, strings.ReplaceAll(out, "\n", "\r\n")); err != nil || closed {
		return false
	}
	_, err := io.WriteString(w, prompt)
	return err == nil
}
