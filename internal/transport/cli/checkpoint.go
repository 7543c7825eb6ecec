package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// checkpoint is one NX-OS checkpoint transaction. NX-OS applies configuration lines as they are
// typed, so the transaction is a checkpoint of the running-config taken first and rolled back to
// (atomically: all or nothing) when a line is refused or anything fails.
type checkpoint struct {
	c        *Client
	name     string
	warnings []Warning // lines the device applied with a warning
}

const rollbackDone = "Rollback completed successfully"

// run takes the checkpoint, applies the lines in configure terminal and deletes the checkpoint.
func (cp *checkpoint) run(ctx context.Context, cn *conn, lines []string, deadline, hard time.Time) error {
	c := cp.c
	texts, err := readyForConfig(cn, deadline)
	if err != nil {
		return err
	}
	if err := cp.waitForeign(ctx, cn, deadline, texts); err != nil {
		return err
	}
	take := "checkpoint " + cp.name
	out, reached, err := sendInput(cn, take)
	cp.log(ctx, take, err, out, texts)
	switch {
	case err != nil && !reached:
		return err // nothing reached the device
	case err != nil:
		return cp.fail(fmt.Errorf("%w; nothing was changed (checkpoint %s may be left on the device: "+
			"the provider deletes roce- checkpoints older than an hour when it next connects)",
			c.cause(ctx, cn, err), cp.name), "", "", true)
	case refused(string(out), texts):
		e := cp.fail(errors.New("no checkpoint was taken, nothing was changed"), take, deviceText(string(out)), true)
		e.Rejected = true
		return e
	}
	if f := cp.apply(ctx, cn, lines, deadline, texts); f != nil {
		// NX-OS applied the lines typed before the failure: when the connection is what failed,
		// roll back over a new one rather than leave them (and the checkpoint) behind.
		cn = cp.reconnect(ctx, cn, hard)
		err := cp.rollback(ctx, cn, hard, f)
		var ce *Error
		if errors.As(err, &ce) && !ce.RolledBack {
			// The rollback failed: the checkpoint is the operator's way back
			// (`rollback running-config checkpoint NAME atomic` by hand), so it stays; the
			// connect-time cleanup removes it after an hour.
			return err
		}
		_ = cp.remove(ctx, cn, hard, texts) // logged; the rollback's error says what matters
		return err
	}
	removeErr := cp.remove(ctx, cn, hard, texts)
	if c.cfg.SaveConfig {
		if err := cp.save(ctx, cn, hard); err != nil {
			return err
		}
	}
	if removeErr != nil {
		return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "configure", Line: "no checkpoint " + cp.name,
			Err: fmt.Errorf("the change is applied, but deleting checkpoint %s failed (%w); `no checkpoint %s` deletes it "+
				"(the provider deletes roce- checkpoints older than an hour when it next connects)", cp.name, removeErr, cp.name)}
	}
	return nil
}

// applyFailure is what went wrong between the checkpoint and `end`: a refused line (line and
// output) or a failure (err).
type applyFailure struct {
	line, output string
	err          error
}

// apply enters configure terminal, sends the lines, stopping at the first refused one, and ends
// configuration mode. Every failure is an *applyFailure: the checkpoint is to be rolled back to.
func (cp *checkpoint) apply(ctx context.Context, cn *conn, lines []string, deadline time.Time, texts []string) *applyFailure {
	d := cn.d
	if err := setBudget(cn, deadline); err != nil {
		return &applyFailure{err: err}
	}
	// Entered at channel level rather than by AcquirePriv, which would resend the command on a
	// refusal and lose the device's text.
	const enter = "configure terminal"
	out, err := d.Channel.SendInput(enter)
	cp.log(ctx, enter, err, out, texts)
	switch {
	case err != nil:
		return &applyFailure{err: err}
	case refused(string(out), texts):
		return &applyFailure{line: enter, output: deviceText(string(out))}
	}
	// A refused line may be one NX-OS answers with no failure text scrapligo knows, such as
	// `Unable to perform the action due to incompatibility:  Module 1 returned status "..."`.
	line, text, warns, err := cp.c.sendLines(ctx, cn, "configuration", lines, texts, cp.log)
	if err != nil {
		return &applyFailure{err: err}
	}
	if text != "" {
		return &applyFailure{line: line, output: deviceText(text)}
	}
	cp.warnings = warns
	if err := setBudget(cn, deadline); err != nil {
		return &applyFailure{err: err}
	}
	// `end`, sent by AcquirePriv only if the CLI is still in configuration mode (a trailing
	// `exit` may have left it), and checked by the prompt that follows.
	if err := d.AcquirePriv(privExec); err != nil {
		return &applyFailure{err: err}
	}
	return nil
}

