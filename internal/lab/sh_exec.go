package lab

// The interpreter of the sh subset: lists, and-or lists, pipelines (run
// stage by stage, each stage's output buffered into the next one's input,
// which is indistinguishable for commands that terminate), redirections and
// globbing against the emulated tree, with dash's messages and statuses.

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

type shell struct {
	h       *Host
	root    bool
	name    string // $0 in messages: "sh"
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	errexit bool
}

// runScript runs script as the login user (root after sudo) and returns
// its exit status.
func (h *Host) runScript(script string, root bool, stdin io.Reader, stdout, stderr io.Writer) int {
	sh := &shell{h: h, root: root, name: "sh", stdin: stdin, stdout: stdout, stderr: stderr}
	return sh.run(script)
}

func (sh *shell) run(script string) int {
	p := &parser{toks: lex(script)}
	status := 0
	for {
		list, err := p.nextCommand()
		if err != nil {
			e, _ := err.(*shError)
			fmt.Fprintf(sh.stderr, "%s: %d: %s\n", sh.name, e.line, e.msg)
			return 2
		}
		if list == nil {
			return status
		}
		for _, ao := range list {
			var guarded bool
			status, guarded = sh.andOr(ao)
			if sh.errexit && status != 0 && !guarded {
				return status
			}
		}
	}
}

// andOr runs "a && b || c" left to right; guarded reports that the status
// came from a pipeline other than the last, which set -e does not act on.
func (sh *shell) andOr(ao *shAndOr) (status int, guarded bool) {
	status = sh.pipeline(ao.pipes[0])
	last := 0
	for i, op := range ao.ops {
		if (op == "&&") == (status == 0) {
			status = sh.pipeline(ao.pipes[i+1])
			last = i + 1
		}
	}
	return status, last != len(ao.pipes)-1
}

func (sh *shell) pipeline(pl *shPipeline) int {
	in := sh.stdin
	status := 0
	for i, c := range pl.cmds {
		out := sh.stdout
		var buf *bytes.Buffer
		if i < len(pl.cmds)-1 {
			buf = &bytes.Buffer{}
			out = buf
		}
		status = sh.simple(c, in, out)
		if buf != nil {
			in = buf
		}
	}
	return status
}

// fileSink buffers what a command writes to a redirected file and hands it
// to the file in one write(2) when the command ends, as echo's single
// write reaches a sysfs store method.
type fileSink struct {
	w   *writeHandle
	buf bytes.Buffer
}

func (f *fileSink) Write(b []byte) (int, error) { return f.buf.Write(b) }

// errmsg is dash's errmsg(): ENOENT and ENOTDIR get its own words.
func errmsg(err error, create bool) string {
	if err == eNOENT || err == eNOTDIR {
		if create {
			return "Directory nonexistent"
		}
		return "No such file"
	}
	return err.Error()
}

func (sh *shell) simple(c *shSimple, stdin io.Reader, stdout io.Writer) int {
	var args []string
	for _, w := range c.words {
		args = append(args, sh.expand(w)...)
	}
	in, out := stdin, [3]io.Writer{nil, stdout, sh.stderr}
	var sinks []*fileSink
	for _, r := range c.redirs {
		target := sh.expandOne(r.target)
		if r.fd > 2 {
			fmt.Fprintf(out[2], "%s: %d: %s\n", sh.name, c.line, unsupported(c.line, fmt.Sprintf("redirection of fd %d", r.fd)).err)
			return 2
		}
		switch r.op {
		case ">", ">>":
			w, err := sh.h.fs.openWrite(target, sh.root)
			if err != nil {
				fmt.Fprintf(out[2], "%s: %d: cannot create %s: %s\n", sh.name, c.line, target, errmsg(err, true))
				return 2
			}
			s := &fileSink{w: w}
			sinks = append(sinks, s)
			if r.fd == 0 {
				in = strings.NewReader("")
			} else {
				out[r.fd] = s
			}
		case "<":
			data, err := sh.h.fs.readFile(target, sh.root)
			if err != nil {
				fmt.Fprintf(out[2], "%s: %d: cannot open %s: %s\n", sh.name, c.line, target, errmsg(err, false))
				return 2
			}
			if r.fd == 0 {
				in = strings.NewReader(data)
			}
		case ">&", "<&":
			m := int(target[0] - '0')
			switch {
			case r.fd == 0 || m == 0:
				if r.fd == 0 && m == 0 {
					continue
				}
				fmt.Fprintf(out[2], "%s: %d: %s\n", sh.name, c.line, unsupported(c.line, "duplicating standard input").err)
				return 2
			default:
				out[r.fd] = out[m]
			}
		}
	}
	status := 0
	if len(args) > 0 {
		status = sh.dispatch(args, c.line, in, out[1], out[2])
	}
	for _, s := range sinks {
		if err := s.w.write(s.buf.String()); err != nil {
			fmt.Fprintln(out[2], sh.writeError(args, c.line, err))
			if status == 0 {
				status = 1
			}
		}
	}
	return status
}

