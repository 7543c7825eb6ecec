package sh

// Lexer and parser of the POSIX sh subset the lab hosts run: lists (";",
// newline), "&&", "||", pipelines, redirections (>, >>, <, n>&m), quotes and
// backslashes, comments, parameter expansions ($NAME, ${NAME}, $?), globs,
// `for NAME in WORD...; do LIST; done`, assignment-only commands
// (NAME=value) and asynchronous lists ("&", with $!). Anything else (other expansions, other
// compound commands, assignments before a command, here-documents) is refused
// loudly rather than misinterpreted. Messages and the exit status 2 are
// dash's.

import (
	"fmt"
	"strings"
)

// shWord is one word as written: its literal runes with, per rune, whether
// it was quoted (quoted glob characters match literally), and marks where
// parameter expansions and quotes stand. Expansion (expand.go) makes
// zero or more fields of it.
type shWord struct {
	runes  []rune
	quoted []bool
	marks  []shMark // in order of at
}

// shMark stands before runes[at] (at == len(runes): at the end). A mark
// without a param is an opening quote: it makes the word a field even when
// what follows is empty (a pair of quotes, or "$unset", is an empty
// argument; $unset is none).
type shMark struct {
	at    int
	param string // "NAME" or "?"; "" for a quote
	dq    bool   // inside double quotes: no field splitting, no globbing
}

// String is the word's literal text, with $NAME where an expansion stands
// (for messages; expansion is what commands see).
func (w shWord) String() string {
	if len(w.marks) == 0 {
		return string(w.runes)
	}
	var b strings.Builder
	m := 0
	for i := 0; i <= len(w.runes); i++ {
		for ; m < len(w.marks) && w.marks[m].at == i; m++ {
			if p := w.marks[m].param; p != "" {
				b.WriteString("$" + p)
			}
		}
		if i < len(w.runes) {
			b.WriteRune(w.runes[i])
		}
	}
	return b.String()
}

// plain reports a word written without any quoting or expansion, as
// reserved words, for loop variables and io numbers must be.
func (w shWord) plain() bool {
	if len(w.marks) > 0 {
		return false
	}
	for _, q := range w.quoted {
		if q {
			return false
		}
	}
	return true
}

func (w shWord) hasParams() bool {
	for _, m := range w.marks {
		if m.param != "" {
			return true
		}
	}
	return false
}

// assignment splits NAME=value when the word is one: NAME written plainly
// (unquoted, no expansion) before the first "=".
func (w shWord) assignment() (name string, value shWord, ok bool) {
	eq := -1
	for i, r := range w.runes {
		if r == '=' {
			eq = i
			break
		}
	}
	if eq <= 0 {
		return "", shWord{}, false
	}
	for i := range eq + 1 {
		if w.quoted[i] {
			return "", shWord{}, false
		}
	}
	for _, m := range w.marks {
		if m.at <= eq {
			return "", shWord{}, false
		}
	}
	name = string(w.runes[:eq])
	if !isName(name) {
		return "", shWord{}, false
	}
	value = shWord{runes: w.runes[eq+1:], quoted: w.quoted[eq+1:]}
	for _, m := range w.marks {
		m.at -= eq + 1
		value.marks = append(value.marks, m)
	}
	return name, value, true
}

type Redir struct {
	fd     int
	Op     string // ">", ">>", "<", ">&", "<&"
	Target shWord
}

// Command is a pipeline stage: *Simple or *For.
type Command interface{ firstLine() int }

type Simple struct {
	Assigns []shAssign // NAME=value words, only in a command without words
	Words   []shWord
	Redirs  []Redir
	line    int
}

type shAssign struct {
	Name  string
	Value shWord
}

// For is `for NAME in WORD...; do BODY; done REDIRS`.
type For struct {
	Name   string
	Words  []shWord
	Body   []*AndOr
	Redirs []Redir
	line   int
}

func (c *Simple) firstLine() int { return c.line }
func (c *For) firstLine() int    { return c.line }

// shPipeline is `[!] cmd [| cmd]...`; bang inverts its exit status (dash).
type shPipeline struct {
	Cmds []Command
	bang bool
}

type AndOr struct {
	Pipes []*shPipeline
	ops   []string // ops[i] joins pipes[i] and pipes[i+1]
	async bool     // ended by "&": run in the background (exec.go, jobs.go)
}

type tokKind int

const (
	TWord tokKind = iota
	tOp
	tNewline
	tEOF
	tErr
)

type token struct {
	Kind tokKind
	op   string
	Word shWord
	ioNr int // the n of "n>", -1 if none
	line int
	err  string // tErr: the whole message after "sh: LINE: "
}

// keyword reports whether t is the reserved word kw where dash would
// recognize one (an unquoted word).
func (t token) keyword(kw string) bool {
	return t.Kind == TWord && t.Word.plain() && t.Word.String() == kw
}

// shError is a message the shell prints as "NAME: LINE: MSG" before
// giving up on the script with status 2.
type shError struct {
	line int
	msg  string
}

func (e *shError) Error() string { return fmt.Sprintf("%d: %s", e.line, e.msg) }

