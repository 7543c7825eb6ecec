package lab

// The EOS side of the command-line parser (cli_args.go): EOS's error texts, and the value
// forms only EOS takes (space-separated number lists, seconds with two decimals, port names
// Ethernet1/Et1/eth1). Token numbers in errors count from 0 over every word typed, `no`
// included.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

const (
	msgIncomplete = "% Incomplete command"
	msgAmbiguous  = "% Ambiguous command"
	msgPrivileged = "% Invalid input (privileged mode required)"
)

func errPrivileged() *cliError { return &cliError{msg: msgPrivileged, at: atFinal} }

// eosText is the error as EOS prints it; a number out of range is an invalid input at its
// token, as any other wrong word.
func (e *cliError) eosText() string {
	switch e.kind {
	case errKindInvalid, errKindRange:
		return fmt.Sprintf("%% Invalid input (at token %d: '%s')", e.at, e.word)
	case errKindIncomplete:
		return msgIncomplete
	case errKindAmbiguous:
		return msgAmbiguous
	}
	return e.msg
}

// nums reads one or more integers in [lo, hi] up to the keyword stop.
func (a *cliArgs) nums(lo, hi int, stop string) ([]int, *cliError) {
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

var centis = regexp.MustCompile(`^([0-9]{1,6})(?:\.([0-9]{1,2}))?$`)

// seconds reads a time in seconds with at most two decimals, in [lo, hi] hundredths.
func (a *cliArgs) seconds(lo, hi int) (int, *cliError) {
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
func (a *cliArgs) ethernet(ports int) (int, *cliError) {
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
