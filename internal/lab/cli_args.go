package lab

// The command-line parser the CLI switches share: words matched against the keywords of a
// mode by unique prefix (an exact match wins), numbers checked against ranges, names read as
// typed, and errors that record what went wrong and at which word. Each dialect prints an
// error its own way: EOS names the token (eosText), NX-OS puts a caret under it
// (nxosTerm.errorText).

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// cliErrKind is what a cliError says, before a dialect words it.
type cliErrKind int

const (
	errKindMsg        cliErrKind = iota // msg is the whole answer
	errKindInvalid                      // an unknown or mistyped word
	errKindIncomplete                   // words are missing
	errKindAmbiguous                    // the word abbreviates several keywords
	errKindRange                        // a number outside [lo, hi]
)

// cliError is a refused line. at says how far the line got before the error (the token index,
// len(words) for an incomplete line), so that when several modes are tried (a command of a
// parent mode typed in a submode) the one that understood most wins. The parser passes
// *cliError, never an error interface, so a nil stays nil.
type cliError struct {
	kind   cliErrKind
	at     int
	word   string // the offending word (errKindInvalid, errKindRange)
	lo, hi int    // the range (errKindRange)
	msg    string // the answer (errKindMsg)
}

// atFinal marks errors found after the whole line parsed: no other mode can do better.
const atFinal = 1 << 30

func errInvalid(i int, word string) *cliError {
	return &cliError{kind: errKindInvalid, at: i, word: word}
}

func errRange(i int, word string, lo, hi int) *cliError {
	return &cliError{kind: errKindRange, at: i, word: word, lo: lo, hi: hi}
}

func errFinal(format string, args ...any) *cliError {
	return &cliError{msg: fmt.Sprintf(format, args...), at: atFinal}
}

// better picks the error to report: the one that got furthest, the first on a tie.
func better(best, err *cliError) *cliError {
	if best == nil || err.at > best.at {
		return err
	}
	return best
}

// cliArgs walks the words of one line; n ends the part being parsed (a `|` ends a show
// command's own words).
type cliArgs struct {
	w []string
	i int
	n int
}

func newArgs(words []string) *cliArgs { return &cliArgs{w: words, n: len(words)} }

func (a *cliArgs) more() bool { return a.i < a.n }

func (a *cliArgs) incomplete() *cliError { return &cliError{kind: errKindIncomplete, at: a.n} }

// done refuses extra words.
func (a *cliArgs) done() *cliError {
	if a.more() {
		return errInvalid(a.i, a.w[a.i])
	}
	return nil
}

// matchKeyword resolves a typed word against keywords: an exact match (case-insensitive)
// wins, otherwise the word must be the prefix of exactly one.
func matchKeyword(word string, keywords []string) (string, int) {
	w := strings.ToLower(word)
	var found []string
	for _, k := range keywords {
		if w == k {
			return k, 1
		}
		if strings.HasPrefix(k, w) {
			found = append(found, k)
		}
	}
	if len(found) == 1 {
		return found[0], 1
	}
	return "", len(found)
}

// kw reads one of the keywords.
func (a *cliArgs) kw(keywords ...string) (string, *cliError) {
	if !a.more() {
		return "", a.incomplete()
	}
	k, n := matchKeyword(a.w[a.i], keywords)
	switch {
	case n == 0:
		return "", errInvalid(a.i, a.w[a.i])
	case k == "":
		return "", &cliError{kind: errKindAmbiguous, at: a.i}
	}
	a.i++
	return k, nil
}

// optKw is kw for an optional last element: "" at the end of the line.
func (a *cliArgs) optKw(keywords ...string) (string, *cliError) {
	if !a.more() {
		return "", nil
	}
	return a.kw(keywords...)
}

// isKw says whether the next word abbreviates keyword, without consuming it.
func (a *cliArgs) isKw(keyword string) bool {
	if !a.more() {
		return false
	}
	k, _ := matchKeyword(a.w[a.i], []string{keyword})
	return k != ""
}

var digits = regexp.MustCompile(`^[0-9]+$`)

// num reads an integer in [lo, hi]: a word that is no number is invalid, a number outside the
// range (too large to convert included) is a range error.
func (a *cliArgs) num(lo, hi int) (int, *cliError) {
	if !a.more() {
		return 0, a.incomplete()
	}
	w := a.w[a.i]
	if !digits.MatchString(w) {
		return 0, errInvalid(a.i, w)
	}
	v, convErr := strconv.Atoi(w)
	if convErr != nil || v < lo || v > hi {
		return 0, errRange(a.i, w, lo, hi)
	}
	a.i++
	return v, nil
}

// word reads any one word (a name).
func (a *cliArgs) word() (string, *cliError) {
	if !a.more() {
		return "", a.incomplete()
	}
	a.i++
	return a.w[a.i-1], nil
}

// rest reads every remaining word (a description, a regular expression).
func (a *cliArgs) rest() (string, *cliError) {
	if !a.more() {
		return "", a.incomplete()
	}
	s := strings.Join(a.w[a.i:a.n], " ")
	a.i = a.n
	return s, nil
}

// cliCmd is one first keyword of a mode's command table; X is the dialect's command context.
type cliCmd[X any] struct {
	name string
	fn   func(x X, a *cliArgs) *cliError
	// config commands change the configuration: they run on a copy that replaces the
	// configuration only if they succeed, and RejectLines refuses them.
	config bool
	neg    bool // has a `no` form
}

// findCommand reads the first keyword of a line among a table's commands.
func findCommand[X any](a *cliArgs, table []cliCmd[X]) (cliCmd[X], *cliError) {
	names := make([]string, len(table))
	for i, c := range table {
		names[i] = c.name
	}
	name, err := a.kw(names...)
	if err != nil {
		return cliCmd[X]{}, err
	}
	for _, c := range table {
		if c.name == name {
			return c, nil
		}
	}
	return cliCmd[X]{}, errInvalid(0, name) // unreachable: kw returned one of names
}

// firstWord refuses a first word that abbreviates no command, or several, of all the tables
// a line may belong to: a submode has its parents' commands too, so an abbreviation is
// ambiguous if it is among all of them.
func firstWord[X any](word string, tables ...[]cliCmd[X]) *cliError {
	var names []string
	seen := map[string]bool{}
	for _, table := range tables {
		for _, c := range table {
			if !seen[c.name] {
				seen[c.name] = true
				names = append(names, c.name)
			}
		}
	}
	_, err := newArgs([]string{word}).kw(names...)
	return err
}
