package nxos

// One terminal of the `nxos` switch: its mode, its prompt (with NX-OS's trailing space), the
// dispatch of a typed line to the commands of the mode, then of the parent modes, then of exec
// mode (NX-OS runs exec commands such as show, copy and checkpoint from any configuration
// mode), and NX-OS's caret-marker errors.

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

type nxosModeKind int

const (
	nxExec nxosModeKind = iota
	nxConfig
	nxIf
	nxCmap
	nxPmapQoS
	nxPmapQoSClass
	nxPmapNQ
	nxPmapNQClass
	nxPmapQue
	nxPmapQueClass
	nxSysQoS
)

// nxosModeTags are the mode parts of the prompts, `nxos-1(config-pmap-c-que)# `.
var nxosModeTags = map[nxosModeKind]string{
	nxConfig:       "config",
	nxIf:           "config-if",
	nxCmap:         "config-cmap-qos",
	nxPmapQoS:      "config-pmap-qos",
	nxPmapQoSClass: "config-pmap-c-qos",
	nxPmapNQ:       "config-pmap-nqos",
	nxPmapNQClass:  "config-pmap-nqos-c",
	nxPmapQue:      "config-pmap-que",
	nxPmapQueClass: "config-pmap-c-que",
	nxSysQoS:       "config-sys-qos",
}

// nxosMode is where a terminal is; the fields name the object of a submode.
type nxosMode struct {
	kind  nxosModeKind
	port  int    // interface Ethernet1/port
	name  string // the class-map or policy-map
	class string // the policy-map's class
}

func (m nxosMode) isConfig() bool { return m.kind != nxExec }

// parent is the mode `exit` returns to.
func (m nxosMode) parent() nxosMode {
	switch m.kind {
	case nxPmapQoSClass:
		return nxosMode{kind: nxPmapQoS, name: m.name}
	case nxPmapNQClass:
		return nxosMode{kind: nxPmapNQ, name: m.name}
	case nxPmapQueClass:
		return nxosMode{kind: nxPmapQue, name: m.name}
	case nxExec, nxConfig:
		return nxosMode{kind: nxExec}
	}
	return nxosMode{kind: nxConfig}
}

// layers are the modes whose commands a line may be: this one, each parent, then exec.
func (m nxosMode) layers() []nxosMode {
	out := []nxosMode{m}
	for m.kind != nxExec {
		m = m.parent()
		out = append(out, m)
	}
	return out
}

// nxosCmd is one first keyword of a mode.
type nxosCmd = cliswitch.Cmd[*nxosCtx]

// nxosCtx is what a command runs with.
type nxosCtx struct {
	t    *nxosTerm
	sw   *Switch
	cfg  *nxosConfig // config commands: the copy they change
	mode nxosMode    // the mode the command belongs to
	next nxosMode    // the mode after it
	neg  bool
	out  strings.Builder
}

func (x *nxosCtx) printf(format string, args ...any) { fmt.Fprintf(&x.out, format, args...) }

// nxosTerm is one CLI session.
type nxosTerm struct {
	sw     *Switch
	user   string
	mode   nxosMode
	closed bool // exit in exec mode: the SSH layer ends the connection
}

// runLocked executes one typed line and returns what the switch prints before the next prompt.
func (t *nxosTerm) runLocked(line string) string {
	words, cols := splitLine(line)
	if !t.sw.Command(words) {
		return ""
	}
	prompt := t.promptLocked()
	out, err := cliswitch.Dispatch(words, t.mode.layers(), func(m nxosMode) []nxosCmd { return nxosTable(m.kind) },
		func(layer nxosMode) (string, *cliswitch.Refusal) { return t.try(layer, words, line) })
	if err != nil {
		return errorText(err, prompt, words, cols)
	}
	return out
}

