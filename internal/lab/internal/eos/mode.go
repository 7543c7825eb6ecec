package eos

// One terminal of the `eos` switch: its mode, its prompt, and the dispatch of a typed line to
// the commands of the mode (then of the parent modes, as EOS does).

import (
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

type eosModeKind int

const (
	modeExec eosModeKind = iota
	modePriv
	modeConfig
	modeIf
	modeProfile
	modeTxq
)

// eosMode is where a terminal is; the fields name the object of a submode.
type eosMode struct {
	kind    eosModeKind
	port    int // interface EthernetN
	profile string
	queue   eosQueueKey
}

func (m eosMode) isConfig() bool { return m.kind >= modeConfig }

// parent is the mode `exit` returns to.
func (m eosMode) parent() eosMode {
	switch m.kind {
	case modeTxq:
		return eosMode{kind: modeProfile, profile: m.profile}
	case modeIf, modeProfile:
		return eosMode{kind: modeConfig}
	default:
		return eosMode{kind: modePriv}
	}
}

// layers are the modes whose commands a line may be: this one, then each parent up to
// configure terminal.
func (m eosMode) layers() []eosMode {
	out := []eosMode{m}
	for m.kind > modeConfig {
		m = m.parent()
		out = append(out, m)
	}
	return out
}

// eosCmd is one first keyword of a mode. Config commands run on a copy that replaces the
// configuration only if they succeed, sessions record them, RejectLines refuses them.
type eosCmd = cliswitch.Cmd[*eosCtx]

// eosCtx is what a command runs with. t is nil while a commit replays a session's lines.
type eosCtx struct {
	t    *eosTerm
	sw   *Switch
	cfg  *eosConfig // the copy a config command changes
	mode eosMode    // the mode the command belongs to
	next eosMode    // the mode after it
	neg  bool
	out  strings.Builder
}

func (x *eosCtx) printf(format string, args ...any) { fmt.Fprintf(&x.out, format, args...) }

// eosTerm is one CLI session (a vty).
type eosTerm struct {
	sw      *Switch
	user    string
	vty     string
	mode    eosMode
	session *eosSession // the configuration session the terminal is in
	closed  bool        // exit/logout: the SSH layer ends the connection
}

// runLocked executes one typed line and returns what the switch prints before the next prompt.
func (t *eosTerm) runLocked(line string) string {
	words := strings.Fields(line)
	if !t.sw.Command(words) {
		return ""
	}
	out, err := cliswitch.Dispatch(words, t.mode.layers(), t.table,
		func(layer eosMode) (string, *cliswitch.Refusal) { return t.try(layer, words, line) })
	if err != nil {
		return eosText(err) + "\n"
	}
	return out
}

// try runs the line as a command of one mode.
func (t *eosTerm) try(layer eosMode, words []string, line string) (string, *cliswitch.Refusal) {
	a := cliswitch.NewArgs(words)
	cmd, err := cliswitch.FindCommand(a, t.table(layer))
	if err != nil {
		return "", err
	}
	x := &eosCtx{t: t, sw: t.sw, mode: layer, next: t.mode}
	if cmd.Config {
		x.cfg, x.next = t.target().clone(), layer
	}
	if err := cmd.Fn(x, a); err != nil {
		return "", err
	}
	if cmd.Config {
		if msg, refused := t.sw.Rejected(line); refused {
			return "% " + msg + "\n", nil
		}
		t.setTarget(x.cfg)
		if t.session != nil {
			t.session.lines = append(t.session.lines, eosRecorded{mode: layer, words: words})
		}
		x.out.WriteString(t.sw.Warned(line))
	}
	t.setMode(x.next)
	return x.out.String(), nil
}

func (t *eosTerm) table(m eosMode) []eosCmd {
	if !m.isConfig() {
		return eosExecTable()
	}
	return append(eosConfigTable(m.kind), eosCommonTable(t.session != nil)...)
}

// negated marks a command run after `no` (cliswitch.ConfigMode).
func negated(x *eosCtx) { x.neg = true }

// target is the configuration this terminal's config commands change.
func (t *eosTerm) target() *eosConfig {
	if t.session != nil {
		return t.session.cand
	}
	return t.sw.running
}

func (t *eosTerm) setTarget(c *eosConfig) {
	if t.session != nil {
		t.session.cand = c
		return
	}
	t.sw.running = c
}

// setMode moves the terminal; leaving configuration leaves the session pending.
func (t *eosTerm) setMode(m eosMode) {
	t.mode = m
	if !m.isConfig() && t.session != nil {
		t.session.owner = nil
		t.session = nil
	}
}

// Prompt is the hostname and the mode, as EOS prints it (no trailing space).
func (t *eosTerm) Prompt() string {
	t.sw.mu.Lock()
	defer t.sw.mu.Unlock()
	return t.promptLocked()
}

func (t *eosTerm) promptLocked() string {
	host := t.sw.running.hostname
	switch t.mode.kind {
	case modeExec:
		return host + ">"
	case modePriv:
		return host + "#"
	}
	tag := "config"
	if t.session != nil {
		// EOS shows the first 6 characters of the session name.
		name := []rune(t.session.name)
		tag = "config-s-" + string(name[:min(6, len(name))])
	}
	switch m := t.mode; m.kind {
	case modeIf:
		tag += fmt.Sprintf("-if-Et%d", m.port)
	case modeProfile:
		tag += "-qos-profile-" + m.profile
	case modeTxq:
		uc := ""
		if m.queue.uc {
			uc = "uc-"
		}
		tag += fmt.Sprintf("-qos-profile-%s-%stxq-%d", m.profile, uc, m.queue.n)
	}
	return host + "(" + tag + ")#"
}

// Leave is called when the connection ends: a session it was in stays pending, without a
// terminal.
func (t *eosTerm) Leave() {
	t.sw.mu.Lock()
	defer t.sw.mu.Unlock()
	t.setMode(eosMode{kind: modeExec})
}

// Enter runs a line typed at the shell and returns its output, the prompt after it and
// whether the terminal logged out, all under one lock.
func (t *eosTerm) Enter(line string) (out, prompt string, closed bool) {
	t.sw.mu.Lock()
	defer t.sw.mu.Unlock()
	out = t.runLocked(line)
	return out, t.promptLocked(), t.closed
}

func (t *eosTerm) InConfig() bool {
	t.sw.mu.Lock()
	defer t.sw.mu.Unlock()
	return t.mode.isConfig()
}

// CtrlZ: the lab's EOS ignores Ctrl-Z (eos-switch.md does not give it a meaning).
func (t *eosTerm) CtrlZ() (string, bool) { return "", false }
