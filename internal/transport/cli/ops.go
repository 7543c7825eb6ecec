package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/event"
	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/opoptions"
)

// Show runs commands in privileged exec and returns one output per command, without the echoed
// command and the prompt. A command the device refuses (its output holds one of the platform's
// failure texts, such as "% Invalid input") fails with *Error{Op: "show", Rejected: true}; the
// commands after it are not sent.
func (c *Client) Show(ctx context.Context, commands ...string) ([]string, error) {
	if len(commands) == 0 {
		return nil, nil
	}
	if err := c.checkLines("show", commands); err != nil {
		return nil, err
	}
	var out []string
	err := c.do(ctx, "show", 0, func(ctx context.Context, cn *conn, deadline time.Time) error {
		out = out[:0]
		if err := setBudget(cn, deadline); err != nil {
			return err
		}
		start := time.Now()
		mr, err := cn.d.SendCommands(commands, opoptions.WithStopOnFailed())
		if err != nil {
			c.log(ctx, "CLI show", map[string]any{"op": "show", "command": strings.Join(commands, "; "),
				"duration_ms": time.Since(start).Milliseconds(), "error": err.Error()})
			return err
		}
		for _, r := range mr.Responses {
			c.log(ctx, "CLI show", map[string]any{"op": "show", "command": r.Input,
				"duration_ms": int64(r.ElapsedTime * 1000), "error": event.ErrText(r.Failed)})
			if r.Failed != nil {
				return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "show", Rejected: true,
					Line: r.Input, Output: deviceText(r.Result)}
			}
			out = append(out, r.Result)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Configure applies lines in one transaction, named "roce-" and 8 random hex digits.
//
// On EOS it is a configuration session: `configure session NAME`, the lines (stopping at the
// first the device refuses), `commit`. A refused line, or any failure after the session was
// entered and before `commit` was sent, aborts the session (nothing changes). With SaveConfig,
// `write memory` follows a commit.
//
// On NX-OS, whose lines take effect as typed, it is a checkpoint: `checkpoint NAME` in
// privileged exec, `configure terminal`, the lines (stopping at the first refused), `end`. A
// refused line, or any failure after the checkpoint was taken, rolls the running-config back
// (`rollback running-config checkpoint NAME atomic`). `no checkpoint NAME` follows in every case.
// With SaveConfig, `copy running-config startup-config` follows a success.
//
// A failed transaction is an *Error; RolledBack says whether the device was left as it was.
func (c *Client) Configure(ctx context.Context, lines []string) error {
	if len(lines) == 0 {
		return nil
	}
	if err := c.checkLines("configure", lines); err != nil {
		return err
	}
	if c.cfg.Platform != platformEOS && c.cfg.Platform != platformNXOS {
		return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "configure",
			Err: fmt.Errorf("platform %q is not a CLI platform this provider supports (%s, %s)",
				c.cfg.Platform, platformEOS, platformNXOS)}
	}
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "configure", Err: err}
	}
	name := "roce-" + hex.EncodeToString(b)
	if c.cfg.Platform == platformNXOS {
		cp := &checkpoint{c: c, name: name}
		// The rollback after a failure gets time of its own, as much again as the transaction:
		// an NX-OS rollback rebuilds the configuration and takes seconds on a real switch.
		grace := c.cfg.Timeout
		err := c.do(ctx, "configure", grace, func(ctx context.Context, cn *conn, deadline time.Time) error {
			return cp.run(ctx, cn, lines, deadline, deadline.Add(grace))
		})
		return c.withWarnings(err, cp.warnings)
	}
	s := &session{c: c, name: name}
	// The abort after a failure gets time of its own, so a timeout still rolls back.
	grace := min(c.cfg.Timeout, 10*time.Second)
	err := c.do(ctx, "configure", grace, func(ctx context.Context, cn *conn, deadline time.Time) error {
		return s.run(ctx, cn, lines, deadline, deadline.Add(grace))
	})
	return c.withWarnings(err, s.warnings)
}

// withWarnings adds the warnings of a committed transaction to its result: an *Error that is only
// a warning (Warned) when nothing else went wrong, or the NotSaved error carrying them.
func (c *Client) withWarnings(err error, warns []Warning) error {
	if len(warns) == 0 {
		return err
	}
	if err == nil {
		return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "configure", Warnings: warns}
	}
	var ce *Error
	if errors.As(err, &ce) && ce.NotSaved {
		ce.Warnings = warns
	}
	return err
}

