package sh

// sudo (the login user has a NOPASSWD rule unless the host says otherwise)
// and sh (dash) as commands.

import (
	"fmt"
	"io"
	"strings"
)

// sudoUsage is sudo 1.9.13p3's usage (src/parse_args.c usage, src/sudo_usage.h.in with Debian's
// SELinux build: "[-r role] [-t type]"), wrapped as sudo's lbuf wraps it without a terminal
// (80 columns, continuation lines indented 12): Debian's sudo prints exactly this.
const sudoUsage = `usage: sudo -h | -K | -k | -V
usage: sudo -v [-ABkNnS] [-g group] [-h host] [-p prompt] [-u user]
usage: sudo -l [-ABkNnS] [-g group] [-h host] [-p prompt] [-U user] [-u user]
            [command [arg ...]]
usage: sudo [-ABbEHkNnPS] [-r role] [-t type] [-C num] [-D directory] [-g
            group] [-h host] [-p prompt] [-R directory] [-T timeout] [-u user]
            [VAR=value] [-i | -s] [command [arg ...]]
usage: sudo -e [-ABkNnS] [-r role] [-t type] [-C num] [-D directory] [-g group]
            [-h host] [-p prompt] [-R directory] [-T timeout] [-u user] file ...
`

// sudoOpts are sudo 1.9.13p3's options (src/parse_args.c sudo_short_opts, sudo_long_opts at
// sudo-project/sudo@4e0de8d5); the lab emulates -n, -u, -E and -H (the last two change
// nothing here: the environment is fixed).
var sudoOpts = optSpec{real: "+Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv", emulated: "nuEH", longs: []longOpt{
	{"background", noArg, 'b'}, {"preserve-env", optArg, 'E'}, {"edit", noArg, 'e'},
	{"set-home", noArg, 'H'}, {"login", noArg, 'i'}, {"remove-timestamp", noArg, 'K'},
	{"list", noArg, 'l'}, {"preserve-groups", noArg, 'P'}, {"shell", noArg, 's'},
	{"other-user", reqArg, 'U'}, {"validate", noArg, 'v'}, {"askpass", noArg, 'A'},
	{"auth-type", reqArg, 'a'}, {"bell", noArg, 'B'}, {"close-from", reqArg, 'C'},
	{"login-class", reqArg, 'c'}, {"chdir", reqArg, 'D'}, {"group", reqArg, 'g'},
	{"help", noArg, 'h'}, {"host", reqArg, 0}, {"reset-timestamp", noArg, 'k'},
	{"no-update", noArg, 'N'}, {"non-interactive", noArg, 'n'}, {"prompt", reqArg, 'p'},
	{"chroot", reqArg, 'R'}, {"role", reqArg, 'r'}, {"stdin", noArg, 'S'},
	{"command-timeout", reqArg, 'T'}, {"type", reqArg, 't'}, {"user", reqArg, 'u'},
	{"version", noArg, 'V'},
}}

func cmdSudo(e *Env, args []string) int {
	opts, cmd, bad := sudoOpts.parse(args[1:])
	if bad != nil {
		bad.report(e.Stderr, args[0], sudoUsage)
		return 1
	}
	nonInteractive, asRoot, user := false, true, ""
	for _, o := range opts {
		switch o.c {
		case 'n':
			nonInteractive = true
		case 'u':
			if o.arg == "" || user != "" { // parse_args: an empty or a second -u is a usage error
				fmt.Fprint(e.Stderr, sudoUsage)
				return 1
			}
			user = o.arg
		}
	}
	if len(cmd) > 0 && !strings.HasPrefix(cmd[0], "/") && strings.Contains(cmd[0], "=") {
		fmt.Fprintf(e.Stderr, "lab: sudo VAR=value is not emulated\n")
		return 1
	}
	switch user {
	case "", "root", "#0":
	case e.Sh.sys.User:
		asRoot = false
	default:
		// The lab host has no other users. The sudoers plugin reports the user at its start,
		// and sudo then gives up on its audit plugin (plugins/sudoers/sudoers.c, src/sudo.c).
		fmt.Fprintf(e.Stderr, "sudo: unknown user %s\nsudo: error initializing audit plugin sudoers_audit\n", user)
		return 1
	}
	if len(cmd) == 0 { // an implied shell, which sudoers refuses with the usage (no shell_noargs)
		fmt.Fprint(e.Stderr, sudoUsage)
		return 1
	}
	if e.Sh.sys.SudoPassword() && !e.Root {
		if !nonInteractive {
			fmt.Fprintln(e.Stderr, "sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper")
		}
		fmt.Fprintln(e.Stderr, "sudo: a password is required")
		return 1
	}
	c := e.Sh.sys.LookupCommand(cmd[0])
	if c == nil {
		fmt.Fprintf(e.Stderr, "sudo: %s: command not found\n", cmd[0])
		return 1
	}
	inner := *e
	inner.Root = asRoot
	inner.builtin = false
	inner.Sh = NewShell(e.Sh.sys, inner.Root, e.Sh.name, e.Sh.cwd, e.Stdin, e.Stdout, e.Stderr) // sudo keeps the directory
	return c(&inner, cmd)
}

// cmdSh is dash: sh -c SCRIPT [NAME], sh FILE, or the script on standard
// input; -e exits on the first failing command, -u on the expansion of an
// unset parameter. The new shell starts in the caller's directory with the
// caller's environment, not its unexported variables.
// dashOptions are the option letters dash 0.5.12 takes (Debian 12's: every letter `dash -X -c :`
// does not call an illegal option); the lab emulates -c, -e and -u.
const dashOptions = "CEIVabcefilmnopsuvx"

func cmdSh(e *Env, args []string) int {
	cflag, errexit, nounset := false, false, false
	i := 1
	for ; i < len(args) && len(args[i]) > 1 && (args[i][0] == '-' || args[i][0] == '+'); i++ {
		if args[i] == "--" {
			i++
			break
		}
		for _, f := range args[i][1:] {
			switch f {
			case 'c':
				cflag = true
			case 'e':
				errexit = args[i][0] == '-'
			case 'u':
				nounset = args[i][0] == '-'
			default:
				if !strings.ContainsRune(dashOptions, f) {
					fmt.Fprintf(e.Stderr, "sh: 0: Illegal option -%c\n", f)
				} else {
					fmt.Fprintf(e.Stderr, "sh: 0: %s\n", unsupported(0, fmt.Sprintf("option -%c", f)).err)
				}
				return 2
			}
		}
	}
	name := "sh"
	var script string
	switch {
	case cflag:
		if i >= len(args) {
			fmt.Fprintln(e.Stderr, "sh: 0: -c requires an argument")
			return 2
		}
		script = args[i]
		if i+1 < len(args) {
			name = args[i+1]
		}
	case i < len(args):
		data, err := e.Sh.sys.FS.ReadFile(e.Sh.abs(args[i]), e.Root)
		if err == EISDIR { // open(2) of a directory succeeds; dash reads its error as the end
			data, err = "", nil
		}
		if err != nil {
			fmt.Fprintf(e.Stderr, "sh: 0: cannot open %s: %s\n", args[i], errmsg(err, false))
			return 2
		}
		script, name = data, args[i]
	default:
		b, _ := io.ReadAll(e.Stdin)
		script = string(b)
	}
	nested := NewShell(e.Sh.sys, e.Root, name, e.Sh.cwd, e.Stdin, e.Stdout, e.Stderr)
	nested.errexit, nested.nounset = errexit, nounset
	return nested.Run(script)
}