func unsupported(line int, what string) token {
	return token{Kind: tErr, line: line, err: "lab: unsupported shell syntax: " + what +
		" (this host implements only the sh subset the provider emits)"}
}

// Parser reads one complete command (up to an unescaped newline outside a
// compound command) at a time, so that, as in dash, a syntax error on a
// later line does not stop the earlier lines from running.
type Parser struct {
	Toks []token
	pos  int
	// plinno is dash's parser line once NextCommand has read a complete command: the line
	// after its terminating newline (dash counts the newline when it reads it), or its last
	// line at the end of the script. dash's syntax errors found while running it name it.
	plinno int
}

func (p *Parser) peek() token { return p.Toks[p.pos] }

func (p *Parser) next() token {
	t := p.Toks[p.pos]
	if t.Kind != tEOF && t.Kind != tErr {
		p.pos++
	}
	return t
}

// unexpected is dash's synexpect: the token's name, and what the grammar
// wanted there when it wanted one thing (expect is "" otherwise).
func unexpected(t token, expect string) *shError {
	var what string
	switch t.Kind {
	case tErr:
		return &shError{t.line, t.err}
	case tNewline:
		what = "newline"
	case tEOF:
		what = "end of file"
	case TWord:
		what = "word"
		if t.Word.plain() && isKeyword(t.Word.String()) {
			what = fmt.Sprintf("%q", t.Word.String())
		}
	default:
		what = fmt.Sprintf("%q", t.op)
	}
	msg := "Syntax error: " + what + " unexpected"
	if expect != "" {
		msg += " (expecting " + expect + ")"
	}
	return &shError{t.line, msg}
}

// NextCommand returns the next complete command, or nil at the end.
func (p *Parser) NextCommand() ([]*AndOr, error) {
	p.linebreak()
	if p.peek().Kind == tEOF {
		return nil, nil
	}
	var list []*AndOr
	for {
		ao, err := p.andOr()
		if err != nil {
			return nil, err
		}
		list = append(list, ao)
		t := p.peek()
		switch {
		case t.Kind == tNewline || t.Kind == tEOF:
			p.end(p.next())
			return list, nil
		case t.Kind == tOp && (t.op == ";" || t.op == "&"):
			p.next()
			ao.async = t.op == "&"
			if k := p.peek().Kind; k == tNewline || k == tEOF {
				p.end(p.next())
				return list, nil
			}
		default:
			return nil, unexpected(t, "")
		}
	}
}

// end records plinno from the token that ended a complete command.
func (p *Parser) end(t token) {
	p.plinno = t.line
	if t.Kind == tNewline {
		p.plinno++
	}
}

// compoundList is the body of a compound command up to the reserved word
// end (consumed): and-or lists separated by ";" or newlines.
func (p *Parser) compoundList(end string) ([]*AndOr, error) {
	var list []*AndOr
	p.linebreak()
	for {
		t := p.peek()
		if t.keyword(end) && len(list) > 0 {
			p.next()
			return list, nil
		}
		if t.Kind == tEOF {
			return nil, unexpected(t, fmt.Sprintf("%q", end))
		}
		ao, err := p.andOr()
		if err != nil {
			return nil, err
		}
		list = append(list, ao)
		switch t := p.peek(); {
		case t.Kind == tNewline || (t.Kind == tOp && (t.op == ";" || t.op == "&")):
			p.next()
			ao.async = t.op == "&"
			p.linebreak()
		case t.Kind == tEOF:
			return nil, unexpected(t, fmt.Sprintf("%q", end))
		case !t.keyword(end):
			return nil, unexpected(t, "")
		}
	}
}

func (p *Parser) andOr() (*AndOr, error) {
	ao := &AndOr{}
	for {
		pl, err := p.pipeline()
		if err != nil {
			return nil, err
		}
		ao.Pipes = append(ao.Pipes, pl)
		t := p.peek()
		if t.Kind != tOp || (t.op != "&&" && t.op != "||") {
			return ao, nil
		}
		p.next()
		ao.ops = append(ao.ops, t.op)
		p.linebreak()
	}
}

func (p *Parser) linebreak() {
	for p.peek().Kind == tNewline {
		p.next()
	}
}

func (p *Parser) pipeline() (*shPipeline, error) {
	pl := &shPipeline{}
	if t := p.peek(); t.Kind == TWord && t.Word.plain() && t.Word.String() == "!" {
		p.next()
		pl.bang = true
	}
	for {
		c, err := p.command()
		if err != nil {
			return nil, err
		}
		pl.Cmds = append(pl.Cmds, c)
		if t := p.peek(); t.Kind != tOp || t.op != "|" {
			return pl, nil
		}
		p.next()
		p.linebreak()
	}
}

func (p *Parser) command() (Command, error) {
	if p.peek().keyword("for") {
		return p.forCommand()
	}
	return p.simple()
}

