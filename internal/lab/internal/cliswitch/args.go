package cliswitch

// The command-line parser the CLI switches share: words matched against the keywords of a
// mode by unique prefix (an exact match wins), numbers checked against ranges, names read as
// typed, and errors that record what went wrong and at which word. Each dialect prints an
// error its own way: EOS a bare `% Invalid input` (eosText), NX-OS a caret under the word
// (nxosTerm.errorText).

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ErrKind is what a Refusal says, before a dialect words it.
type ErrKind int

const (
	ErrKindMsg        ErrKind = iota // msg is the whole answer
	ErrKindInvalid                   // an unknown or mistyped word
	ErrKindIncomplete                // words are missing
	ErrKindAmbiguous                 // the word abbreviates several keywords
	ErrKindRange                     // a number outside [lo, hi]
)

// Refusal is a refused line. At says how far the line got before the error (the token index,
// len(words) for an incomplete line), so that when several modes are tried (a command of a
// parent mode typed in a submode) the one that understood most wins. The parser passes
// *Refusal, never an error interface, so a nil stays nil.
type Refusal struct {
	Kind   ErrKind
	At     int
	Word   string // the offending word (ErrKindInvalid, ErrKindRange)
	Lo, Hi int    // the range (ErrKindRange)
	Msg    string // the answer (ErrKindMsg)
}

// NoValue marks an optional number that was not configured.
const NoValue = -1

// hostnameRE is the hostname the dialects' `hostname` commands take.
var hostnameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$`)

// AtFinal marks errors found after the whole line parsed: no other mode can do better.
const AtFinal = 1 << 30

func ErrInvalid(i int, word string) *Refusal {
	return &Refusal{Kind: ErrKindInvalid, At: i, Word: word}
}

func ErrRange(i int, word string, lo, hi int) *Refusal {
	return &Refusal{Kind: ErrKindRange, At: i, Word: word, Lo: lo, Hi: hi}
}

func ErrFinal(format string, args ...any) *Refusal {
	return &Refusal{Msg: fmt.Sprintf(format, args...), At: AtFinal}
}

// Better picks the error to report: the one that got furthest, the first on a tie.
func Better(best, err *Refusal) *Refusal {
	if best == nil || err.At > best.At {
		return err
	}
	return best
}

// Args walks the words of one line; End ends the part being parsed (a `|` ends a show
// command's own words).
type Args struct {
	Words []string
	Pos   int
	End   int
}

func NewArgs(words []string) *Args { return &Args{Words: words, End: len(words)} }

func (a *Args) More() bool { return a.Pos < a.End }

func (a *Args) Incomplete() *Refusal { return &Refusal{Kind: ErrKindIncomplete, At: a.End} }

// Done refuses extra words.
func (a *Args) Done() *Refusal {
	if a.More() {
		return ErrInvalid(a.Pos, a.Words[a.Pos])
	}
	return nil
}

// MatchKeyword resolves a typed word against keywords: an exact match (case-insensitive)
// wins, otherwise the word must be the prefix of exactly one.
func MatchKeyword(word string, keywords []string) (string, int) {
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

// Kw reads one of the keywords.
func (a *Args) Kw(keywords ...string) (string, *Refusal) {
	if !a.More() {
		return "", a.Incomplete()
	}
	k, n := MatchKeyword(a.Words[a.Pos], keywords)
	switch {
	case n == 0:
		return "", ErrInvalid(a.Pos, a.Words[a.Pos])
	case k == "":
		return "", &Refusal{Kind: ErrKindAmbiguous, At: a.Pos}
	}
	a.Pos++
	return k, nil
}

// OptKw is Kw for an optional last element: "" at the end of the line.
func (a *Args) OptKw(keywords ...string) (string, *Refusal) {
	if !a.More() {
		return "", nil
	}
	return a.Kw(keywords...)
}

// IsKw says whether the next word abbreviates keyword, without consuming it.
func (a *Args) IsKw(keyword string) bool {
	if !a.More() {
		return false
	}
	k, _ := MatchKeyword(a.Words[a.Pos], []string{keyword})
	return k != ""
}

var Digits = regexp.MustCompile(`^[0-9]+$`)

// Num reads an integer in [lo, hi]: a word that is no number is invalid, a number outside the
// range (too large to convert included) is a range error.
func (a *Args) Num(lo, hi int) (int, *Refusal) {
	if !a.More() {
		return 0, a.Incomplete()
	}
	w := a.Words[a.Pos]
	if !Digits.MatchString(w) {
		return 0, ErrInvalid(a.Pos, w)
	}
	v, convErr := strconv.Atoi(w)
	if convErr != nil || v < lo || v > hi {
		return 0, ErrRange(a.Pos, w, lo, hi)
	}
	a.Pos++
	return v, nil
}

// Keywords reads each of keywords in turn (`running-config checkpoint`, `type qos`).
func (a *Args) Keywords(keywords ...string) *Refusal {
	for _, k := range keywords {
		if _, err := a.Kw(k); err != nil {
			return err
		}
	}
	return nil
}

// NoArgs is a command that takes no arguments and then does do (enable, exit, end, logout).
func NoArgs[X any](do func(X)) func(X, *Args) *Refusal {
	return func(x X, a *Args) *Refusal {
		if err := a.Done(); err != nil {
			return err
		}
		do(x)
		return nil
	}
}

// Last reads a command's last argument with read, then refuses extra words.
func Last[V any](a *Args, read func(*Args) (V, *Refusal)) (V, *Refusal) {
	v, err := read(a)
	if err != nil {
		return v, err
	}
	return v, a.Done()
}

// NegLast is Last for a command whose no form (neg) may leave the argument out: read runs
// unless the no form ends the line there, and the no form gets none whatever it named (`no
// mtu [N]`, `no flowcontrol send [on|off]`, `no pause pfc-cos [LIST]`).
func NegLast[V any](a *Args, neg bool, none V, read func(*Args) (V, *Refusal)) (V, *Refusal) {
	v := none
	if !neg || a.More() {
		var err *Refusal
		if v, err = read(a); err != nil {
			return none, err
		}
	}
	if err := a.Done(); err != nil {
		return none, err
	}
	if neg {
		return none, nil
	}
	return v, nil
}

