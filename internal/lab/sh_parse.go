package lab

// Lexer and parser of the POSIX sh subset the lab hosts run: lists (";",
// newline), "&&", "||", pipelines, redirections (>, >>, <, n>&m), quotes and
// backslashes, comments and unquoted globs. Anything else (expansions,
// compound commands, assignments, background jobs, here-documents) is
// refused loudly rather than misinterpreted. Messages and the exit status 2
// are dash's.

import (
	"fmt"
	"strings"
)

// shWord is one word with, per rune, whether it was quoted (quoted glob
// characters match literally). Every word is a field: the subset has no
// expansion that could remove it, so ” is an empty argument.
type shWord struct {
	runes  []rune
	quoted []bool
}

func (w shWord) String() string { return string(w.runes) }

// plain reports a word written without any quoting, as reserved words and
// assignments must be.
func (w shWord) plain() bool {
	for _, q := range w.quoted {
		if q {
			return false
		}
	}
	return true
}

type shRedir struct {
	fd     int
	op     string // ">", ">>", "<", ">&", "<&"
	target shWord
}

type shSimple struct {
	words  []shWord
	redirs []shRedir
	line   int
}

type shPipeline struct{ cmds []*shSimple }

type shAndOr struct {
	pipes []*shPipeline
	ops   []string // ops[i] joins pipes[i] and pipes[i+1]
}

type tokKind int

const (
	tWord tokKind = iota
	tOp
	tNewline
	tEOF
	tErr
)

type token struct {
	kind tokKind
	op   string
	word shWord
	ioNr int // the n of "n>", -1 if none
	line int
	err  string // tErr: the whole message after "sh: LINE: "
}

// shError is a message the shell prints as "NAME: LINE: MSG" before
// giving up on the script with status 2.
type shError struct {
	line int
	msg  string
}

func (e *shError) Error() string { return fmt.Sprintf("%d: %s", e.line, e.msg) }

func unsupported(line int, what string) token {
	return token{kind: tErr, line: line, err: "lab: unsupported shell syntax: " + what +
		" (this host implements only the sh subset the provider emits)"}
}

// parser reads one complete command (up to an unescaped newline) at a time,
// so that, as in dash, a syntax error on a later line does not stop the
// earlier lines from running.
type parser struct {
	toks []token
	pos  int
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF && t.kind != tErr {
		p.pos++
	}
	return t
}

func unexpected(t token) *shError {
	switch t.kind {
	case tErr:
		return &shError{t.line, t.err}
	case tNewline:
		return &shError{t.line, "Syntax error: newline unexpected"}
	case tEOF:
		return &shError{t.line, "Syntax error: end of file unexpected"}
	}
	return &shError{t.line, fmt.Sprintf("Syntax error: %q unexpected", t.op)}
}

// nextCommand returns the next complete command, or nil at the end.
func (p *parser) nextCommand() ([]*shAndOr, error) {
	for p.peek().kind == tNewline {
		p.next()
	}
	if p.peek().kind == tEOF {
		return nil, nil
	}
	var list []*shAndOr
	for {
		ao, err := p.andOr()
		if err != nil {
			return nil, err
		}
		list = append(list, ao)
		t := p.peek()
		switch {
		case t.kind == tNewline || t.kind == tEOF:
			p.next()
			return list, nil
		case t.kind == tOp && t.op == ";":
			p.next()
			if k := p.peek().kind; k == tNewline || k == tEOF {
				p.next()
				return list, nil
			}
		default:
			return nil, unexpected(t)
		}
	}
}

func (p *parser) andOr() (*shAndOr, error) {
	ao := &shAndOr{}
	for {
		pl, err := p.pipeline()
		if err != nil {
			return nil, err
		}
		ao.pipes = append(ao.pipes, pl)
		t := p.peek()
		if t.kind != tOp || (t.op != "&&" && t.op != "||") {
			return ao, nil
		}
		p.next()
		ao.ops = append(ao.ops, t.op)
		p.linebreak()
	}
}

func (p *parser) linebreak() {
	for p.peek().kind == tNewline {
		p.next()
	}
}

func (p *parser) pipeline() (*shPipeline, error) {
	pl := &shPipeline{}
	for {
		c, err := p.simple()
		if err != nil {
			return nil, err
		}
		pl.cmds = append(pl.cmds, c)
		if t := p.peek(); t.kind != tOp || t.op != "|" {
			return pl, nil
		}
		p.next()
		p.linebreak()
	}
}

var reservedWords = []string{"if", "then", "else", "elif", "fi", "do", "done", "case", "esac",
	"while", "until", "for", "in", "function", "{", "}", "!", "[[", "]]", "select"}

func (p *parser) simple() (*shSimple, error) {
	c := &shSimple{line: p.peek().line}
	for {
		t := p.peek()
		switch {
		case t.kind == tWord:
			p.next()
			if len(c.words) == 0 && t.word.plain() {
				s := t.word.String()
				for _, r := range reservedWords {
					if s == r {
						return nil, &shError{t.line, unsupported(t.line, "reserved word "+s).err}
					}
				}
				if name, _, ok := strings.Cut(s, "="); ok && isName(name) {
					return nil, &shError{t.line, unsupported(t.line, "variable assignment "+s).err}
				}
			}
			c.words = append(c.words, t.word)
		case t.kind == tOp && (t.op == ">" || t.op == ">>" || t.op == "<" || t.op == ">&" || t.op == "<&"):
			p.next()
			target := p.next()
			if target.kind != tWord {
				return nil, unexpected(target)
			}
			fd := t.ioNr
			if fd < 0 {
				fd = 1
				if t.op[0] == '<' {
					fd = 0
				}
			}
			if to := target.word.String(); (t.op == ">&" || t.op == "<&") && to != "0" && to != "1" && to != "2" {
				return nil, &shError{t.line, "Syntax error: Bad fd number"}
			}
			c.redirs = append(c.redirs, shRedir{fd: fd, op: t.op, target: target.word})
		default:
			if len(c.words) == 0 && len(c.redirs) == 0 {
				return nil, unexpected(t)
			}
			return c, nil
		}
	}
}

func isName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, r := range s {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}