// writeError is how the program that wrote to a file reports a failed
// write: dash's builtin echo only says "I/O error"; coreutils name the
// errno.
func (sh *shell) writeError(args []string, line int, err error) string {
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

// expandOne expands a redirection target: a glob matching exactly one
// path is replaced by it, anything else stays literal.
func (sh *shell) expandOne(w shWord) string {
	if got := sh.expand(w); len(got) == 1 {
		return got[0]
	}
	return w.String()
}

// expand performs pathname expansion on an unquoted glob; without a
// match the word stays as written, as sh leaves it.
func (sh *shell) expand(w shWord) []string {
	meta := false
	for i, r := range w.runes {
		if !w.quoted[i] && (r == '*' || r == '?' || r == '[') {
			meta = true
		}
	}
	if !meta {
		return []string{w.String()}
	}
	if got := sh.glob(w); len(got) > 0 {
		return got
	}
	return []string{w.String()}
}

type globComp struct {
	pattern string // path.Match syntax
	literal string
	meta    bool
}

func splitGlob(w shWord) (comps []globComp, abs bool) {
	var cur globComp
	var pat, lit strings.Builder
	flush := func() {
		if lit.Len() > 0 || cur.meta {
			cur.pattern, cur.literal = pat.String(), lit.String()
			comps = append(comps, cur)
		}
		cur = globComp{}
		pat.Reset()
		lit.Reset()
	}
	for i, r := range w.runes {
		q := w.quoted[i]
		switch {
		case r == '/':
			if i == 0 {
				abs = true
			}
			flush()
			continue
		case !q && (r == '*' || r == '?' || r == '['):
			cur.meta = true
			pat.WriteRune(r)
		case !q && r == '!' && i > 0 && w.runes[i-1] == '[' && !w.quoted[i-1]:
			pat.WriteRune('^')
		case strings.ContainsRune(`*?[\`, r):
			pat.WriteRune('\\')
			pat.WriteRune(r)
		default:
			pat.WriteRune(r)
		}
		lit.WriteRune(r)
	}
	flush()
	return comps, abs
}

func (sh *shell) glob(w shWord) []string {
	comps, abs := splitGlob(w)
	type cand struct{ fsPath, shown string }
	cands := []cand{{fsPath: sh.h.fs.cwd}}
	if abs {
		cands = []cand{{fsPath: "/", shown: "/"}}
	}
	join := func(a, b string) string {
		if a == "" || strings.HasSuffix(a, "/") {
			return a + b
		}
		return a + "/" + b
	}
	for _, comp := range comps {
		var next []cand
		for _, c := range cands {
			if !comp.meta {
				next = append(next, cand{join(c.fsPath, comp.literal), join(c.shown, comp.literal)})
				continue
			}
			names, err := sh.h.fs.readDir(c.fsPath, sh.root)
			if err != nil {
				continue
			}
			for _, name := range names {
				if strings.HasPrefix(name, ".") && !strings.HasPrefix(comp.pattern, ".") {
					continue
				}
				if ok, _ := path.Match(comp.pattern, name); ok {
					next = append(next, cand{join(c.fsPath, name), join(c.shown, name)})
				}
			}
		}
		cands = next
	}
	var out []string
	for _, c := range cands {
		if _, err := sh.h.fs.stat(c.fsPath, sh.root); err == nil {
			out = append(out, c.shown)
		}
	}
	slices.Sort(out)
	return out
}
