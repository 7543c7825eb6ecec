package sh

// The lexer of the sh subset: words with per-rune quoting and parameter
// expansions ($NAME, ${NAME}, $?), operators, io numbers ("2>"), comments
// and line continuations. Other expansions and the operators of
// unsupported constructs become an error token where they appear, so the
// lines before them still run.

import (
	"fmt"
	"strings"
)

const opChars = ";&|<>()"

func Lex(script string) []token {
	src := []rune(script)
	var toks []token
	line := 1
	i := 0
	for {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || (src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n')) {
			if src[i] == '\\' {
				i++
				line++
			}
			i++
		}
		if i >= len(src) {
			return append(toks, token{Kind: tEOF, line: line})
		}
		c := src[i]
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '\n':
			toks = append(toks, token{Kind: tNewline, line: line})
			line++
			i++
		case strings.ContainsRune(opChars, c):
			op := string(c)
			if i+1 < len(src) {
				two := string(src[i : i+2])
				switch two {
				case "&&", "||", ";;", ">>", ">&", ">|", "<&", "<<", "<>":
					op = two
				}
			}
			i += len([]rune(op))
			switch op {
			case "(", ")", ";;", "<<", "<>":
				return append(toks, unsupported(line, fmt.Sprintf("%q", op)))
			case ">|":
				op = ">"
			}
			toks = append(toks, token{Kind: tOp, op: op, ioNr: -1, line: line})
		default:
			tok, next, lines := lexWord(src, i, line)
			if tok.Kind == tErr {
				return append(toks, tok)
			}
			i, line = next, line+lines
			if i < len(src) && (src[i] == '>' || src[i] == '<') && tok.Word.plain() && isDigits(tok.Word.String()) {
				n := 0
				_, _ = fmt.Sscan(tok.Word.String(), &n)
				op := string(src[i])
				if i+1 < len(src) && (src[i+1] == '>' || src[i+1] == '&' || src[i+1] == '|') {
					op += string(src[i+1])
				}
				i += len(op)
				if op == ">|" {
					op = ">"
				}
				if op == "<<" || op == "<>" || op == "<|" {
					return append(toks, unsupported(line, fmt.Sprintf("%q", op)))
				}
				toks = append(toks, token{Kind: tOp, op: op, ioNr: n, line: line})
				continue
			}
			toks = append(toks, tok)
		}
	}
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// lexWord reads one word starting at i; lines counts the newlines it
// spans (inside quotes or after a backslash).
func lexWord(src []rune, i, line int) (tok token, next, lines int) {
	var w shWord
	add := func(r rune, quoted bool) {
		w.runes = append(w.runes, r)
		w.quoted = append(w.quoted, quoted)
	}
	mark := func(param string, dq bool) {
		w.marks = append(w.marks, shMark{at: len(w.runes), param: param, dq: dq})
	}
	// dollar handles a "$" at src[i]: a parameter mark, a literal "$", or
	// an error token for what the subset refuses.
	dollar := func(dq bool) *token {
		param, n, errTok := lexDollar(src, i, line+lines, dq)
		if errTok != nil {
			return errTok
		}
		if param == "" {
			add('$', dq)
		} else {
			mark(param, dq)
		}
		i = n
		return nil
	}
	start := line
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || strings.ContainsRune(opChars, c):
			return token{Kind: TWord, Word: w, ioNr: -1, line: start}, i, lines
		case c == '\\':
			if i+1 >= len(src) {
				add('\\', false)
				i++
				continue
			}
			if src[i+1] == '\n' {
				lines++
			} else {
				add(src[i+1], true)
			}
			i += 2
		case c == '\'':
			end := indexRune(src, i+1, '\'')
			if end < 0 { // dash reads to the end of the script, counting its lines
				return token{Kind: tErr, line: line + lines + newlines(src[i:]), err: "Syntax error: Unterminated quoted string"}, 0, 0
			}
			mark("", false)
			for _, r := range src[i+1 : end] {
				if r == '\n' {
					lines++
				}
				add(r, true)
			}
			i = end + 1
		case c == '"':
			mark("", true)
			i++
			closed := false
			for i < len(src) {
				d := src[i]
				if d == '"' {
					closed = true
					i++
					break
				}
				if d == '$' {
					if t := dollar(true); t != nil {
						return *t, 0, 0
					}
					continue
				}
				if d == '`' {
					return unsupported(line+lines, "expansion in "+string(src[i:min(i+2, len(src))])), 0, 0
				}
				if d == '\\' && i+1 < len(src) && strings.ContainsRune("$`\"\\\n", src[i+1]) {
					if src[i+1] == '\n' {
						lines++
					} else {
						add(src[i+1], true)
					}
					i += 2
					continue
				}
				if d == '\n' {
					lines++
				}
				add(d, true)
				i++
			}
			if !closed { // at the end of the script, whose lines it counted
				return token{Kind: tErr, line: line + lines, err: "Syntax error: Unterminated quoted string"}, 0, 0
			}
		case c == '$':
			if t := dollar(false); t != nil {
				return *t, 0, 0
			}
		case c == '`':
			return unsupported(line+lines, "expansion "+string(src[i:min(i+2, len(src))])), 0, 0
		default:
			add(c, false)
			i++
		}
	}
	return token{Kind: TWord, Word: w, ioNr: -1, line: start}, i, lines
}

