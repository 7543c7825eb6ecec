package lab

// The commands of a lab host, each with the options, messages and exit
// statuses of the real program (dash builtins, coreutils, GNU grep,
// procps pgrep, sudo) for the cases the provider and an operator use.

import (
	"fmt"
	"io"
	"path"
	"strings"
)

type cmdEnv struct {
	sh      *shell
	root    bool
	line    int
	builtin bool // run by dash itself rather than a program in /usr/bin
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
}

type command func(e *cmdEnv, args []string) int

// isShellBuiltin: dash runs these itself when named without a path.
func isShellBuiltin(name string) bool {
	return name == "echo" || name == "true" || name == "false" || name == "pwd" || name == "cd" || name == ":" ||
		name == "command"
}

// commands are the programs of the host by directory: /usr/bin and /usr/sbin (/usr/sbin is on
// a login user's PATH on Ubuntu and RHEL alike, and before /usr/bin).
func (h *Host) commands() (bin, sbin map[string]command) {
	bin = map[string]command{
		"echo": cmdEcho, "cat": cmdCat, "tee": cmdTee, "ls": cmdLs, "grep": cmdGrep,
		"pgrep": cmdPgrep, "true": cmdTrue, "false": cmdFalse, "sh": cmdSh, "sudo": cmdSudo,
		"mlnx_qos": cmdMlnxQos, "pwd": cmdPwd, "flock": cmdFlock, "rm": cmdRm,
		"systemctl": cmdSystemctl,
	}
	// iproute2 installs dcb in /sbin (/usr/sbin on a merged /usr); every current distribution
	// ships it, MLNX_OFED or not.
	sbin = map[string]command{"cma_roce_tos": cmdCmaRoceTos, "ethtool": cmdEthtool, "dcb": cmdDCB, "lldpcli": cmdLLDPCli}
	if h.noSystemd.Load() {
		delete(bin, "systemctl")
	}
	if h.inbox.Load() {
		delete(bin, "mlnx_qos") // mlnx-tools comes with MLNX_OFED (Debian does not package it)
	}
	if h.mft.Load() {
		bin["mlxconfig"] = cmdNVTool("mlxconfig")
	} else {
		bin["mstconfig"] = cmdNVTool("mstconfig")
	}
	return bin, sbin
}

// lookupCommand resolves a command name the way PATH does on the host.
func (h *Host) lookupCommand(name string) command {
	bin, sbin := h.commands()
	dir, base := path.Split(name)
	switch dir {
	case "":
		if c, ok := bin[base]; ok {
			return c
		}
		return sbin[base]
	case "/bin/", "/usr/bin/":
		return bin[base]
	case "/sbin/", "/usr/sbin/":
		return sbin[base]
	}
	return nil
}

// commandPath is where PATH finds name ("" when nowhere), as `command -v` prints it.
func (h *Host) commandPath(name string) string {
	if strings.Contains(name, "/") {
		if h.lookupCommand(name) != nil {
			return name
		}
		return ""
	}
	bin, sbin := h.commands()
	if _, ok := sbin[name]; ok {
		return "/usr/sbin/" + name
	}
	if _, ok := bin[name]; ok {
		return "/usr/bin/" + name
	}
	return ""
}

func (sh *shell) dispatch(args []string, line int, in io.Reader, out, errw io.Writer) int {
	c := sh.h.lookupCommand(args[0])
	switch args[0] {
	case "cd":
		c = cmdCd // builtins only: there is no such program
	case ":":
		c = cmdTrue
	case "command":
		c = cmdCommand
	}
	if c == nil {
		fmt.Fprintf(errw, "%s: %d: %s: not found\n", sh.name, line, args[0])
		return 127
	}
	e := &cmdEnv{sh: sh, root: sh.root, line: line, builtin: isShellBuiltin(args[0]),
		stdin: in, stdout: out, stderr: errw}
	return c(e, args)
}