// try runs the line as a command of one mode. A configuration command changes a copy that
// replaces the running-config at once (NX-OS has no transaction), unless it fails or
// RejectLines refuses the line.
func (t *nxosTerm) try(layer nxosMode, words []string, line string) (string, *cliswitch.Refusal) {
	a := cliswitch.NewArgs(words)
	cmd, err := cliswitch.FindCommand(a, nxosTable(layer.kind))
	if err != nil {
		return "", err
	}
	x := &nxosCtx{t: t, sw: t.sw, mode: layer, next: t.mode}
	if cmd.Config {
		x.cfg, x.next = t.sw.running.clone(), layer
	}
	if err := cmd.Fn(x, a); err != nil {
		return "", err
	}
	if cmd.Config {
		if msg, refused := t.sw.Rejected(line); refused {
			return msg + "\n", nil
		}
		t.sw.running, t.sw.lastChange = x.cfg, time.Now()
		x.out.WriteString(t.sw.Warned(line))
	}
	t.mode = x.next
	return x.out.String(), nil
}

// nxosTable is a mode's commands: its own, the `exit`/`end` of every configuration mode, or
// exec's.
func nxosTable(kind nxosModeKind) []nxosCmd {
	if kind == nxExec {
		return nxosExecTable()
	}
	return append(nxosConfigTable(kind), nxosCmd{Name: "exit", Fn: cliswitch.NoArgs(toParent)}, nxosCmd{Name: "end", Fn: cliswitch.NoArgs(toExec)})
}

// splitLine cuts a line into words and the column (in characters) each starts at, for the
// caret under the offending word.
func splitLine(line string) (words []string, cols []int) {
	col, start := 0, -1
	for i, r := range line + " " {
		if r == ' ' || r == '\t' {
			if start >= 0 {
				words = append(words, line[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
			cols = append(cols, col)
		}
		col++
	}
	return words, cols
}

// errorText is an error as NX-OS prints it: a caret under the offending word (counting the
// prompt, since the command is echoed right after it; after the last word when words are
// missing) and the message; ERROR: answers stand alone.
func errorText(err *cliswitch.Refusal, prompt string, words []string, cols []int) string {
	var msg string
	switch err.Kind {
	case cliswitch.ErrKindMsg:
		return err.Msg + "\n"
	case cliswitch.ErrKindIncomplete:
		msg = "% Incomplete command at '^' marker."
	case cliswitch.ErrKindAmbiguous:
		msg = "% Ambiguous command at '^' marker."
	case cliswitch.ErrKindRange:
		msg = fmt.Sprintf("%% Invalid number, range is (%d:%d) at '^' marker.", err.Lo, err.Hi)
	default:
		msg = "% Invalid command at '^' marker."
	}
	col := 0
	switch {
	case err.At < len(cols):
		col = cols[err.At]
	case len(cols) > 0:
		last := len(cols) - 1
		col = cols[last] + utf8.RuneCountInString(words[last])
	}
	return strings.Repeat(" ", utf8.RuneCountInString(prompt)+col) + "^\n" + msg + "\n"
}

// Prompt is the hostname, the mode and `# `, as NX-OS prints it.
func (t *nxosTerm) Prompt() string {
	t.sw.mu.Lock()
	defer t.sw.mu.Unlock()
	return t.promptLocked()
}

func (t *nxosTerm) promptLocked() string {
	host := t.sw.running.hostname
	if t.mode.kind == nxExec {
		return host + "# "
	}
	return host + "(" + nxosModeTags[t.mode.kind] + ")# "
}

// Enter runs a line typed at the shell and returns its output, the prompt after it and
// whether the terminal logged out, all under one lock.
func (t *nxosTerm) Enter(line string) (out, prompt string, closed bool) {
	t.sw.mu.Lock()
	defer t.sw.mu.Unlock()
	out = t.runLocked(line)
	return out, t.promptLocked(), t.closed
}

func (t *nxosTerm) InConfig() bool {
	t.sw.mu.Lock()
	defer t.sw.mu.Unlock()
	return t.mode.isConfig()
}

// CtrlZ leaves configuration for exec mode, as `end` does.
func (t *nxosTerm) CtrlZ() (string, bool) {
	t.sw.mu.Lock()
	defer t.sw.mu.Unlock()
	if !t.mode.isConfig() {
		return "", false
	}
	t.mode = nxosMode{kind: nxExec}
	return t.promptLocked(), true
}

// Leave: nothing outlives a terminal but the configuration and the checkpoints.
func (t *nxosTerm) Leave() {}

// The moves of exit and end: where the terminal goes next.
func toParent(x *nxosCtx) { x.next = x.mode.parent() }
func toExec(x *nxosCtx)   { x.next = nxosMode{kind: nxExec} }
