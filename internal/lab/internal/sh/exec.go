package sh

// The interpreter of the sh subset: lists, and-or lists, pipelines (run
// stage by stage, each stage's output buffered into the next one's input,
// which is indistinguishable for commands that terminate; every stage of a
// pipeline of several runs in a subshell, as in dash), for loops,
// assignments, redirections and expansions (expand.go) against the
// emulated tree, with dash's messages and statuses.

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"path"
	"strings"
)

type Shell struct {
	sys     *System
	root    bool
	name    string // $0 in messages: "sh"
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	errexit bool // -e
	nounset bool // -u
	cwd     string
	Vars    map[string]string
	plinno  int             // the parser's line after the running complete command (Parser.plinno)
	status  int             // $?, and the exit status once exited
	exited  bool            // set -e or an expansion error ended the shell
	killed  <-chan struct{} // a background job's: closed by kill (jobs.go)
}

// NewShell is a shell started by the login user (or by root through sudo)
// in directory cwd, with the environment sshd and sudo give it on an
// Ubuntu host.
func NewShell(sys *System, root bool, name, cwd string, stdin io.Reader, stdout, stderr io.Writer) *Shell {
	user, home := sys.User, "/home/"+sys.User
	pathVar := "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:/usr/local/games:/snap/bin"
	if root {
		user, home = "root", "/root"
		pathVar = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/snap/bin" // sudo's secure_path
	}
	return &Shell{sys: sys, root: root, name: name, stdin: stdin, stdout: stdout, stderr: stderr, cwd: cwd,
		Vars: map[string]string{"HOME": home, "USER": user, "LOGNAME": user, "PATH": pathVar, "PWD": cwd, "IFS": " \t\n"}}
}

// Run parses and runs one complete command at a time.
func (sh *Shell) Run(script string) int {
	p := &Parser{Toks: Lex(script)}
	for {
		list, err := p.NextCommand()
		if err != nil {
			e, _ := err.(*shError)
			fmt.Fprintf(sh.stderr, "%s: %d: %s\n", sh.name, e.line, e.msg)
			return 2
		}
		if list == nil {
			return sh.status
		}
		sh.plinno = p.plinno
		sh.runList(list, false)
		if sh.exited {
			return sh.status
		}
	}
}

// exit ends the shell with status: the running list, loops and the script
// stop.
func (sh *Shell) exit(status int) {
	sh.status, sh.exited = status, true
}

// subshell is a copy of the shell for a pipeline stage: variables, the
// directory and an exit stay inside it.
func (sh *Shell) subshell() *Shell {
	c := *sh
	c.Vars = maps.Clone(sh.Vars)
	return &c
}

// runList runs and-or lists in order. tested says the list's status is
// tested by an enclosing && or || (set -e does not act inside it).
func (sh *Shell) runList(list []*AndOr, tested bool) {
	for _, ao := range list {
		if ao.async {
			sh.background(ao)
			continue
		}
		status, guarded := sh.andOr(ao, tested)
		if sh.exited {
			return
		}
		if sh.errexit && status != 0 && !guarded && !tested {
			sh.exit(status)
			return
		}
	}
}

// andOr runs "a && b || c" left to right; guarded reports that the status
// came from a pipeline other than the last, which set -e does not act on.
func (sh *Shell) andOr(ao *AndOr, tested bool) (status int, guarded bool) {
	last := len(ao.Pipes) - 1
	status = sh.pipeline(ao.Pipes[0], tested || last > 0)
	ran := 0
	for i, op := range ao.ops {
		if sh.exited {
			return status, false
		}
		if (op == "&&") == (status == 0) {
			status = sh.pipeline(ao.Pipes[i+1], tested || i+1 < last)
			ran = i + 1
		}
	}
	// A negated pipeline's status never makes set -e exit (POSIX 2.8.1).
	return status, ran != last || ao.Pipes[ran].bang
}

func (sh *Shell) pipeline(pl *shPipeline, tested bool) int {
	if pl.bang {
		// `! PIPELINE`: the status inverted; set -e does not apply inside (POSIX).
		inner := *pl
		inner.bang = false
		if sh.pipeline(&inner, true) == 0 {
			sh.status = 1
		} else {
			sh.status = 0
		}
		return sh.status
	}
	if len(pl.Cmds) == 1 {
		sh.status = sh.command(pl.Cmds[0], sh.stdin, sh.stdout, tested)
		return sh.status
	}
	in := sh.stdin
	status := 0
	for i, c := range pl.Cmds {
		out := sh.stdout
		var buf *bytes.Buffer
		if i < len(pl.Cmds)-1 {
			buf = &bytes.Buffer{}
			out = buf
		}
		sub := sh.subshell()
		status = sub.command(c, in, out, false)
		if sub.exited {
			status = sub.status
		}
		if buf != nil {
			in = buf
		}
	}
	sh.status = status
	return status
}

func (sh *Shell) command(c Command, in io.Reader, out io.Writer, tested bool) int {
	switch c := c.(type) {
	case *Simple:
		return sh.simple(c, in, out)
	case *For:
		return sh.forLoop(c, in, out, tested)
	}
	return 2
}