// lexDollar reads the expansion at src[i] == '$' on line line (dq: inside double quotes):
// $NAME, ${NAME}, $? and ${?} are parameters; a "$" that starts no expansion is literal (param
// ""); every other expansion is refused.
func lexDollar(src []rune, i, line int, dq bool) (param string, next int, errTok *token) {
	if i+1 >= len(src) || !isExpansionStart(src[i+1]) {
		return "", i + 1, nil
	}
	c := src[i+1]
	switch {
	case c == '?' || c == '!':
		return string(c), i + 2, nil
	case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		j := i + 1
		for j < len(src) && isNameRune(src[j]) {
			j++
		}
		return string(src[i+1 : j]), j, nil
	case c == '{':
		end := indexRune(src, i+2, '}')
		if end < 0 {
			return "", 0, unclosedBrace(src, i, line, dq)
		}
		if inner := string(src[i+2 : end]); inner == "?" || inner == "!" || isName(inner) {
			return inner, end + 1, nil
		}
		t := unsupported(line, "expansion "+string(src[i:end+1]))
		return "", 0, &t
	}
	t := unsupported(line, "expansion "+string(src[i:min(i+2, len(src))]))
	return "", 0, &t
}

// unclosedBrace is dash's error for a "${" at src[i] (on line line) that no "}" closes: it
// reads to the end of the script and reports "Missing '}'", or, inside double quotes, the
// unterminated quote, on the line it reached. Its count of lines (dash 0.5.12 on Debian 12, as
// `sh -c` shows it; mlx5-host.md, "Shell and utilities") leaves out a newline right after the
// parameter's name.
func unclosedBrace(src []rune, i, line int, dq bool) *token {
	msg := "Syntax error: Missing '}'"
	if dq {
		msg = "Syntax error: Unterminated quoted string"
	}
	n := newlines(src[i:])
	j := i + 2
	switch {
	case j < len(src) && isNameRune(src[j]) && (src[j] < '0' || src[j] > '9'):
		for j < len(src) && isNameRune(src[j]) {
			j++
		}
	case j < len(src) && src[j] >= '0' && src[j] <= '9':
		for j < len(src) && src[j] >= '0' && src[j] <= '9' {
			j++
		}
	case j < len(src) && strings.ContainsRune("@*#?-$!", src[j]):
		j++
	}
	if j < len(src) && src[j] == '\n' {
		n--
	}
	return &token{Kind: tErr, line: line + n, err: msg}
}

// newlines counts the newlines in src.
func newlines(src []rune) int {
	n := 0
	for _, r := range src {
		if r == '\n' {
			n++
		}
	}
	return n
}

func isNameRune(r rune) bool {
	return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
}

func isExpansionStart(r rune) bool {
	return r == '{' || r == '(' || r == '_' || r == '@' || r == '*' || r == '#' || r == '?' ||
		r == '$' || r == '!' || r == '-' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}

func indexRune(src []rune, from int, r rune) int {
	for j := from; j < len(src); j++ {
		if src[j] == r {
			return j
		}
	}
	return -1
}
