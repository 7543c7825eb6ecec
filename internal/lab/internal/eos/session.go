package eos

// Configuration sessions of the `eos` switch. A session's candidate starts as a copy of the
// running-config and takes the lines typed in the session; commit does not copy the
// candidate back but replays the accepted lines, each in the mode it was accepted in, onto
// the running-config as it is at commit time, all or nothing. So a change made in configure
// terminal meanwhile survives a commit that does not touch it, as on EOS.

import (
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

const maxPendingSessions = 5

type eosSession struct {
	name  string
	cand  *eosConfig
	lines []eosRecorded
	owner *eosTerm // the terminal inside the session, nil once it left or disconnected
}

// eosRecorded is an accepted configuration line and the mode it ran in.
type eosRecorded struct {
	mode  eosMode
	words []string
}

// Session is a pending configuration session. User and Terminal are set only while a
// terminal is inside it; a session left behind by a closed connection has neither.
type Session struct {
	Name     string
	User     string
	Terminal string
}

func (sw *Switch) session(name string) *eosSession {
	for _, s := range sw.sessions {
		if s.name == name {
			return s
		}
	}
	return nil
}

// enterSession creates the session (a copy of the running-config) or re-enters a pending one.
// Its refusals, commit's and abortNamed's are assumed texts (eos-switch.md, "Configuration
// sessions").
func (t *eosTerm) enterSession(name string) *cliswitch.Refusal {
	sw := t.sw
	for name == "" {
		sw.autoSessions++
		if candidate := fmt.Sprintf("session%d", sw.autoSessions); sw.session(candidate) == nil {
			name = candidate
		}
	}
	s := sw.session(name)
	switch {
	case s == nil:
		if len(sw.sessions) >= maxPendingSessions {
			return cliswitch.ErrFinal("%% Maximum number of pending sessions has been reached")
		}
		s = &eosSession{name: name, cand: sw.running.clone()}
		sw.sessions = append(sw.sessions, s)
	case s.owner != nil && s.owner != t:
		return cliswitch.ErrFinal("%% Session %s is in use by terminal %s", name, s.owner.vty)
	}
	s.owner, t.session = t, s
	return nil
}

// commit replays the session onto the running-config and deletes it; if any line fails
// nothing changes and the session stays pending.
func (sw *Switch) commit(s *eosSession) *cliswitch.Refusal {
	c := sw.running.clone()
	for _, r := range s.lines {
		if err := sw.replay(c, r); err != nil {
			return cliswitch.ErrFinal("%% Cannot commit session %s: '%s': %s", s.name, strings.Join(r.words, " "), strings.TrimPrefix(eosText(err), "% "))
		}
	}
	sw.running = c
	sw.removeSession(s)
	return nil
}

// replay runs a recorded line on c without a terminal.
func (sw *Switch) replay(c *eosConfig, r eosRecorded) *cliswitch.Refusal {
	a := cliswitch.NewArgs(r.words)
	cmd, err := cliswitch.FindCommand(a, eosConfigTable(r.mode.kind))
	if err != nil {
		return err
	}
	return cmd.Fn(&eosCtx{sw: sw, cfg: c, mode: r.mode, next: r.mode}, a)
}

// commitNamed is `configure session NAME commit` from exec mode.
func (sw *Switch) commitNamed(name string, t *eosTerm) *cliswitch.Refusal {
	s := sw.session(name)
	switch {
	case s == nil:
		return cliswitch.ErrFinal("%% Cannot commit session %s: no such pending session", name)
	case s.owner != nil && s.owner != t:
		return cliswitch.ErrFinal("%% Cannot commit session %s: it is in use by terminal %s", name, s.owner.vty)
	}
	return sw.commit(s)
}

// abortNamed is `configure session NAME abort` and `no configure session NAME`; a session
// that does not exist is nothing to do.
func (sw *Switch) abortNamed(name string, t *eosTerm) *cliswitch.Refusal {
	s := sw.session(name)
	switch {
	case s == nil:
		return nil
	case s.owner != nil && s.owner != t:
		return cliswitch.ErrFinal("%% Cannot abort session %s: it is in use by terminal %s", name, s.owner.vty)
	}
	sw.removeSession(s)
	return nil
}

func (sw *Switch) removeSession(s *eosSession) {
	for i, p := range sw.sessions {
		if p == s {
			sw.sessions = append(sw.sessions[:i:i], sw.sessions[i+1:]...)
			break
		}
	}
	if s.owner != nil && s.owner.session == s {
		s.owner.session = nil
	}
	s.owner = nil
}

// sessionsTable is `show configuration sessions`; * marks the asking terminal's session.
func (sw *Switch) sessionsTable(t *eosTerm) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Maximum number of completed sessions: 1\nMaximum number of pending sessions: %d\n\n", maxPendingSessions)
	b.WriteString("  Name                State         User       Terminal\n")
	b.WriteString("  ------------------- ------------- ---------- --------\n")
	for _, s := range sw.sessions {
		mark, user, vty := " ", "", ""
		if s.owner != nil {
			user, vty = s.owner.user, s.owner.vty
			if s.owner == t {
				mark = "*"
			}
		}
		line := fmt.Sprintf("%s %-19s %-13s %-10s %s", mark, s.name, "pending", user, vty)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// Sessions returns the pending configuration sessions, oldest first.
func (sw *Switch) Sessions() []Session {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	out := make([]Session, 0, len(sw.sessions))
	for _, s := range sw.sessions {
		e := Session{Name: s.name}
		if s.owner != nil {
			e.User, e.Terminal = s.owner.user, s.owner.vty
		}
		out = append(out, e)
	}
	return out
}
