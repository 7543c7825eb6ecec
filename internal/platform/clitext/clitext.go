// Package clitext reads what the CLI platforms' configuration texts (EOS, NX-OS) write alike:
// blocks by indentation and thresholds with a unit. It knows no platform, so neither platform
// package reaches into the other for them.
package clitext

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Node is a configuration line and the lines of its block.
type Node struct {
	Line     string
	Children []*Node
}

// Tree builds the block structure of running-config text from indentation (EOS indents 3
// spaces a level, NX-OS 2): a line belongs to the closest line above it that is indented less.
// Blank lines and "!" comments are skipped, trailing white space and CRs dropped.
func Tree(text string) []*Node {
	type level struct {
		indent int
		n      *Node
	}
	root := &Node{}
	stack := []level{{-1, root}}
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimRight(raw, "\r\t ")
		body := strings.TrimLeft(line, " \t")
		if body == "" || strings.HasPrefix(body, "!") {
			continue
		}
		indent := len(line) - len(body)
		for len(stack) > 1 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		n := &Node{Line: body}
		parent := stack[len(stack)-1].n
		parent.Children = append(parent.Children, n)
		stack = append(stack, level{indent, n})
	}
	return root.Children
}

// unitBytes are the threshold units both CLIs print that bytes express.
var unitBytes = map[string]int64{"bytes": 1, "kbytes": 1024, "mbytes": 1048576}

// Threshold converts a threshold (a whole number and its unit) to bytes; a unit bytes cannot
// express (segments, packets, time) reads unknown, the platform's marker for a value it does
// not carry.
func Threshold(value, unit string, unknown int64) (int64, error) {
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("threshold %q is not a non-negative whole number", value)
	}
	mult, ok := unitBytes[unit]
	if !ok {
		return unknown, nil
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("threshold %s %s does not fit in 64-bit bytes", value, unit)
	}
	return n * mult, nil
}

// Writable refuses lines that carry a control character or one of ; | ! # ?: written back, such
// a line would end early, start a comment or ask the CLI for help. The CLI platforms write
// values read from the device verbatim (prior bindings, the lines they remove), and neither
// switch prints such a value; platform ("eos", "nxos") begins the error.
func Writable(platform string, lines []string) error {
	for _, l := range lines {
		if strings.ContainsAny(l, ";|!#?") || strings.ContainsFunc(l, unicode.IsControl) {
			return fmt.Errorf("%s: the running-config holds a value this provider would write back as %q, and no CLI "+
				"line may carry a control character or one of ; | ! # ?: correct it on the switch", platform, l)
		}
	}
	return nil
}

// Number parses a decimal integer in lo..hi, as both CLIs print one (no sign, no padding
// Atoi would take but a CLI never prints: "+5" is refused).
func Number(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi || strings.HasPrefix(s, "+") {
		return 0, fmt.Errorf("%q is not a number from %d to %d", s, lo, hi)
	}
	return n, nil
}

// SetNumber parses s as Number does and points *dst at it; on an error *dst is left as it was.
func SetNumber(dst **int, s string, lo, hi int) error {
	n, err := Number(s, lo, hi)
	if err != nil {
		return err
	}
	*dst = &n
	return nil
}

// NumberAfter reads the Number that follows the keyword f[i] of a line's words ("weight 4").
func NumberAfter(f []string, i, lo, hi int) (int, error) {
	if i+1 >= len(f) {
		return 0, fmt.Errorf("%s needs a value", f[i])
	}
	return Number(f[i+1], lo, hi)
}

// ThresholdAfter reads the Threshold, a value and its unit, that follows the keyword f[i] of a
// line's words ("minimum-threshold 150 kbytes").
func ThresholdAfter(f []string, i int, unknown int64) (int64, error) {
	if i+2 >= len(f) {
		return 0, fmt.Errorf("%s needs a value and a unit", f[i])
	}
	return Threshold(f[i+1], f[i+2], unknown)
}

// MinMax collects the minimum-threshold and maximum-threshold of an ECN or WRED line, which
// both CLIs write as a pair.
type MinMax struct {
	Min, Max       int64
	HasMin, HasMax bool
}

// Read takes the threshold that follows the keyword f[i], minimum-threshold or
// maximum-threshold (ThresholdAfter); the caller skips its two words.
func (m *MinMax) Read(f []string, i int, unknown int64) error {
	v, err := ThresholdAfter(f, i, unknown)
	if err != nil {
		return err
	}
	if f[i] == "minimum-threshold" {
		m.Min, m.HasMin = v, true
	} else {
		m.Max, m.HasMax = v, true
	}
	return nil
}

// Err refuses a line with one threshold of the pair but not the other.
func (m MinMax) Err() error {
	if m.HasMin != m.HasMax {
		return errors.New("needs both minimum-threshold and maximum-threshold")
	}
	return nil
}

// EachLine runs fn on the words of each line of a block, stopping at the first error, which
// it returns quoting the line.
func EachLine(lines []*Node, fn func(f []string) error) error {
	for _, n := range lines {
		if err := fn(strings.Fields(n.Line)); err != nil {
			return fmt.Errorf("%q: %w", n.Line, err)
		}
	}
	return nil
}