// rollback restores the checkpoint after f and builds the transaction's error.
func (cp *checkpoint) rollback(ctx context.Context, cn *conn, hard time.Time, f *applyFailure) error {
	c := cp.c
	var note string
	rolledBack := false
	if err := cp.restore(ctx, cn, hard); err != nil {
		note = fmt.Sprintf("rolling back to checkpoint %s failed (%v): the switch may hold part of the change; "+
			"a refresh shows the device's state, and the checkpoint is kept for a rollback by hand "+
			"(`rollback running-config checkpoint %s atomic`)", cp.name, c.cause(ctx, cn, err), cp.name)
	} else {
		rolledBack = true
		note = fmt.Sprintf("the configuration was rolled back to checkpoint %s, nothing was changed", cp.name)
	}
	if f.err == nil {
		e := cp.fail(errors.New(note), f.line, f.output, rolledBack)
		e.Rejected = true
		return e
	}
	return cp.fail(fmt.Errorf("%w; %s", c.cause(ctx, cn, f.err), note), "", "", rolledBack)
}

// fail is the transaction's *Error.
func (cp *checkpoint) fail(err error, line, output string, rolledBack bool) *Error {
	c := cp.c
	return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "configure", Line: line, Output: output,
		RolledBack: rolledBack, Err: err}
}

// restore leaves configuration mode if the CLI is still there and rolls the running-config back
// to the checkpoint, atomically; only NX-OS's own success line counts as success.
func (cp *checkpoint) restore(ctx context.Context, cn *conn, hard time.Time) error {
	d := cn.d
	if !cn.tr.IsAlive() {
		return errors.New("the connection is closed")
	}
	if err := setBudget(cn, hard); err != nil {
		return err
	}
	if err := d.AcquirePriv(privExec); err != nil { // `end` if needed
		return err
	}
	cmd := "rollback running-config checkpoint " + cp.name + " atomic"
	out, err := d.Channel.SendInput(cmd)
	cp.log(ctx, cmd, err, out, configFailures(d))
	if err != nil {
		return err
	}
	if !strings.Contains(string(out), rollbackDone) {
		return fmt.Errorf("the device answered: %s", lastLines(string(out), 3))
	}
	return nil
}

// remove deletes the checkpoint. It runs after every transaction that took one; a failure is
// logged here and reported by the caller only when nothing else failed.
func (cp *checkpoint) remove(ctx context.Context, cn *conn, hard time.Time, texts []string) error {
	d := cn.d
	cmd := "no checkpoint " + cp.name
	err := func() error {
		if !cn.tr.IsAlive() {
			return errors.New("the connection is closed")
		}
		if err := setBudget(cn, hard); err != nil {
			return err
		}
		if d.CurrentPriv != privExec {
			if err := d.AcquirePriv(privExec); err != nil {
				return err
			}
		}
		out, err := d.Channel.SendInput(cmd)
		cp.log(ctx, cmd, err, out, texts)
		if err == nil && refused(string(out), texts) {
			err = fmt.Errorf("the device answered: %s", deviceText(string(out)))
		}
		return err
	}()
	if err != nil {
		if cp.c.leftovers == nil {
			cp.c.leftovers = map[string]bool{}
		}
		cp.c.leftovers[cp.name] = true
		err = cp.c.cause(ctx, cn, err)
		cp.c.log(ctx, "CLI could not delete checkpoint", map[string]any{"op": "configure", "checkpoint": cp.name,
			"command": cmd, "error": err.Error()})
	}
	return err
}