// forCommand parses `for NAME [in WORD...] ; do LIST done` and the
// redirections after it, with dash's messages. `for NAME; do` (the
// positional parameters) is refused: the lab has none.
func (p *Parser) forCommand() (*For, error) {
	f := &For{line: p.next().line}
	name := p.next()
	switch {
	case name.Kind == tErr:
		return nil, unexpected(name, "")
	case name.Kind != TWord || !name.Word.plain() || !isName(name.Word.String()):
		return nil, &shError{name.line, "Syntax error: Bad for loop variable"}
	}
	f.Name = name.Word.String()
	p.linebreak()
	t := p.peek()
	switch {
	case t.keyword("in"):
		p.next()
	words:
		for {
			switch t := p.next(); {
			case t.Kind == TWord:
				f.Words = append(f.Words, t.Word)
			case t.Kind == tNewline || (t.Kind == tOp && t.op == ";"):
				break words
			default:
				return nil, unexpected(t, "")
			}
		}
	case t.keyword("do") || (t.Kind == tOp && t.op == ";"):
		return nil, &shError{t.line, unsupported(t.line, "for loop without in (the positional parameters)").err}
	default:
		return nil, unexpected(t, `"do"`)
	}
	p.linebreak()
	if t := p.peek(); !t.keyword("do") {
		return nil, unexpected(t, `"do"`)
	}
	p.next()
	body, err := p.compoundList("done")
	if err != nil {
		return nil, err
	}
	f.Body = body
	for {
		r, ok, err := p.redirect()
		if err != nil {
			return nil, err
		}
		if !ok {
			return f, nil
		}
		f.Redirs = append(f.Redirs, r)
	}
}

// redirect parses one redirection if the next token starts one.
func (p *Parser) redirect() (Redir, bool, error) {
	t := p.peek()
	if t.Kind != tOp || (t.op != ">" && t.op != ">>" && t.op != "<" && t.op != ">&" && t.op != "<&") {
		return Redir{}, false, nil
	}
	p.next()
	target := p.next()
	if target.Kind != TWord {
		return Redir{}, false, unexpected(target, "")
	}
	fd := t.ioNr
	if fd < 0 {
		fd = 1
		if t.op[0] == '<' {
			fd = 0
		}
	}
	if t.op == ">&" || t.op == "<&" {
		if target.Word.hasParams() {
			return Redir{}, false, &shError{t.line, unsupported(t.line, "expansion in the target of "+t.op).err}
		}
		// Any other word is checked when the command runs, as dash's expredir does
		// ("Syntax error: Bad fd number" unless a digit); "-" closes the descriptor.
		if target.Word.String() == "-" {
			return Redir{}, false, &shError{t.line, unsupported(t.line, "closing a file descriptor ("+t.op+"-)").err}
		}
	}
	return Redir{fd: fd, Op: t.op, Target: target.Word}, true, nil
}

// keywords the subset parses (they get dash's "unexpected" messages out of
// place); the other reserved words are refused as unsupported.
var supportedKeywords = []string{"for", "in", "do", "done"}

var reservedWords = []string{"if", "then", "else", "elif", "fi", "case", "esac",
	"while", "until", "function", "{", "}", "!", "[[", "]]", "select"}

func isKeyword(s string) bool {
	for _, kw := range supportedKeywords {
		if s == kw {
			return true
		}
	}
	return false
}

// reserved names a word that must not begin a simple command.
func reserved(t token) *shError {
	if !t.Word.plain() {
		return nil
	}
	s := t.Word.String()
	if isKeyword(s) {
		return unexpected(t, "")
	}
	for _, r := range reservedWords {
		if s == r {
			return &shError{t.line, unsupported(t.line, "reserved word "+s).err}
		}
	}
	return nil
}

// refusedAssignments are the variables whose value the lab's commands do not
// consult (PATH lookups and field splitting are fixed): assigning them is
// refused rather than silently ignored.
var refusedAssignments = []string{"IFS", "PATH", "CDPATH"}

func (p *Parser) simple() (*Simple, error) {
	c := &Simple{line: p.peek().line}
	for {
		t := p.peek()
		switch {
		case t.Kind == TWord:
			if len(c.Words) == 0 && len(c.Assigns) == 0 && len(c.Redirs) == 0 {
				if err := reserved(t); err != nil {
					return nil, err
				}
			}
			p.next()
			if len(c.Words) == 0 {
				if name, value, ok := t.Word.assignment(); ok {
					for _, r := range refusedAssignments {
						if name == r {
							return nil, &shError{t.line, unsupported(t.line, "assignment to "+name).err}
						}
					}
					c.Assigns = append(c.Assigns, shAssign{Name: name, Value: value})
					continue
				}
			}
			if len(c.Assigns) > 0 {
				return nil, &shError{t.line, unsupported(t.line, "variable assignment before a command ("+c.Assigns[0].Name+"=...)").err}
			}
			c.Words = append(c.Words, t.Word)
		case t.Kind == tOp && (t.op == ">" || t.op == ">>" || t.op == "<" || t.op == ">&" || t.op == "<&"):
			r, _, err := p.redirect()
			if err != nil {
				return nil, err
			}
			c.Redirs = append(c.Redirs, r)
		default:
			if len(c.Words) == 0 && len(c.Redirs) == 0 && len(c.Assigns) == 0 {
				return nil, unexpected(t, "")
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