// cmdCommand is dash's command builtin (exec.c commandcmd) for -v and for running a command:
// -v describes only the first name (dash ignores the rest): a builtin by its name, a program by
// the path PATH finds it at, nothing and status 127 when there is none. -V and -p are not
// emulated (assumed unused by the provider); other options are refused as dash does.
func cmdCommand(e *cmdEnv, args []string) int {
	args = args[1:]
	verify := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, f := range args[0][1:] {
			if f != 'v' {
				fmt.Fprintf(e.stderr, "%s: %d: command: Illegal option -%c\n", e.sh.name, e.line, f)
				return 2
			}
			verify = true
		}
		args = args[1:]
	}
	switch {
	case len(args) == 0:
		return 0
	case !verify:
		return e.sh.dispatch(args, e.line, e.stdin, e.stdout, e.stderr)
	case isShellBuiltin(args[0]):
		fmt.Fprintln(e.stdout, args[0])
		return 0
	}
	if p := e.sh.h.commandPath(args[0]); p != "" {
		fmt.Fprintln(e.stdout, p)
		return 0
	}
	return 127
}

func cmdTrue(*cmdEnv, []string) int  { return 0 }
func cmdFalse(*cmdEnv, []string) int { return 1 }

// cmdEcho is dash's echo (only -n, escapes always on) or, run through a
// path or sudo, coreutils' (-n, -e, -E).
func cmdEcho(e *cmdEnv, args []string) int {
	args = args[1:]
	newline, escapes := true, e.builtin
	if e.builtin {
		if len(args) > 0 && args[0] == "-n" {
			newline, args = false, args[1:]
		}
	} else {
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
			for _, f := range args[0][1:] {
				switch f {
				case 'n':
					newline = false
				case 'e':
					escapes = true
				case 'E':
					escapes = false
				}
			}
			args = args[1:]
		}
	}
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !escapes {
			b.WriteString(a)
			continue
		}
		s, stop := echoEscapes(a)
		b.WriteString(s)
		if stop {
			_, _ = io.WriteString(e.stdout, b.String())
			return 0
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	_, _ = io.WriteString(e.stdout, b.String())
	return 0
}

func echoEscapes(a string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(a); i++ {
		if a[i] != '\\' || i+1 == len(a) {
			b.WriteByte(a[i])
			continue
		}
		i++
		switch a[i] {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'c':
			return b.String(), true
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\':
			b.WriteByte('\\')
		case '0':
			v, n := 0, 0
			for n < 3 && i+1 < len(a) && a[i+1] >= '0' && a[i+1] <= '7' {
				i++
				v = v*8 + int(a[i]-'0')
				n++
			}
			b.WriteByte(byte(v)) //nolint:gosec // three octal digits at most
		default:
			b.WriteByte('\\')
			b.WriteByte(a[i])
		}
	}
	return b.String(), false
}

// options splits leading "-xyz" clusters from operands; bad is the first
// letter not in allowed.
func options(args []string, allowed string) (flags map[byte]bool, operands []string, bad byte) {
	flags = map[byte]bool{}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			if !strings.ContainsRune(allowed, rune(a[j])) {
				return nil, nil, a[j]
			}
			flags[a[j]] = true
		}
	}
	return flags, args[i:], 0
}

func invalidOption(e *cmdEnv, prog string, bad byte, status int) int {
	fmt.Fprintf(e.stderr, "%s: invalid option -- '%c'\nTry '%s --help' for more information.\n", prog, bad, prog)
	return status
}