// save copies the running-config to the startup-config after a successful transaction.
func (cp *checkpoint) save(ctx context.Context, cn *conn, hard time.Time) error {
	c, d := cp.c, cn.d
	const cmd = "copy running-config startup-config"
	err := setBudget(cn, hard) // the save gets the grace time too
	if err == nil {
		var out []byte
		out, err = d.Channel.SendInput(cmd)
		cp.log(ctx, cmd, err, out, d.FailedWhenContains)
		if err == nil && (refused(string(out), d.FailedWhenContains) || !strings.Contains(string(out), "Copy complete")) {
			err = fmt.Errorf("the device answered: %s", lastLines(string(out), 3))
		}
	}
	if err != nil {
		return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "configure", Line: cmd, NotSaved: true, Err: fmt.Errorf(
			"the change is applied (checkpoint transaction %s) but not saved to startup-config: %w",
			cp.name, c.cause(ctx, cn, err))}
	}
	return nil
}

func (cp *checkpoint) log(ctx context.Context, command string, err error, out []byte, texts []string) {
	cp.c.logStep(ctx, "checkpoint", cp.name, command, err, out, texts, deviceText)
}

// lastLines is the last n non-empty lines of out, joined by "; ": the end of a long transcript
// (a rollback's) is where NX-OS says what happened.
func lastLines(out string, n int) string {
	var keep []string
	for _, l := range strings.Split(strings.ReplaceAll(out, "\r", ""), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			keep = append(keep, l)
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	if len(keep) == 0 {
		return "(nothing)"
	}
	return strings.Join(keep, "; ")
}

// foreignPoll is how often waitForeign looks again at another transaction's checkpoint.
var foreignPoll = time.Second

// waitForeign waits while another provider process is changing the switch. NX-OS has no
// configuration lock, and two transactions in configure terminal at once would interleave their
// lines (and one's rollback would undo the other's): our checkpoints are the lock. A roce-
// checkpoint that is not ours belongs to a transaction in progress (the ones dead processes left
// behind for more than an hour are deleted on connect), so this polls until it is gone, up to
// the operation's deadline, then fails naming it.
func (cp *checkpoint) waitForeign(ctx context.Context, cn *conn, deadline time.Time, texts []string) error {
	c, d := cp.c, cn.d
	const list = "show checkpoint summary user"
	for {
		r, err := d.SendCommand(list)
		if err != nil {
			return err
		}
		if refused(r.Result, texts) {
			return nil // cannot list checkpoints: nothing to wait for that we could see
		}
		var foreign *userCheckpoint
		for _, other := range parseCheckpoints(r.Result) {
			if !ourCheckpoint.MatchString(other.Name) || other.Name == cp.name {
				continue
			}
			if c.leftovers[other.Name] {
				// Ours, from an earlier transaction whose delete failed: delete it now.
				if r, err := d.SendCommand("no checkpoint " + other.Name); err == nil && !refused(r.Result, texts) {
					delete(c.leftovers, other.Name)
				}
				continue
			}
			foreign = &other
			break
		}
		if foreign == nil {
			return nil
		}
		c.log(ctx, "CLI waiting for another transaction", map[string]any{"op": "configure", "checkpoint": foreign.Name})
		if time.Now().Add(foreignPoll).After(deadline) {
			return &Error{Device: c.cfg.Device, Address: c.cfg.Address, Op: "configure", Line: list, Err: fmt.Errorf(
				"another change is in progress on the switch (checkpoint %s, created %s): NX-OS has no configuration "+
					"lock, so the provider waits for it, and it did not finish within the timeout; nothing was changed. "+
					"Retry when the other run is done; if no other Terraform run is changing the switch, delete the "+
					"checkpoint with `no checkpoint %s`", foreign.Name, foreign.Created.Format("2006-01-02 15:04:05"), foreign.Name)}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(foreignPoll):
		}
	}
}

// reconnect returns cn while it is open, else a new connection to the switch (until hard), so a
// rollback can still run after the connection dropped in the middle of a transaction; cn itself
// when reconnecting fails (the rollback then reports the closed connection).
func (cp *checkpoint) reconnect(ctx context.Context, cn *conn, hard time.Time) *conn {
	if cn.tr.IsAlive() && !cn.killed.Load() {
		return cn
	}
	c := cp.c
	c.drop()
	rctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), hard)
	defer cancel()
	fresh, _, err := c.connect(rctx)
	if err != nil {
		c.log(ctx, "CLI could not reconnect to roll back", map[string]any{"op": "configure", "checkpoint": cp.name,
			"error": err.Error()})
		return cn
	}
	c.log(ctx, "CLI reconnected to roll back", map[string]any{"op": "configure", "checkpoint": cp.name})
	return fresh
}
