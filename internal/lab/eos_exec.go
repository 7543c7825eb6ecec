package lab

// The `eos` switch's exec-mode commands, and those every configuration mode shares (exit,
// end, show, write, commit, abort).

func eosExecTable() []eosCmd {
	return []eosCmd{
		{name: "enable", fn: cmdEnable},
		{name: "disable", fn: cmdDisable},
		{name: "exit", fn: cmdLogout},
		{name: "logout", fn: cmdLogout},
		{name: "terminal", fn: cmdTerminal},
		{name: "show", fn: cmdShow},
		{name: "configure", fn: cmdConfigure},
		{name: "no", fn: cmdNoConfigureSession},
		{name: "write", fn: cmdWrite},
		{name: "copy", fn: cmdCopy},
	}
}

// eosCommonTable is what a configuration mode adds to its own commands.
func eosCommonTable(inSession bool) []eosCmd {
	t := []eosCmd{
		{name: "exit", fn: cmdExit},
		{name: "end", fn: cmdEnd},
		{name: "show", fn: cmdShow},
		{name: "write", fn: cmdWrite},
		{name: "copy", fn: cmdCopy},
	}
	if inSession {
		t = append(t, eosCmd{name: "commit", fn: cmdCommit}, eosCmd{name: "abort", fn: cmdAbort})
	}
	return t
}

func (x *eosCtx) privileged() bool { return x.t.mode.kind != modeExec }

func cmdEnable(x *eosCtx, a *cliArgs) *cliError {
	if err := a.done(); err != nil {
		return err
	}
	x.next = eosMode{kind: modePriv} // no enable secret is set: no password asked
	return nil
}

func cmdDisable(x *eosCtx, a *cliArgs) *cliError {
	if err := a.done(); err != nil {
		return err
	}
	x.next = eosMode{kind: modeExec}
	return nil
}

func cmdLogout(x *eosCtx, a *cliArgs) *cliError {
	if err := a.done(); err != nil {
		return err
	}
	x.t.closed = true
	return nil
}

func cmdTerminal(x *eosCtx, a *cliArgs) *cliError {
	what, err := a.kw("length", "width")
	if err != nil {
		return err
	}
	lo := 0
	if what == "width" {
		lo = 10
	}
	n, err := a.num(lo, 32767)
	if err != nil {
		return err
	}
	if err := a.done(); err != nil {
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
func cmdConfigure(x *eosCtx, a *cliArgs) *cliError {
	if !x.privileged() {
		return errPrivileged()
	}
	what, err := a.optKw("terminal", "session")
	if err != nil {
		return err
	}
	if what != "session" {
		if err := a.done(); err != nil {
			return err
		}
		x.next = eosMode{kind: modeConfig}
		return nil
	}
	name := ""
	if a.more() {
		name, _ = a.word()
	}
	action, err := a.optKw("commit", "abort")
	if err != nil {
		return err
	}
	if err := a.done(); err != nil {
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
func cmdNoConfigureSession(x *eosCtx, a *cliArgs) *cliError {
	if _, err := a.kw("configure"); err != nil {
		return err
	}
	if !x.privileged() {
		return errPrivileged()
	}
	if _, err := a.kw("session"); err != nil {
		return err
	}
	name, err := a.word()
	if err != nil {
		return err
	}
	if err := a.done(); err != nil {
		return err
	}
	return x.sw.abortNamed(name, x.t)
}

func cmdWrite(x *eosCtx, a *cliArgs) *cliError {
	if !x.privileged() {
		return errPrivileged()
	}
	if _, err := a.optKw("memory"); err != nil {
		return err
	}
	return x.save(a)
}

func cmdCopy(x *eosCtx, a *cliArgs) *cliError {
	if !x.privileged() {
		return errPrivileged()
	}
	if _, err := a.kw("running-config"); err != nil {
		return err
	}
	if _, err := a.kw("startup-config"); err != nil {
		return err
	}
	return x.save(a)
}

// save writes the running-config (never a session's candidate) as the startup-config.
func (x *eosCtx) save(a *cliArgs) *cliError {
	if err := a.done(); err != nil {
		return err
	}
	x.sw.startup = x.sw.renderRunning(x.sw.running)
	x.printf("Copy completed successfully.\n")
	return nil
}

func cmdExit(x *eosCtx, a *cliArgs) *cliError {
	if err := a.done(); err != nil {
		return err
	}
	x.next = x.mode.parent()
	return nil
}

func cmdEnd(x *eosCtx, a *cliArgs) *cliError {
	if err := a.done(); err != nil {
		return err
	}
	x.next = eosMode{kind: modePriv}
	return nil
}

func cmdCommit(x *eosCtx, a *cliArgs) *cliError {
	if err := a.done(); err != nil {
		return err
	}
	if err := x.sw.commit(x.t.session); err != nil {
		return err
	}
	x.next = eosMode{kind: modePriv}
	return nil
}

func cmdAbort(x *eosCtx, a *cliArgs) *cliError {
	if err := a.done(); err != nil {
		return err
	}
	x.sw.removeSession(x.t.session)
	x.next = eosMode{kind: modePriv}
	return nil
}