// fileSink buffers what a command writes to a redirected file and hands it
// to the file in one write(2) when the command ends, as echo's single
// write reaches a sysfs store method.
type fileSink struct {
	w   *writeHandle
	buf bytes.Buffer
}

func (f *fileSink) Write(b []byte) (int, error) { return f.buf.Write(b) }

// flush writes what the command wrote so far, now, for a program that reports its own failed
// writes in order with its other messages (tee).
func (f *fileSink) flush() error {
	data := f.buf.String()
	f.buf.Reset()
	return f.w.write(data)
}

// fileTarget is a file a compound command's redirection opened: each
// command inside writes to it in its own write(2) (simple wraps it in a
// fileSink), as they would to the one open file.
type fileTarget struct{ w *writeHandle }

func (f *fileTarget) Write(b []byte) (int, error) { return len(b), f.w.write(string(b)) }

// errmsg is dash's errmsg(): ENOENT and ENOTDIR get its own words.
func errmsg(err error, create bool) string {
	if err == ENOENT || err == ENOTDIR {
		if create {
			return "Directory nonexistent"
		}
		return "No such file"
	}
	return err.Error()
}

// ioSet is a command's standard input, output and error after its
// redirections, and the files it opened.
type ioSet struct {
	in    io.Reader
	out   [3]io.Writer
	sinks []*fileSink
}

// redirect performs redirs left to right on top of in, out and the
// shell's standard error; compound makes files fileTargets instead of
// one-write sinks. A failure is reported with dash's words and status 2.
func (sh *Shell) redirect(redirs []Redir, line int, in io.Reader, out io.Writer, compound bool) (*ioSet, int) {
	s := &ioSet{in: in, out: [3]io.Writer{nil, out, sh.stderr}}
	for _, r := range redirs {
		// dash's expredir, before any redirection is made: a duplication from anything but a
		// digit is a syntax error, with the parser's line, that ends the shell.
		if r.Op == ">&" || r.Op == "<&" {
			if to := r.Target.String(); len(to) != 1 || to[0] < '0' || to[0] > '9' {
				fmt.Fprintf(sh.stderr, "%s: %d: Syntax error: Bad fd number\n", sh.name, sh.plinno)
				sh.exit(2)
				return nil, 2
			}
		}
	}
	for _, r := range redirs {
		target, err := sh.expandString(r.Target)
		if err != nil {
			return nil, sh.expansionFailed(line, err)
		}
		if r.fd > 2 {
			fmt.Fprintf(s.out[2], "%s: %d: %s\n", sh.name, line, unsupported(line, fmt.Sprintf("redirection of fd %d", r.fd)).err)
			return nil, 2
		}
		switch r.Op {
		case ">", ">>":
			w, err := sh.openWrite(target, r.Op == ">>")
			if err != nil {
				fmt.Fprintf(s.out[2], "%s: %d: cannot create %s: %s\n", sh.name, line, target, errmsg(err, true))
				return nil, 2
			}
			var dst io.Writer
			if compound {
				dst = &fileTarget{w: w}
			} else {
				sink := &fileSink{w: w}
				s.sinks = append(s.sinks, sink)
				dst = sink
			}
			if r.fd == 0 {
				s.in = strings.NewReader("")
			} else {
				s.out[r.fd] = dst
			}
		case "<":
			data, err := sh.readFile(target)
			if err != nil {
				fmt.Fprintf(s.out[2], "%s: %d: cannot open %s: %s\n", sh.name, line, target, errmsg(err, false))
				return nil, 2
			}
			if r.fd == 0 {
				s.in = strings.NewReader(data)
			}
		case ">&", "<&":
			m := int(target[0] - '0')
			if m > 2 { // the lab's shell opens no descriptor above 2: dup2 fails with EBADF
				if r.fd != 2 { // (dash's message is lost when the descriptor was standard error)
					fmt.Fprintf(s.out[2], "%s: %d: %d: Bad file descriptor\n", sh.name, line, m)
				}
				return nil, 2
			}
			switch {
			case r.fd == 0 || m == 0:
				if r.fd == 0 && m == 0 {
					continue
				}
				fmt.Fprintf(s.out[2], "%s: %d: %s\n", sh.name, line, unsupported(line, "duplicating standard input").err)
				return nil, 2
			default:
				s.out[r.fd] = s.out[m]
			}
		}
	}
	return s, 0
}