// TerminalSize reads the end of `terminal length N` or `terminal width N`: N up to hi, a width
// at least minWidth (each dialect has its limits).
func (a *Args) TerminalSize(minWidth, hi int) (what string, n int, err *Refusal) {
	if what, err = a.Kw("length", "width"); err != nil {
		return "", 0, err
	}
	lo := 0
	if what == "width" {
		lo = minWidth
	}
	n, err = Last(a, Number(lo, hi))
	return what, n, err
}

// Keyword reads one of keywords, for Last and NegLast.
func Keyword(keywords ...string) func(*Args) (string, *Refusal) {
	return func(a *Args) (string, *Refusal) { return a.Kw(keywords...) }
}

// Number reads an integer in [lo, hi], for Last and NegLast.
func Number(lo, hi int) func(*Args) (int, *Refusal) {
	return func(a *Args) (int, *Refusal) { return a.Num(lo, hi) }
}

// KwNum reads keyword, then an integer in [lo, hi] (`weight 3`, `pause-threshold 77376`).
func (a *Args) KwNum(keyword string, lo, hi int) (int, *Refusal) {
	if _, err := a.Kw(keyword); err != nil {
		return 0, err
	}
	return a.Num(lo, hi)
}

// Unit is a threshold unit and the largest number it takes.
type Unit struct {
	Name string
	Max  int
}

// Threshold reads `KEYWORD N UNIT` (EOS's ECN and NX-OS's WRED thresholds): N from lo up to
// the largest unit's maximum, then one of units. An N over its own unit's maximum is refused
// by over (at N's word, with that maximum), as the dialect words it.
func (a *Args) Threshold(keyword string, lo int, units []Unit, over func(at int, word string, maxN int) *Refusal) (int, string, *Refusal) {
	if _, err := a.Kw(keyword); err != nil {
		return 0, "", err
	}
	names, maxN := make([]string, len(units)), 0
	for i, u := range units {
		names[i], maxN = u.Name, max(maxN, u.Max)
	}
	at := a.Pos
	v, err := a.Num(lo, maxN)
	if err != nil {
		return 0, "", err
	}
	unit, err := a.Kw(names...)
	if err != nil {
		return 0, "", err
	}
	for _, u := range units {
		if u.Name == unit && v > u.Max {
			return 0, "", over(at, a.Words[at], u.Max)
		}
	}
	return v, unit, nil
}

