package sh

// sudo (the login user has a NOPASSWD rule unless the host says otherwise)
// and sh (dash) as commands.

import (
	"fmt"
	"io"
	"strings"
)

const sudoUsage = "usage: sudo -h | -K | -k | -V\n" +
	"usage: sudo -v [-ABkNnS] [-g group] [-h host] [-p prompt] [-u user]\n" +
	"usage: sudo -l [-ABkNnS] [-g group] [-h host] [-p prompt] [-U user] [-u user] [command [arg ...]]\n" +
	"usage: sudo [-ABbEHkNnPS] [-C num] [-D directory] [-g group] [-h host] [-p prompt] [-R directory] [-T timeout] [-u user] [VAR=value] [-i | -s] [command [arg ...]]\n" +
	"usage: sudo -e [-ABkNnS] [-C num] [-D directory] [-g group] [-h host] [-p prompt] [-R directory] [-T timeout] [-u user] file ...\n"

func cmdSudo(e *Env, args []string) int {
	nonInteractive, asRoot := false, true
	i := 1
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		switch a {
		case "--non-interactive":
			nonInteractive = true
			continue
		case "--preserve-env", "--set-home":
			continue
		case "-u", "--user":
			if i+1 >= len(args) {
				fmt.Fprintf(e.Stderr, "sudo: option requires an argument -- 'u'\n%s", sudoUsage)
				return 1
			}
			i++
			switch args[i] {
			case "root", "#0":
			case e.Sh.sys.User:
				asRoot = false
			default:
				fmt.Fprintf(e.Stderr, "sudo: unknown user %s\n", args[i])
				return 1
			}
			continue
		}
		for _, f := range a[1:] {
			switch f {
			case 'n':
				nonInteractive = true
			case 'E', 'H':
			default:
				fmt.Fprintf(e.Stderr, "sudo: invalid option -- '%c'\n%s", f, sudoUsage)
				return 1
			}
		}
	}
	if i >= len(args) {
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
	c := e.Sh.sys.LookupCommand(args[i])
	if c == nil {
		fmt.Fprintf(e.Stderr, "sudo: %s: command not found\n", args[i])
		return 1
	}
	inner := *e
	inner.Root = asRoot
	inner.builtin = false
	inner.Sh = NewShell(e.Sh.sys, inner.Root, e.Sh.name, e.Sh.cwd, e.Stdin, e.Stdout, e.Stderr) // sudo keeps the directory
	return c(&inner, args[i:])
}

// cmdSh is dash: sh -c SCRIPT [NAME], sh FILE, or the script on standard
// input; -e exits on the first failing command, -u on the expansion of an
// unset parameter. The new shell starts in the caller's directory with the
// caller's environment, not its unexported variables.
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
				fmt.Fprintf(e.Stderr, "sh: 0: %s\n", unsupported(0, fmt.Sprintf("option -%c", f)).err)
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
