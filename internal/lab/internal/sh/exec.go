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
	s, status := sh.redirect(c.Redirs, c.line, stdin, stdout, false)
	if s == nil {
		return status
	}
	// A file an enclosing compound command opened gets this command's
	// output in one write too.
	wrapped := map[*fileTarget]*fileSink{}
	for fd := 1; fd <= 2; fd++ {
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
		if err := k.w.write(k.buf.String()); err != nil {
			fmt.Fprintln(s.out[2], sh.writeError(args, c.line, err))
			if status == 0 {
				status = 1
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

// writeError is how the program that wrote to a file reports a failed
// write: dash's builtin echo only says "I/O error"; coreutils name the
// errno.
func (sh *Shell) writeError(args []string, line int, err error) string {
	name := "sh"
	if len(args) > 0 {
		name = path.Base(args[0])
	}
	if name == "sudo" {
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") {
				return fmt.Sprintf("%s: write error: %s", path.Base(a), err)
			}
		}
	}
	if len(args) > 0 && isShellBuiltin(args[0]) {
		return fmt.Sprintf("%s: %d: %s: %s: I/O error", sh.name, line, name, name)
	}
	if name == "tee" {
		return fmt.Sprintf("tee: 'standard output': %s", err)
	}
	return fmt.Sprintf("%s: write error: %s", name, err)
}
