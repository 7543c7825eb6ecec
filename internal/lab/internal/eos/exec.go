package eos

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"

// The `eos` switch's exec-mode commands, and those every configuration mode shares (exit,
// end, show, write, commit, abort).

func eosExecTable() []eosCmd {
	return []eosCmd{
		{Name: "enable", Fn: cliswitch.NoArgs(toPriv)}, // no enable secret is set: no password asked
		{Name: "disable", Fn: cliswitch.NoArgs(toExec)},
		{Name: "exit", Fn: cliswitch.NoArgs(logout)},
		{Name: "logout", Fn: cliswitch.NoArgs(logout)},
		{Name: "terminal", Fn: cmdTerminal},
		{Name: "show", Fn: cmdShow},
		{Name: "configure", Fn: cmdConfigure},
		{Name: "no", Fn: cmdNoConfigureSession},
		{Name: "write", Fn: cmdWrite},
		{Name: "copy", Fn: cmdCopy},
	}
}

// eosCommonTable is what a configuration mode adds to its own commands.
func eosCommonTable(inSession bool) []eosCmd {
	t := []eosCmd{
		{Name: "exit", Fn: cliswitch.NoArgs(toParent)},
		{Name: "end", Fn: cliswitch.NoArgs(toPriv)},
		{Name: "show", Fn: cmdShow},
		{Name: "write", Fn: cmdWrite},
		{Name: "copy", Fn: cmdCopy},
	}
	if inSession {
		t = append(t, eosCmd{Name: "commit", Fn: cmdCommit}, eosCmd{Name: "abort", Fn: cliswitch.NoArgs(abort)})
	}
	return t
}

// The moves of the commands without arguments: where the terminal goes next.
func toPriv(x *eosCtx)   { x.next = eosMode{kind: modePriv} }
func toExec(x *eosCtx)   { x.next = eosMode{kind: modeExec} }
func toParent(x *eosCtx) { x.next = x.mode.parent() }

// logout ends the terminal: the SSH layer closes the connection.
func logout(x *eosCtx) { x.t.closed = true }

func (x *eosCtx) privileged() bool { return x.t.mode.kind != modeExec }

// cmdTerminal: `terminal length N` (0-32767), `terminal width N` (10-32767); their answers and
// sources are in eos-switch.md, "Exec commands".
func cmdTerminal(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	what, n, err := a.TerminalSize(10, 32767)
	if err != nil {
		return err
	}
	switch {
	case what == "width":
		x.printf("Width set to %d columns.\n", n)
	case n == 0:
		x.printf("Pagination disabled.\n")
	default:
		x.printf("Pagination set to %d lines.\n", n)
	}
	return nil
}

// cmdConfigure: `configure [terminal]`, `configure session [NAME [commit|abort]]`.
func cmdConfigure(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if !x.privileged() {
		return errPrivileged()
	}
	what, err := a.OptKw("terminal", "session")
	if err != nil {
		return err
	}
	if what != "session" {
		if err := a.Done(); err != nil {
			return err
		}
		x.next = eosMode{kind: modeConfig}
		return nil
	}
	name := ""
	if a.More() {
		name, _ = a.Word()
	}
	action, err := a.OptKw("commit", "abort")
	if err != nil {
		return err
	}
	if err := a.Done(); err != nil {
		return err
	}
	switch action {
	case "commit":
		return x.sw.commitNamed(name, x.t)
	case "abort":
		return x.sw.abortNamed(name, x.t)
	}
	if err := x.t.enterSession(name); err != nil {
		return err
	}
	x.next = eosMode{kind: modeConfig}
	return nil
}

// cmdNoConfigureSession: `no configure session NAME` deletes a pending session.
func cmdNoConfigureSession(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if _, err := a.Kw("configure"); err != nil {
		return err
	}
	if !x.privileged() {
		return errPrivileged()
	}
	if _, err := a.Kw("session"); err != nil {
		return err
	}
	name, err := cliswitch.Last(a, (*cliswitch.Args).Word)
	if err != nil {
		return err
	}
	return x.sw.abortNamed(name, x.t)
}

func cmdWrite(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if !x.privileged() {
		return errPrivileged()
	}
	if _, err := a.OptKw("memory"); err != nil {
		return err
	}
	return x.save(a)
}

func cmdCopy(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if !x.privileged() {
		return errPrivileged()
	}
	if err := a.Keywords("running-config", "startup-config"); err != nil {
		return err
	}
	return x.save(a)
}

// save writes the running-config (never a session's candidate) as the startup-config; its answer
// is assumed (eos-switch.md, "Exec commands").
func (x *eosCtx) save(a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Done(); err != nil {
		return err
	}
	x.sw.startup = x.sw.renderRunning(x.sw.running)
	x.printf("Copy completed successfully.\n")
	return nil
}

func cmdCommit(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Done(); err != nil {
		return err
	}
	if err := x.sw.commit(x.t.session); err != nil {
		return err
	}
	x.next = eosMode{kind: modePriv}
	return nil
}

// abort drops the terminal's session and leaves configuration.
func abort(x *eosCtx) {
	x.sw.removeSession(x.t.session)
	toPriv(x)
}
