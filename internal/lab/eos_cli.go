package lab

// The `eos` switch's command-line parser: words matched against the keywords of the current
// mode by unique prefix, values checked against EOS's ranges, and the error texts EOS prints.
// Token numbers in errors count from 0 over every word typed, `no` included.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// cliError is one of EOS's `% ...` answers. at says how far the line got before the error
// (the token index, len(words) for an incomplete line), so that when several modes are tried
// (a command of a parent mode typed in a submode) the one that understood most wins. The
// parser passes *cliError, never an error interface, so a nil stays nil.
type cliError struct {
	msg string
	at  int
}

// atFinal marks errors found after the whole line parsed: no other mode can do better.
const atFinal = 1 << 30

const (
	msgIncomplete = "% Incomplete command"
	msgAmbiguous  = "% Ambiguous command"
	msgPrivileged = "% Invalid input (privileged mode required)"
)

func errInvalid(i int, word string) *cliError {
	return &cliError{msg: fmt.Sprintf("%% Invalid input (at token %d: '%s')", i, word), at: i}
}

func errFinal(format string, args ...any) *cliError {
	return &cliError{msg: fmt.Sprintf(format, args...), at: atFinal}
}

func errPrivileged() *cliError { return &cliError{msg: msgPrivileged, at: atFinal} }

// better picks the error to report: the one that got furthest, the first on a tie.
func better(best, err *cliError) *cliError {
	if best == nil || err.at > best.at {
		return err
	}
	return best
}

// eosArgs walks the words of one line; n ends the part being parsed (a `|` ends a show
// command's own words).
type eosArgs struct {
	w []string
	i int
	n int
}

func newArgs(words []string) *eosArgs { return &eosArgs{w: words, n: len(words)} }

func (a *eosArgs) more() bool { return a.i < a.n }

func (a *eosArgs) incomplete() *cliError { return &cliError{msg: msgIncomplete, at: a.n} }

// done refuses extra words.
func (a *eosArgs) done() *cliError {
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
func (a *eosArgs) kw(keywords ...string) (string, *cliError) {
	if !a.more() {
		return "", a.incomplete()
	}
	k, n := matchKeyword(a.w[a.i], keywords)
	switch {
	case n == 0:
		return "", errInvalid(a.i, a.w[a.i])
	case k == "":
		return "", &cliError{msg: msgAmbiguous, at: a.i}
	}
	a.i++
	return k, nil
}

// optKw is kw for an optional last element: "" at the end of the line.
func (a *eosArgs) optKw(keywords ...string) (string, *cliError) {
	if !a.more() {
		return "", nil
	}
	return a.kw(keywords...)
}

// isKw says whether the next word abbreviates keyword, without consuming it.
func (a *eosArgs) isKw(keyword string) bool {
	if !a.more() {
		return false
	}
	k, _ := matchKeyword(a.w[a.i], []string{keyword})
	return k != ""
}

var digits = regexp.MustCompile(`^[0-9]+$`)

// num reads an integer in [lo, hi]; anything else is invalid input at its token.
func (a *eosArgs) num(lo, hi int) (int, *cliError) {
	if !a.more() {
		return 0, a.incomplete()
	}
	w := a.w[a.i]
	v, convErr := strconv.Atoi(w)
	if !digits.MatchString(w) || convErr != nil || v < lo || v > hi {
		return 0, errInvalid(a.i, w)
	}
	a.i++
	return v, nil
}

// nums reads one or more integers in [lo, hi] up to the keyword stop.
func (a *eosArgs) nums(lo, hi int, stop string) ([]int, *cliError) {
	var out []int
	for a.more() && !a.isKw(stop) {
		v, err := a.num(lo, hi)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		if a.more() {
			return nil, errInvalid(a.i, a.w[a.i])
		}
		return nil, a.incomplete()
	}
	return out, nil
}

// word reads any one word (a name).
func (a *eosArgs) word() (string, *cliError) {
	if !a.more() {
		return "", a.incomplete()
	}
	a.i++
	return a.w[a.i-1], nil
}

// rest reads every remaining word (a description, a regular expression).
func (a *eosArgs) rest() (string, *cliError) {
	if !a.more() {
		return "", a.incomplete()
	}
	s := strings.Join(a.w[a.i:a.n], " ")
	a.i = a.n
	return s, nil
}

var centis = regexp.MustCompile(`^([0-9]{1,6})(?:\.([0-9]{1,2}))?$`)

// seconds reads a time in seconds with at most two decimals, in [lo, hi] hundredths.
func (a *eosArgs) seconds(lo, hi int) (int, *cliError) {
	if !a.more() {
		return 0, a.incomplete()
	}
	w := a.w[a.i]
	m := centis.FindStringSubmatch(w)
	if m == nil {
		return 0, errInvalid(a.i, w)
	}
	whole, _ := strconv.Atoi(m[1])
	frac, _ := strconv.Atoi((m[2] + "00")[:2])
	v := whole*100 + frac
	if v < lo || v > hi {
		return 0, errInvalid(a.i, w)
	}
	a.i++
	return v, nil
}

// ethernet reads a port name as EOS accepts it (Ethernet1, Et1, eth1, e1, "Ethernet 1") and
// checks that the port exists.
func (a *eosArgs) ethernet(ports int) (int, *cliError) {
	if !a.more() {
		return 0, a.incomplete()
	}
	start := a.i
	w := a.w[a.i]
	letters := strings.TrimRight(w, "0123456789")
	number := w[len(letters):]
	if letters == "" || !strings.HasPrefix("ethernet", strings.ToLower(letters)) {
		return 0, errInvalid(start, w)
	}
	a.i++
	if number == "" {
		if !a.more() {
			return 0, a.incomplete()
		}
		number = a.w[a.i]
		a.i++
	}
	n, convErr := strconv.Atoi(number)
	if !digits.MatchString(number) || convErr != nil || n < 1 || n > ports {
		return 0, errInvalid(a.i-1, a.w[a.i-1])
	}
	return n, nil
}

// centiString prints hundredths of a second with two decimals, as EOS shows watchdog times.
func centiString(v int) string { return fmt.Sprintf("%d.%02d", v/100, v%100) }