// checkLines refuses text that would be more than one CLI line, that the CLI would not run as
// typed, or that would leave (or end) the configuration session or mode midway, so that the
// lines after it ran outside the transaction.
func (c *Client) checkLines(op string, lines []string) error {
	for _, l := range lines {
		word, _, _ := strings.Cut(strings.TrimSpace(l), " ")
		switch {
		case strings.ContainsAny(l, "\r\n\x00\x1a"): // \x1a: Ctrl-Z, which ends configuration mode
			return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: op,
				Err: fmt.Errorf("%q holds a line break: one element is one CLI line", l)}
		case strings.ContainsAny(l, "?\t"):
			// EOS and NX-OS answer `?` with help and Tab with completion at once, as typed,
			// and leave the line half-entered: what runs would not be what was sent.
			return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: op,
				Err: fmt.Errorf("%q holds `?` or a tab, which the CLI answers with help or completion instead of running the line", l)}
		case op == "configure" && (word == "end" || word == "commit" || word == "abort"):
			return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: op,
				Err: fmt.Errorf("%q would leave the configuration transaction; the transport enters and ends it", l)}
		}
	}
	return nil
}

// fixPrompts resolves the platforms' prompt ambiguities. arista_eos: the privilege-exec pattern
// also matches `sw(config)#`, and the configuration pattern also matches session prompts
// `sw(config-s-x)#`. cisco_nxos: the configuration level's not-contains "config-s", meant for
// configuration-session prompts (`sw(config-s)#`, `sw(config-s-if)#`), also excludes
// `sw(config-sys-qos)#` (and `(config-subif)`), which are plain configuration submodes.
func fixPrompts(platformName string, d *network.Driver) {
	switch platformName {
	case platformEOS:
		if p := d.PrivilegeLevels[privExec]; p != nil {
			p.NotContains = []string{"(config"}
		}
		if p := d.PrivilegeLevels["configuration"]; p != nil {
			p.NotContains = []string{"(config-s-"}
		}
	case platformNXOS:
		if p := d.PrivilegeLevels["configuration"]; p != nil {
			p.NotContains = []string{"(config-tcl)", "(config-s)", "(config-s-"}
		}
	default:
		return
	}
	d.UpdatePrivileges()
}

// readyForConfig readies cn for a configuration transaction: the failure texts of its
// platform, the time budget up to deadline, privileged exec.
func readyForConfig(cn *conn, deadline time.Time) ([]string, error) {
	texts := configFailures(cn.d)
	if err := setBudget(cn, deadline); err != nil {
		return nil, err
	}
	if cn.d.CurrentPriv != privExec {
		if err := cn.d.AcquirePriv(privExec); err != nil {
			return nil, err
		}
	}
	return texts, nil
}

// sendInput types line at channel level; reached reports whether any of it was written to the
// device (an error before that left nothing to undo).
func sendInput(cn *conn, line string) (out []byte, reached bool, err error) {
	sent := cn.tr.writes.Load()
	out, err = cn.d.Channel.SendInput(line)
	return out, cn.tr.writes.Load() != sent, err
}

// stepLog logs one command of a configure transaction (session.log, checkpoint.log).
type stepLog func(ctx context.Context, command string, err error, out []byte, texts []string)

// sendLines sends a transaction's lines at privilege level, stopping at the first the device
// refuses, and logs them (all at once when sending failed, else each with its answer). Fail
// closed: any answer that is not a known warning is a refusal (answers.go), and the first
// refused line is the one to blame (line, with the device's text), though scrapligo stopped
// only at a known failure text; warns are the lines applied with a warning.
func (c *Client) sendLines(ctx context.Context, cn *conn, level string, lines, texts []string, log stepLog) (line, text string, warns []Warning, err error) {
	mr, err := cn.d.SendConfigs(lines, opoptions.WithPrivilegeLevel(level), opoptions.WithStopOnFailed(),
		opoptions.WithFailedWhenContains(texts))
	if err != nil {
		log(ctx, strings.Join(lines, "; "), err, nil, texts)
		return "", "", nil, err
	}
	for _, r := range mr.Responses {
		log(ctx, r.Input, nil, r.RawResult, texts)
	}
	line, text, warns = answers(c.cfg.Platform, mr.Responses)
	return line, text, warns, nil
}

// configFailures are the texts that make a configuration line refused: the platform's list
// (NX-OS's has "ERROR:") plus "% ", since EOS and NX-OS start their errors with it but the lists
// miss some ("% Maximum number of pending sessions has been reached", "% Invalid number, range
// is (0:7) at '^' marker."), and a configuration line prints nothing else on success.
func configFailures(d *network.Driver) []string {
	return append(append([]string{}, d.FailedWhenContains...), "% ")
}

func refused(out string, texts []string) bool {
	for _, t := range texts {
		if strings.Contains(out, t) {
			return true
		}
	}
	return false
}

// deviceText is a device's answer for an error message: trimmed, and without NX-OS's caret line
// (`^` under the offending token, placed by the width of a prompt the message does not show).
func deviceText(out string) string {
	lines := strings.Split(strings.ReplaceAll(out, "\r", ""), "\n")
	keep := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != "^" {
			keep = append(keep, l)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}
