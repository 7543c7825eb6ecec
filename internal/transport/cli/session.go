package cli

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
)

// session is one EOS configuration-session transaction.
type session struct {
	c        *Client
	name     string
	re       *regexp.Regexp // the session's prompt, in any submode
	warnings []Warning      // lines the device applied with a warning
}

// level is the session as a scrapligo privilege level, as python scrapli's
// register_configuration_session does: EOS shows only the name's first 6 characters in prompts.
func (s *session) level() *network.PrivilegeLevel {
	return &network.PrivilegeLevel{
		Name:         s.name,
		Pattern:      `(?im)^[\w.\-@()/: ]{1,63}\(config\-s\-` + regexp.QuoteMeta(s.name[:6]) + `[\w.\-@/:]{0,63}\)#\s?$`,
		PreviousPriv: privExec,
		Escalate:     "configure session " + s.name,
		Deescalate:   "end",
	}
}

func (s *session) run(ctx context.Context, cn *conn, lines []string, deadline, hard time.Time) error {
	c, d := s.c, cn.d
	lvl := s.level()
	s.re = regexp.MustCompile(lvl.Pattern)
	d.PrivilegeLevels[s.name] = lvl
	d.UpdatePrivileges()
	defer func() {
		delete(d.PrivilegeLevels, s.name)
		d.UpdatePrivileges()
	}()
	texts, err := readyForConfig(cn, deadline)
	if err != nil {
		return err
	}
	// Entered here rather than by AcquirePriv, which would resend the command on a refusal and
	// lose the device's text.
	enter := "configure session " + s.name
	out, reached, err := sendInput(cn, enter)
	s.log(ctx, enter, err, out, texts)
	switch {
	case err != nil && !reached:
		return err // nothing reached the device
	case err != nil:
		return s.rollback(ctx, cn, hard, err, "", "")
	case refused(string(out), texts):
		return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "configure", Rejected: true, RolledBack: true,
			Line: enter, Output: strings.TrimSpace(string(out)), Err: errors.New("no configuration session was opened, nothing was changed")}
	}
	if err := setBudget(cn, deadline); err != nil {
		return s.rollback(ctx, cn, hard, err, "", "")
	}
	line, text, warns, err := c.sendLines(ctx, cn, s.name, lines, texts, s.log)
	if err != nil {
		return s.rollback(ctx, cn, hard, err, "", "")
	}
	if text != "" {
		return s.rollback(ctx, cn, hard, nil, line, text)
	}
	s.warnings = warns
	if err := setBudget(cn, deadline); err != nil {
		return s.rollback(ctx, cn, hard, err, "", "")
	}
	// At channel level: a privilege change would send `end` (leaving the session pending) first.
	out, reached, err = sendInput(cn, "commit")
	s.log(ctx, "commit", err, out, texts)
	switch {
	case err != nil && !reached:
		return s.rollback(ctx, cn, hard, err, "", "")
	case err != nil:
		return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "configure", Line: "commit", Err: fmt.Errorf(
			"`commit` of configuration session %s was sent but not answered (%w): the change may or may not be applied; "+
				"a refresh shows the device's state", s.name, c.cause(ctx, cn, err))}
	case refused(string(out), texts):
		return s.rollback(ctx, cn, hard, nil, "commit", strings.TrimSpace(string(out)))
	}
	if err := d.AcquirePriv(privExec); err != nil {
		// The change is applied; only the channel is in doubt, so the next operation reconnects.
		c.log(ctx, "CLI configure: not back in privileged exec after commit; reconnecting next time",
			map[string]any{"op": "configure", "error": err.Error()})
		_ = cn.tr.Close()
	}
	if !c.cfg.SaveConfig {
		return nil
	}
	_ = setBudget(cn, hard) // the save gets the grace time too; not having it is not a failure of the change
	r, err := d.SendCommand("write memory")
	if err == nil {
		s.log(ctx, "write memory", r.Failed, r.RawResult, texts)
		if refused(r.Result, texts) {
			err = fmt.Errorf("the device answered: %s", strings.TrimSpace(r.Result))
		}
	}
	if err != nil {
		return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "configure", Line: "write memory", NotSaved: true, Err: fmt.Errorf(
			"the change is applied (configuration session %s committed) but not saved to startup-config: %w",
			s.name, c.cause(ctx, cn, err))}
	}
	return nil
}

// rollback aborts the session after a refusal (cause nil: line and output say what) or a
// failure (cause), and builds the error.
func (s *session) rollback(ctx context.Context, cn *conn, hard time.Time, cause error, line, output string) error {
	c := s.c
	e := &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "configure", Line: line, Output: output, Rejected: cause == nil}
	var note string
	if err := s.abort(ctx, cn, hard); err != nil {
		note = fmt.Sprintf("aborting configuration session %s failed (%v): nothing was committed, but the session may be "+
			"left pending on the device (the provider removes abandoned roce- sessions when it next connects; "+
			"`no configure session %s` removes it by hand)", s.name, c.cause(ctx, cn, err), s.name)
	} else {
		e.RolledBack = true
		note = fmt.Sprintf("configuration session %s was aborted, nothing was changed", s.name)
	}
	if cause == nil {
		e.Err = errors.New(note)
	} else {
		e.Err = fmt.Errorf("%w; %s", c.cause(ctx, cn, cause), note)
	}
	return e
}

// abort discards the session: `abort` inside it, or `configure session NAME abort` from
// privileged exec when the channel is back there.
func (s *session) abort(ctx context.Context, cn *conn, hard time.Time) error {
	d := cn.d
	if !cn.tr.IsAlive() {
		return errors.New("the connection is closed")
	}
	if err := setBudget(cn, hard); err != nil {
		return err
	}
	prompt, err := d.GetPrompt()
	if err != nil {
		return err
	}
	cmd := "abort"
	if !s.re.MatchString(prompt) {
		if err := d.AcquirePriv(privExec); err != nil {
			return err
		}
		cmd = "configure session " + s.name + " abort"
	}
	texts := configFailures(d)
	out, err := d.Channel.SendInput(cmd)
	s.log(ctx, cmd, err, out, texts)
	if err != nil {
		return err
	}
	if refused(string(out), texts) {
		return fmt.Errorf("`%s` was refused: %s", cmd, strings.TrimSpace(string(out)))
	}
	if prompt, err = d.GetPrompt(); err != nil {
		return err
	}
	if s.re.MatchString(prompt) {
		return fmt.Errorf("the CLI is still in the session after `%s`", cmd)
	}
	return d.AcquirePriv(privExec)
}

func (s *session) log(ctx context.Context, command string, err error, out []byte, texts []string) {
	s.c.logStep(ctx, "session", s.name, command, err, out, texts, strings.TrimSpace)
}
