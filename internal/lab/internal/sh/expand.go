package sh

// Word expansion in dash's order: parameter expansion ($NAME, ${NAME},
// $?), field splitting of unquoted expansion results on IFS whitespace,
// pathname expansion of fields with an unquoted glob character (quoted
// characters match literally), quote removal. Assignments and redirection
// targets get parameter expansion only (dash neither splits nor globs
// them).

import (
	"path"
	"slices"
	"strconv"
	"strings"
)

// expandError is an expansion the shell cannot perform; dash prints it and
// exits with status 2.
type expandError string

func (e expandError) Error() string { return string(e) }

// param is the value of $name ("" when unset, an error under set -u).
func (sh *Shell) param(name string) (string, error) {
	if name == "?" {
		return strconv.Itoa(sh.status), nil
	}
	v, ok := sh.Vars[name]
	if !ok && sh.nounset {
		return "", expandError(name + ": parameter not set")
	}
	return v, nil
}

func isIFSSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }

// split performs parameter expansion and field splitting: the fields, each
// with its per-rune quoting and no marks. A word that is only unquoted
// expansions of empty values gives no field; a quote gives one, even empty.
func (sh *Shell) split(w shWord) ([]shWord, error) {
	var out []shWord
	var cur shWord
	started := false
	push := func() {
		out = append(out, cur)
		cur, started = shWord{}, false
	}
	add := func(r rune, quoted bool) {
		cur.runes = append(cur.runes, r)
		cur.quoted = append(cur.quoted, quoted)
		started = true
	}
	m := 0
	for i := 0; i <= len(w.runes); i++ {
		for ; m < len(w.marks) && w.marks[m].at == i; m++ {
			mk := w.marks[m]
			if mk.param == "" {
				started = true
				continue
			}
			v, err := sh.param(mk.param)
			if err != nil {
				return nil, err
			}
			if mk.dq {
				started = true
				for _, r := range v {
					add(r, true)
				}
				continue
			}
			for _, r := range v {
				if isIFSSpace(r) {
					if started {
						push()
					}
					continue
				}
				add(r, false)
			}
		}
		if i < len(w.runes) {
			add(w.runes[i], w.quoted[i])
		}
	}
	if started {
		push()
	}
	return out, nil
}

// expandWords is the fields of words in order (a command's arguments, a for loop's list), or
// the first expansion error.
func (sh *Shell) expandWords(words []shWord) ([]string, error) {
	var out []string
	for _, w := range words {
		fields, err := sh.ExpandFields(w)
		if err != nil {
			return nil, err
		}
		out = append(out, fields...)
	}
	return out, nil
}

// ExpandFields is the full expansion of a command word or a for loop word.
func (sh *Shell) ExpandFields(w shWord) ([]string, error) {
	fields, err := sh.split(w)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range fields {
		out = append(out, sh.pathnames(f)...)
	}
	return out, nil
}

// expandString expands parameters without splitting or globbing.
func (sh *Shell) expandString(w shWord) (string, error) {
	var b strings.Builder
	m := 0
	for i := 0; i <= len(w.runes); i++ {
		for ; m < len(w.marks) && w.marks[m].at == i; m++ {
			if p := w.marks[m].param; p != "" {
				v, err := sh.param(p)
				if err != nil {
					return "", err
				}
				b.WriteString(v)
			}
		}
		if i < len(w.runes) {
			b.WriteRune(w.runes[i])
		}
	}
	return b.String(), nil
}

// pathnames performs pathname expansion on a field with an unquoted glob
// character; without a match the field stays as it is, as dash leaves it.
func (sh *Shell) pathnames(f shWord) []string {
	meta := false
	for i, r := range f.runes {
		if !f.quoted[i] && (r == '*' || r == '?' || r == '[') {
			meta = true
		}
	}
	if !meta {
		return []string{string(f.runes)}
	}
	if got := sh.glob(f); len(got) > 0 {
		return got
	}
	return []string{string(f.runes)}
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

// glob matches f against the tree the shell may read, relative to its
// directory, sorted as dash sorts (strcmp). A leading "." must be matched
// explicitly, and then "." and ".." match too (dash reads them from the
// directory); a trailing "/" keeps directories only.
func (sh *Shell) glob(f shWord) []string {
	comps, abs := splitGlob(f)
	dirOnly := len(f.runes) > 1 && f.runes[len(f.runes)-1] == '/'
	type cand struct{ fsPath, shown string }
	cands := []cand{{fsPath: sh.cwd}}
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
			names, err := sh.sys.FS.ReadDir(c.fsPath, sh.root)
			if err != nil {
				continue
			}
			dot := strings.HasPrefix(comp.pattern, ".")
			if dot {
				names = append([]string{".", ".."}, names...)
			}
			for _, name := range names {
				if strings.HasPrefix(name, ".") && !dot {
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
		isDir, err := sh.sys.FS.stat(c.fsPath, sh.root)
		switch {
		case err != nil, dirOnly && !isDir:
		case dirOnly:
			out = append(out, c.shown+"/")
		default:
			out = append(out, c.shown)
		}
	}
	slices.Sort(out)
	return out
}
