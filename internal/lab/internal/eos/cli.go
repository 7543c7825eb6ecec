package eos

// The EOS side of the command-line parser (cliswitch.Args): EOS's error texts, and the value
// forms only EOS takes (space-separated number lists, seconds with two decimals, port names
// Ethernet1/Et1/eth1). The parser records the token it refused (counted from 0 over every word
// typed, `no` included), but the interactive CLI does not print it: only eAPI adds
// `(at token N: 'WORD')` (eos-switch.md, "Errors").

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

const (
	msgInvalid    = "% Invalid input"
	msgIncomplete = "% Incomplete command"
	msgAmbiguous  = "% Ambiguous command"
	msgPrivileged = "% Invalid input (privileged mode required)"
)

func errPrivileged() *cliswitch.Refusal {
	return &cliswitch.Refusal{Msg: msgPrivileged, At: cliswitch.AtFinal}
}

// eosText is the error as EOS's interactive CLI prints it; a number out of range is an invalid
// input, as any other wrong word.
func eosText(e *cliswitch.Refusal) string {
	switch e.Kind {
	case cliswitch.ErrKindInvalid, cliswitch.ErrKindRange:
		return msgInvalid
	case cliswitch.ErrKindIncomplete:
		return msgIncomplete
	case cliswitch.ErrKindAmbiguous:
		return msgAmbiguous
	}
	return e.Msg
}

// argNums reads one or more integers in [lo, hi] up to the keyword stop.
func argNums(a *cliswitch.Args, lo, hi int, stop string) ([]int, *cliswitch.Refusal) {
	var out []int
	for a.More() && !a.IsKw(stop) {
		v, err := a.Num(lo, hi)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		if a.More() {
			return nil, cliswitch.ErrInvalid(a.Pos, a.Words[a.Pos])
		}
		return nil, a.Incomplete()
	}
	return out, nil
}

var centis = regexp.MustCompile(`^([0-9]{1,6})(?:\.([0-9]{1,2}))?$`)

// argSeconds reads a time in seconds with at most two decimals, in [lo, hi] hundredths.
func argSeconds(a *cliswitch.Args, lo, hi int) (int, *cliswitch.Refusal) {
	if !a.More() {
		return 0, a.Incomplete()
	}
	w := a.Words[a.Pos]
	m := centis.FindStringSubmatch(w)
	if m == nil {
		return 0, cliswitch.ErrInvalid(a.Pos, w)
	}
	whole, _ := strconv.Atoi(m[1])
	frac, _ := strconv.Atoi((m[2] + "00")[:2])
	v := whole*100 + frac
	if v < lo || v > hi {
		return 0, cliswitch.ErrInvalid(a.Pos, w)
	}
	a.Pos++
	return v, nil
}

// argEthernet reads a port name as EOS accepts it (Ethernet1, Et1, eth1, e1, "Ethernet 1") and
// checks that the port exists.
func argEthernet(a *cliswitch.Args, ports int) (int, *cliswitch.Refusal) {
	if !a.More() {
		return 0, a.Incomplete()
	}
	start := a.Pos
	w := a.Words[a.Pos]
	letters := strings.TrimRight(w, "0123456789")
	number := w[len(letters):]
	if letters == "" || !strings.HasPrefix("ethernet", strings.ToLower(letters)) {
		return 0, cliswitch.ErrInvalid(start, w)
	}
	a.Pos++
	if number == "" {
		if !a.More() {
			return 0, a.Incomplete()
		}
		number = a.Words[a.Pos]
		a.Pos++
	}
	n, convErr := strconv.Atoi(number)
	if !cliswitch.Digits.MatchString(number) || convErr != nil || n < 1 || n > ports {
		return 0, cliswitch.ErrInvalid(a.Pos-1, a.Words[a.Pos-1])
	}
	return n, nil
}

// centiString prints hundredths of a second with two decimals, as EOS shows watchdog times.
func centiString(v int) string { return fmt.Sprintf("%d.%02d", v/100, v%100) }