func cmdCat(e *cmdEnv, args []string) int {
	_, files, bad := options(args[1:], "u")
	if bad != 0 {
		return invalidOption(e, "cat", bad, 1)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, f := range files {
		if f == "-" {
			_, _ = io.Copy(e.stdout, e.stdin)
			continue
		}
		data, err := e.sh.h.fs.readFile(e.sh.abs(f), e.root)
		if err != nil {
			fmt.Fprintf(e.stderr, "cat: %s: %s\n", f, err)
			status = 1
			continue
		}
		_, _ = io.WriteString(e.stdout, data)
	}
	return status
}

// cmdTee opens every file first, then copies standard input to standard
// output and each file; a sysfs store sees the input in one write.
func cmdTee(e *cmdEnv, args []string) int {
	opts, files, bad := options(args[1:], "aip")
	if bad != 0 {
		return invalidOption(e, "tee", bad, 1)
	}
	status := 0
	var outs []*writeHandle
	var names []string
	for _, f := range files {
		w, err := e.sh.h.fs.openWrite(e.sh.abs(f), e.root, opts['a'])
		if err != nil {
			fmt.Fprintf(e.stderr, "tee: %s: %s\n", f, err)
			status = 1
			continue
		}
		outs, names = append(outs, w), append(names, f)
	}
	data, _ := io.ReadAll(e.stdin)
	_, _ = e.stdout.Write(data)
	for i, w := range outs {
		if err := w.write(string(data)); err != nil {
			fmt.Fprintf(e.stderr, "tee: %s: %s\n", names[i], err)
			status = 1
		}
	}
	return status
}

// cmdLs lists one name per line, as ls does when its output is not a
// terminal (an exec session has none).
func cmdLs(e *cmdEnv, args []string) int {
	flags, ops, bad := options(args[1:], "1aAd")
	if bad != 0 {
		return invalidOption(e, "ls", bad, 2)
	}
	if len(ops) == 0 {
		ops = []string{"."}
	}
	status := 0
	var files, dirs []string
	for _, op := range ops {
		isDir, err := e.sh.h.fs.stat(e.sh.abs(op), e.root)
		switch {
		case err != nil:
			fmt.Fprintf(e.stderr, "ls: cannot access '%s': %s\n", op, err)
			status = 2
		case isDir && !flags['d']:
			dirs = append(dirs, op)
		default:
			files = append(files, op)
		}
	}
	for _, f := range files {
		fmt.Fprintln(e.stdout, f)
	}
	for i, d := range dirs {
		names, err := e.sh.h.fs.readDir(e.sh.abs(d), e.root)
		if err != nil {
			fmt.Fprintf(e.stderr, "ls: cannot open directory '%s': %s\n", d, err)
			status = 2
			continue
		}
		if len(ops) > 1 {
			if i > 0 || len(files) > 0 {
				fmt.Fprintln(e.stdout)
			}
			fmt.Fprintf(e.stdout, "%s:\n", d)
		}
		for _, n := range names {
			fmt.Fprintln(e.stdout, n)
		}
	}
	return status
}

// cmdCd is dash's cd builtin: it changes the directory of this shell only
// (relative paths and globs resolve against it; a pipeline stage's cd stays
// in its subshell), sets PWD and OLDPWD, and `cd -` prints where it went.
// No operand, or an empty HOME, stays put, as does an empty operand.
func cmdCd(e *cmdEnv, args []string) int {
	sh := e.sh
	i := 1
	for ; i < len(args) && len(args[i]) > 1 && args[i][0] == '-'; i++ {
		if args[i] == "--" {
			i++
			break
		}
		if bad := strings.Trim(args[i][1:], "LP"); bad != "" {
			fmt.Fprintf(e.stderr, "%s: %d: cd: Illegal option -%c\n", sh.name, e.line, bad[0])
			return 2
		}
	}
	dir, show := "", false
	switch {
	case i >= len(args):
		dir = sh.vars["HOME"]
	case args[i] == "-":
		dir, show = sh.vars["OLDPWD"], true
		if dir == "" {
			dir = sh.cwd
		}
	default:
		dir = args[i]
	}
	if dir == "" {
		return 0
	}
	target := path.Clean(sh.abs(dir))
	if !sh.h.fs.searchable(target, e.root) {
		fmt.Fprintf(e.stderr, "%s: %d: cd: can't cd to %s\n", sh.name, e.line, dir)
		return 2
	}
	sh.vars["OLDPWD"], sh.vars["PWD"], sh.cwd = sh.cwd, target, target
	if show {
		fmt.Fprintln(e.stdout, target)
	}
	return 0
}

// cmdPwd prints the shell's directory (dash's builtin, or coreutils' under
// sudo: the tree has no symbolic links, so both agree).
func cmdPwd(e *cmdEnv, _ []string) int {
	fmt.Fprintln(e.stdout, e.sh.cwd)
	return 0
}

// searchable is chdir(2)'s check: p resolves to a directory the user may
// search.
func (fs *fsys) searchable(p string, root bool) bool {
	fs.h.mu.Lock()
	defer fs.h.mu.Unlock()
	n, err := fs.lookup(p, root)
	return err == nil && n.dir && n.canExec(root)
}
