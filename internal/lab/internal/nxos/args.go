package nxos

// The value forms only NX-OS takes (cliswitch.Args is the shared parser): number lists with
// ranges (`0-7,26`) and their compact printing, port names Ethernet1/1 (`eth1/1`, `e1/1`,
// `ethernet 1/1`), and object names.

import (
	"fmt"
	"math/bits"
	"regexp"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

// argList reads a number list, `3`, `0-7,26`, every number in [lo, hi] (hi < 64), as a bit set.
// A malformed list is an invalid word, a number out of range a range error, both at the list.
func argList(a *cliswitch.Args, lo, hi int) (uint64, *cliswitch.Refusal) {
	if !a.More() {
		return 0, a.Incomplete()
	}
	at, w := a.Pos, a.Words[a.Pos]
	var set uint64
	for item := range strings.SplitSeq(w, ",") {
		first, last, isRange := strings.Cut(item, "-")
		if !isRange {
			last = first
		}
		from, err := listNumber(at, w, first, lo, hi)
		if err != nil {
			return 0, err
		}
		to, err := listNumber(at, w, last, lo, hi)
		if err != nil {
			return 0, err
		}
		if from > to {
			return 0, cliswitch.ErrInvalid(at, w)
		}
		for v := from; v <= to; v++ {
			set |= 1 << v
		}
	}
	a.Pos++
	return set, nil
}

func listNumber(at int, word, s string, lo, hi int) (int, *cliswitch.Refusal) {
	if !cliswitch.Digits.MatchString(s) {
		return 0, cliswitch.ErrInvalid(at, word)
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, cliswitch.ErrRange(at, word, lo, hi)
	}
	return v, nil
}

// compactList prints a bit set as NX-OS prints lists: runs as ranges, `0-7,9,11-13`.
func compactList(set uint64) string {
	var parts []string
	for set != 0 {
		from := bits.TrailingZeros64(set)
		to := from
		for to < 63 && set&(1<<(to+1)) != 0 {
			to++
		}
		if from == to {
			parts = append(parts, strconv.Itoa(from))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", from, to))
		}
		for v := from; v <= to; v++ {
			set &^= 1 << v
		}
	}
	return strings.Join(parts, ",")
}

// ethernetSlot reads a port as NX-OS accepts it (Ethernet1/1, Eth1/1, e1/1, `ethernet 1/1`)
// and checks that it is one of the switch's ports; it returns the port number.
func ethernetSlot(ports int) func(*cliswitch.Args) (int, *cliswitch.Refusal) {
	return func(a *cliswitch.Args) (int, *cliswitch.Refusal) {
		if !a.More() {
			return 0, a.Incomplete()
		}
		start, w := a.Pos, a.Words[a.Pos]
		letters := w
		if i := strings.IndexAny(w, "0123456789"); i >= 0 {
			letters = w[:i]
		}
		if letters == "" || !strings.HasPrefix("ethernet", strings.ToLower(letters)) {
			return 0, cliswitch.ErrInvalid(start, w)
		}
		a.Pos++
		number := w[len(letters):]
		if number == "" {
			if !a.More() {
				return 0, a.Incomplete()
			}
			number = a.Words[a.Pos]
			a.Pos++
		}
		slot, port, ok := strings.Cut(number, "/")
		n, err := strconv.Atoi(port)
		if !ok || slot != "1" || !cliswitch.Digits.MatchString(port) || err != nil || n < 1 || n > ports {
			return 0, cliswitch.ErrInvalid(a.Pos-1, a.Words[a.Pos-1])
		}
		return n, nil
	}
}

// nxosNameRE is what NX-OS takes as a class-map or policy-map name: up to 40 characters,
// letters, digits, `_`, `-` and `.`.
var nxosNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,40}$`)

// nameArg reads a class-map or policy-map name.
func nameArg(a *cliswitch.Args) (string, *cliswitch.Refusal) { return a.Matching(nxosNameRE) }
