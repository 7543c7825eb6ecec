package eos

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"

// The `eos` switch's exec-mode commands, and those every configuration mode shares (exit,
// end, show, write, commit, abort).

func eosExecTable() []eosCmd {
	return []eosCmd{
		{Name: "enable", Fn: cmdEnable},
		{Name: "disable", Fn: cmdDisable},
		{Name: "exit", Fn: cmdLogout},
		{Name: "logout", Fn: cmdLogout},
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
		{Name: "exit", Fn: cmdExit},
		{Name: "end", Fn: cmdEnd},
		{Name: "show", Fn: cmdShow},
		{Name: "write", Fn: cmdWrite},
		{Name: "copy", Fn: cmdCopy},
	}
	if inSession {
		t = append(t, eosCmd{Name: "commit", Fn: cmdCommit}, eosCmd{Name: "abort", Fn: cmdAbort})
	}
	return t
}

func (x *eosCtx) privileged() bool { return x.t.mode.kind != modeExec }

func cmdEnable(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Done(); err != nil {
		return err
	}
	x.next = eosMode{kind: modePriv} // no enable secret is set: no password asked
	return nil
}

func cmdDisable(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Done(); err != nil {
		return err
	}
	x.next = eosMode{kind: modeExec}
	return nil
}

func cmdLogout(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Done(); err != nil {
		return err
	}
	x.t.closed = true
	return nil
}

func cmdTerminal(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	what, err := a.Kw("length", "width")
	if err != nil {
		return err
	}
	lo := 0
	if what == "width" {
		lo = 10
	}
	n, err := a.Num(lo, 32767)
	if err != nil {
		return err
	}
	if err := a.Done(); err != nil {
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
	name, err := a.Word()
	if err != nil {
		return err
	}
	if err := a.Done(); err != nil {
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

// save writes the running-config (never a session's candidate) as the startup-config.
func (x *eosCtx) save(a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Done(); err != nil {
		return err
	}
	x.sw.startup = x.sw.renderRunning(x.sw.running)
	x.printf("Copy completed successfully.\n")
	return nil
}

func cmdExit(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Done(); err != nil {
		return err
	}
	x.next = x.mode.parent()
	return nil
}

func cmdEnd(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Done(); err != nil {
		return err
	}
	x.next = eosMode{kind: modePriv}
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

func cmdAbort(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Done(); err != nil {
		return err
	}
	x.sw.removeSession(x.t.session)
	x.next = eosMode{kind: modePriv}
	return nil
}