func (sh *Shell) simple(c *Simple, stdin io.Reader, stdout io.Writer) int {
	args, err := sh.expandWords(c.Words)
	if err != nil {
		return sh.expansionFailed(c.line, err)
	}
	// A nested shell's commands write for themselves, each in its own write(2), as the
	// commands of a redirected for loop do; any other command writes its output at its end.
	w, builtin := writer(args)
	nested := len(w) > 0 && path.Base(w[0]) == "sh"
	s, status := sh.redirect(c.Redirs, c.line, stdin, stdout, nested)
	if s == nil {
		return status
	}
	// A file an enclosing compound command opened gets this command's
	// output in one write too.
	wrapped := map[*fileTarget]*fileSink{}
	for fd := 1; fd <= 2 && !nested; fd++ {
		if t, ok := s.out[fd].(*fileTarget); ok {
			if wrapped[t] == nil {
				wrapped[t] = &fileSink{w: t.w}
				s.sinks = append(s.sinks, wrapped[t])
			}
			s.out[fd] = wrapped[t]
		}
	}
	switch {
	case len(args) > 0:
		status = sh.dispatch(args, c.line, s.in, s.out[1], s.out[2])
	case len(c.Assigns) > 0:
		for _, a := range c.Assigns {
			v, err := sh.expandString(a.Value)
			if err != nil {
				return sh.expansionFailed(c.line, err)
			}
			sh.Vars[a.Name] = v
		}
	}
	for _, k := range s.sinks {
		// A command without words (assignments) writes nothing, which cannot fail.
		if err := k.w.write(k.buf.String()); err != nil && len(w) > 0 {
			msg, failed := sh.writeError(w, builtin, c.line, err)
			fmt.Fprintln(s.out[2], msg)
			if status == 0 {
				status = failed
			}
		}
	}
	return status
}

// forLoop runs the body once per field of the words, with NAME set to it:
// redirections first, then expansion (dash's order). Its status is the
// body's last, 0 when there is no field.
func (sh *Shell) forLoop(f *For, stdin io.Reader, stdout io.Writer, tested bool) int {
	s, status := sh.redirect(f.Redirs, f.line, stdin, stdout, true)
	if s == nil {
		return status
	}
	items, err := sh.expandWords(f.Words)
	if err != nil {
		return sh.expansionFailed(f.line, err)
	}
	in, out, errw := sh.stdin, sh.stdout, sh.stderr
	sh.stdin, sh.stdout, sh.stderr = s.in, s.out[1], s.out[2]
	defer func() { sh.stdin, sh.stdout, sh.stderr = in, out, errw }()
	status = 0
	for _, item := range items {
		sh.Vars[f.Name] = item
		sh.runList(f.Body, tested)
		status = sh.status
		if sh.exited {
			break
		}
	}
	return status
}

// expansionFailed reports an expansion error the way dash does: the
// message, and a non-interactive shell exits with status 2.
func (sh *Shell) expansionFailed(line int, err error) int {
	fmt.Fprintf(sh.stderr, "%s: %d: %s\n", sh.name, line, err)
	sh.exit(2)
	return 2
}

// openWrite and readFile open a redirection's file; "" names none
// (open(2) fails with ENOENT).
func (sh *Shell) openWrite(p string, appendTo bool) (*writeHandle, error) {
	if p == "" {
		return nil, ENOENT
	}
	return sh.sys.FS.openWrite(sh.abs(p), sh.root, appendTo)
}

func (sh *Shell) readFile(p string) (string, error) {
	if p == "" {
		return "", ENOENT
	}
	return sh.sys.FS.ReadFile(sh.abs(p), sh.root)
}

// abs makes p absolute against the shell's directory; fs methods take
// absolute paths from the shell (its cd is its own, not the host's).
func (sh *Shell) abs(p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return path.Join(sh.cwd, p)
}

// writer is the command that writes a simple command's output: the command itself, or the one
// dash's command builtin, sudo or flock runs (a program then, never a builtin); builtin says
// whether dash runs it itself.
func writer(args []string) (w []string, builtin bool) {
	builtin = true
	for len(args) > 0 {
		switch {
		case builtin && args[0] == "command":
			args = args[1:]
			for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
				args = args[1:]
			}
		case path.Base(args[0]) == "sudo":
			_, cmd, bad := sudoOpts.parse(args[1:])
			if bad != nil || len(cmd) == 0 {
				return args, false
			}
			args, builtin = cmd, false
		case path.Base(args[0]) == "flock":
			_, ops, bad := flockOpts.parse(args[1:])
			if bad != nil || len(ops) < 2 || ops[1] == "-c" || ops[1] == "--command" {
				return args, false
			}
			args, builtin = ops[1:], false
		default:
			return args, builtin && isShellBuiltin(args[0])
		}
	}
	return nil, false
}

// writeError is how the program that wrote to a file reports a failed write, and the status
// it exits with (mlx5-host.md, "Shell and utilities"): dash's builtins say only "I/O error"
// through sh_warnx; coreutils and grep name the errno after "write error", under the name they
// were run by; ls and grep exit 2, the others 1. (tee reports its own: cmdTee.)
func (sh *Shell) writeError(w []string, builtin bool, line int, err error) (string, int) {
	name := w[0]
	switch {
	case builtin:
		return fmt.Sprintf("%s: %d: %s: %s: I/O error", sh.name, line, name, name), 1
	case path.Base(name) == "ls" || path.Base(name) == "grep":
		return fmt.Sprintf("%s: write error: %s", name, err), 2
	}
	return fmt.Sprintf("%s: write error: %s", name, err), 1
}