// Word reads any one word (a name).
func (a *Args) Word() (string, *Refusal) {
	if !a.More() {
		return "", a.Incomplete()
	}
	a.Pos++
	return a.Words[a.Pos-1], nil
}

// Matching reads one word that re matches (a name in a dialect's syntax); any other word is
// invalid there.
func (a *Args) Matching(re *regexp.Regexp) (string, *Refusal) {
	at := a.Pos
	name, err := a.Word()
	if err != nil {
		return "", err
	}
	if !re.MatchString(name) {
		return "", ErrInvalid(at, name)
	}
	return name, nil
}

// Rest reads every remaining word (a description, a regular expression).
func (a *Args) Rest() (string, *Refusal) {
	if !a.More() {
		return "", a.Incomplete()
	}
	s := strings.Join(a.Words[a.Pos:a.End], " ")
	a.Pos = a.End
	return s, nil
}

// Hostname is the `hostname NAME` command of both dialects: NAME, the last word of the line,
// must be a hostname; set stores it.
func Hostname[X any](set func(x X, name string)) func(X, *Args) *Refusal {
	return func(x X, a *Args) *Refusal {
		name, err := a.Matching(hostnameRE)
		if err != nil {
			return err
		}
		if err := a.Done(); err != nil {
			return err
		}
		set(x, name)
		return nil
	}
}

// Cmd is one first keyword of a mode's command table; X is the dialect's command context.
type Cmd[X any] struct {
	Name string
	Fn   func(x X, a *Args) *Refusal
	// config commands change the configuration: they run on a copy that replaces the
	// configuration only if they succeed, and RejectLines refuses them.
	Config bool
	Neg    bool // has a `no` form
}

// ConfigMode finishes a configuration mode's command table: every command changes the
// configuration (Config), and `no` is followed by one of the commands with a no form (Neg),
// which then runs with the dialect's no flag set by negated. Both dialects read `no` so.
func ConfigMode[X any](cmds []Cmd[X], negated func(X)) []Cmd[X] {
	var negs []Cmd[X]
	for i := range cmds {
		cmds[i].Config = true
		if cmds[i].Neg {
			negs = append(negs, cmds[i])
		}
	}
	no := Cmd[X]{Name: "no", Config: true, Fn: func(x X, a *Args) *Refusal {
		cmd, err := FindCommand(a, negs)
		if err != nil {
			return err
		}
		negated(x)
		return cmd.Fn(x, a)
	}}
	return append(cmds, no)
}

// FindCommand reads the first keyword of a line among a table's commands.
func FindCommand[X any](a *Args, table []Cmd[X]) (Cmd[X], *Refusal) {
	names := make([]string, len(table))
	for i, c := range table {
		names[i] = c.Name
	}
	name, err := a.Kw(names...)
	if err != nil {
		return Cmd[X]{}, err
	}
	for _, c := range table {
		if c.Name == name {
			return c, nil
		}
	}
	return Cmd[X]{}, ErrInvalid(0, name) // unreachable: Kw returned one of names
}

// FirstWord refuses a first word that abbreviates no command, or several, of all the tables
// a line may belong to: a submode has its parents' commands too, so an abbreviation is
// ambiguous if it is among all of them.
func FirstWord[X any](word string, tables ...[]Cmd[X]) *Refusal {
	var names []string
	seen := map[string]bool{}
	for _, table := range tables {
		for _, c := range table {
			if !seen[c.Name] {
				seen[c.Name] = true
				names = append(names, c.Name)
			}
		}
	}
	_, err := NewArgs([]string{word}).Kw(names...)
	return err
}

// Dispatch runs a line's words as a command of the first of layers (a mode, then the parents
// whose commands it also takes) that accepts it: the first word must abbreviate a command of
// the layers' tables (FirstWord), then try runs the line in each layer in turn, and when none
// takes it the refusal that got furthest is the answer (Better).
func Dispatch[L, X any](words []string, layers []L, table func(L) []Cmd[X], try func(L) (string, *Refusal)) (string, *Refusal) {
	tables := make([][]Cmd[X], len(layers))
	for i, l := range layers {
		tables[i] = table(l)
	}
	if err := FirstWord(words[0], tables...); err != nil {
		return "", err
	}
	var best *Refusal
	for _, layer := range layers {
		out, err := try(layer)
		if err == nil {
			return out, nil
		}
		if best = Better(best, err); best.At == AtFinal {
			break
		}
	}
	return "", best
}
