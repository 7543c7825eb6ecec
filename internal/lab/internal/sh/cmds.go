package sh

// The commands of a lab host, each with the options, messages and exit
// statuses of the real program (dash builtins, coreutils, GNU grep,
// procps pgrep, sudo) for the cases the provider and an operator use.

import (
	"fmt"
	"io"
	"path"
	"strings"
)

// Env is what a program runs with: the shell that runs it, root (after sudo), the script line
// for messages, and its standard streams.
type Env struct {
	Sh      *Shell
	Root    bool
	Line    int
	builtin bool // run by dash itself rather than a program in /usr/bin
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
}

// Program is a program on the PATH: it returns its exit status.
type Program func(e *Env, args []string) int

// isShellBuiltin: dash runs these itself when named without a path.
func isShellBuiltin(name string) bool {
	return name == "echo" || name == "true" || name == "false" || name == "pwd" || name == "cd" || name == ":" ||
		name == "command" || name == "kill"
}

// LookupCommand resolves a command name the way PATH does on the machine.
func (s *System) LookupCommand(name string) Program {
	bin, sbin := s.commands()
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
func (s *System) commandPath(name string) string {
	if strings.Contains(name, "/") {
		if s.LookupCommand(name) != nil {
			return name
		}
		return ""
	}
	bin, sbin := s.commands()
	if _, ok := sbin[name]; ok {
		return "/usr/sbin/" + name
	}
	if _, ok := bin[name]; ok {
		return "/usr/bin/" + name
	}
	return ""
}

func (sh *Shell) dispatch(args []string, line int, in io.Reader, out, errw io.Writer) int {
	c := sh.sys.LookupCommand(args[0])
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
	e := &Env{Sh: sh, Root: sh.root, Line: line, builtin: isShellBuiltin(args[0]),
		Stdin: in, Stdout: out, Stderr: errw}
	return c(e, args)
}

// cmdCommand is dash's command builtin (exec.c commandcmd) for -v and for running a command:
// -v describes only the first name (dash ignores the rest): a builtin by its name, a program by
// the path PATH finds it at, nothing and status 127 when there is none. -V and -p are not
// emulated (assumed unused by the provider); other options are refused as dash does.
func cmdCommand(e *Env, args []string) int {
	args = args[1:]
	verify := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, f := range args[0][1:] {
			if f != 'v' {
				fmt.Fprintf(e.Stderr, "%s: %d: command: Illegal option -%c\n", e.Sh.name, e.Line, f)
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
		return e.Sh.dispatch(args, e.Line, e.Stdin, e.Stdout, e.Stderr)
	case isShellBuiltin(args[0]):
		fmt.Fprintln(e.Stdout, args[0])
		return 0
	}
	if p := e.Sh.sys.commandPath(args[0]); p != "" {
		fmt.Fprintln(e.Stdout, p)
		return 0
	}
	return 127
}

func cmdTrue(*Env, []string) int  { return 0 }
func cmdFalse(*Env, []string) int { return 1 }

// cmdEcho is dash's echo (only -n, escapes always on) or, run through a
// path or sudo, coreutils' (-n, -e, -E).
func cmdEcho(e *Env, args []string) int {
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
			_, _ = io.WriteString(e.Stdout, b.String())
			return 0
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	_, _ = io.WriteString(e.Stdout, b.String())
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

// The option letters of the coreutils programs (Debian 12's coreutils 9.1: every letter the
// real program does not call an invalid option; mlx5-host.md, "Shell and utilities") and those
// the lab emulates. Their long options are not emulated.
var (
	catOpts = optSpec{real: "AETbenstuv", emulated: "u"}
	teeOpts = optSpec{real: "aip", emulated: "aip"}
	lsOpts  = optSpec{real: "ABCDFGHI:LNQRST:UXZabcdfghiklmnopqrstuvw:x1", emulated: "1aAd"}
	rmOpts  = optSpec{real: "IRdfirv", emulated: "fv"}
)

// coreutilsArgs reads a coreutils program's command line. A bad one gets glibc getopt's message
// and coreutils' "Try 'PROG --help' for more information." (PROG as invoked, as both name it),
// or the lab's refusal of an option it does not emulate; ok is false then.
func coreutilsArgs(e *Env, args []string, s optSpec) (flags map[byte]bool, operands []string, ok bool) {
	opts, operands, bad := s.parse(args[1:])
	if bad != nil {
		bad.report(e.Stderr, args[0], fmt.Sprintf("Try '%s --help' for more information.\n", args[0]))
		return nil, nil, false
	}
	flags = map[byte]bool{}
	for _, o := range opts {
		flags[o.c] = true
	}
	return flags, operands, true
}

func cmdCat(e *Env, args []string) int {
	_, files, ok := coreutilsArgs(e, args, catOpts)
	if !ok {
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, f := range files {
		if f == "-" {
			_, _ = io.Copy(e.Stdout, e.Stdin)
			continue
		}
		data, err := e.Sh.sys.FS.ReadFile(e.Sh.abs(f), e.Root)
		if err != nil {
			fmt.Fprintf(e.Stderr, "cat: %s: %s\n", f, err)
			status = 1
			continue
		}
		_, _ = io.WriteString(e.Stdout, data)
	}
	return status
}

// cmdTee opens every file first, then copies standard input to standard
// output and each file; a sysfs store sees the input in one write.
func cmdTee(e *Env, args []string) int {
	opts, files, ok := coreutilsArgs(e, args, teeOpts)
	if !ok {
		return 1
	}
	status := 0
	var outs []*writeHandle
	var names []string
	for _, f := range files {
		w, err := e.Sh.sys.FS.openWrite(e.Sh.abs(f), e.Root, opts['a'])
		if err != nil {
			fmt.Fprintf(e.Stderr, "tee: %s: %s\n", f, err)
			status = 1
			continue
		}
		outs, names = append(outs, w), append(names, f)
	}
	data, _ := io.ReadAll(e.Stdin)
	_, _ = e.Stdout.Write(data)
	// tee writes its standard output before the files and names it 'standard output' when
	// that write fails (coreutils tee.c).
	if sink, ok := e.Stdout.(*fileSink); ok {
		if err := sink.flush(); err != nil {
			fmt.Fprintf(e.Stderr, "%s: 'standard output': %s\n", args[0], err)
			status = 1
		}
	}
	for i, w := range outs {
		if err := w.write(string(data)); err != nil {
			fmt.Fprintf(e.Stderr, "tee: %s: %s\n", names[i], err)
			status = 1
		}
	}
	return status
}

// cmdLs lists one name per line, as ls does when its output is not a
// terminal (an exec session has none).
func cmdLs(e *Env, args []string) int {
	flags, ops, ok := coreutilsArgs(e, args, lsOpts)
	if !ok {
		return 2
	}
	if len(ops) == 0 {
		ops = []string{"."}
	}
	status := 0
	var files, dirs []string
	for _, op := range ops {
		isDir, err := e.Sh.sys.FS.stat(e.Sh.abs(op), e.Root)
		switch {
		case err != nil:
			fmt.Fprintf(e.Stderr, "ls: cannot access '%s': %s\n", op, err)
			status = 2
		case isDir && !flags['d']:
			dirs = append(dirs, op)
		default:
			files = append(files, op)
		}
	}
	for _, f := range files {
		fmt.Fprintln(e.Stdout, f)
	}
	for i, d := range dirs {
		names, err := e.Sh.sys.FS.ReadDir(e.Sh.abs(d), e.Root)
		if err != nil {
			fmt.Fprintf(e.Stderr, "ls: cannot open directory '%s': %s\n", d, err)
			status = 2
			continue
		}
		if len(ops) > 1 {
			if i > 0 || len(files) > 0 {
				fmt.Fprintln(e.Stdout)
			}
			fmt.Fprintf(e.Stdout, "%s:\n", d)
		}
		for _, n := range names {
			fmt.Fprintln(e.Stdout, n)
		}
	}
	return status
}

// cmdCd is dash's cd builtin: it changes the directory of this shell only
// (relative paths and globs resolve against it; a pipeline stage's cd stays
// in its subshell), sets PWD and OLDPWD, and `cd -` prints where it went.
// No operand, or an empty HOME, stays put, as does an empty operand.
func cmdCd(e *Env, args []string) int {
	sh := e.Sh
	i := 1
	for ; i < len(args) && len(args[i]) > 1 && args[i][0] == '-'; i++ {
		if args[i] == "--" {
			i++
			break
		}
		if bad := strings.Trim(args[i][1:], "LP"); bad != "" {
			fmt.Fprintf(e.Stderr, "%s: %d: cd: Illegal option -%c\n", sh.name, e.Line, bad[0])
			return 2
		}
	}
	dir, show := "", false
	switch {
	case i >= len(args):
		dir = sh.Vars["HOME"]
	case args[i] == "-":
		dir, show = sh.Vars["OLDPWD"], true
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
	if !sh.sys.FS.searchable(target, e.Root) {
		fmt.Fprintf(e.Stderr, "%s: %d: cd: can't cd to %s\n", sh.name, e.Line, dir)
		return 2
	}
	sh.Vars["OLDPWD"], sh.Vars["PWD"], sh.cwd = sh.cwd, target, target
	if show {
		fmt.Fprintln(e.Stdout, target)
	}
	return 0
}

// cmdPwd prints the shell's directory (dash's builtin, or coreutils' under
// sudo: the tree has no symbolic links, so both agree).
func cmdPwd(e *Env, _ []string) int {
	fmt.Fprintln(e.Stdout, e.Sh.cwd)
	return 0
}

// searchable is chdir(2)'s check: p resolves to a directory the user may
// search.
func (fs *FS) searchable(p string, root bool) bool {
	fs.Mu.Lock()
	defer fs.Mu.Unlock()
	n, err := fs.Lookup(p, root)
	return err == nil && n.Dir && n.canExec(root)
}
