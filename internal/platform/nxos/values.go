package nxos

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext"
)

var errExpectNumber = errors.New("expected one number")

// dscpNames are the DSCP keywords NX-OS accepts in `match dscp` (class selectors, assured
// forwarding, expedited forwarding, default).
var dscpNames = func() map[string]int {
	m := map[string]int{"default": 0, "ef": 46}
	for cs := 1; cs <= 7; cs++ {
		m["cs"+strconv.Itoa(cs)] = 8 * cs
	}
	for class := 1; class <= 4; class++ {
		for drop := 1; drop <= 3; drop++ {
			m[fmt.Sprintf("af%d%d", class, drop)] = 8*class + 2*drop
		}
	}
	return m
}()

// parseValues reads a DSCP (0-63) or CoS (0-7) list as NX-OS prints it: numbers and ranges
// separated by commas or blanks ("0-7,9,11-13"); DSCP names are accepted. The result is
// ascending, without duplicates.
func parseValues(f []string, field string) ([]int, error) {
	hi := 7
	if field == "dscp" {
		hi = 63
	}
	var out []int
	for _, item := range strings.FieldsFunc(strings.Join(f, ","), func(r rune) bool { return r == ',' }) {
		if v, ok := dscpNames[item]; ok && field == "dscp" {
			out = append(out, v)
			continue
		}
		a, b, isRange := strings.Cut(item, "-")
		lo, err := clitext.Number(a, 0, hi)
		if err != nil {
			return nil, err
		}
		top := lo
		if isRange {
			if top, err = clitext.Number(b, lo, hi); err != nil {
				return nil, err
			}
		}
		for v := lo; v <= top; v++ {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s needs a list of values", field)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// formatValues prints a list compactly as NX-OS does: runs as ranges ("0-7,9,11-13").
func formatValues(vs []int) string {
	var parts []string
	for i := 0; i < len(vs); {
		j := i
		for j+1 < len(vs) && vs[j+1] == vs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", vs[i], vs[j]))
		} else {
			parts = append(parts, strconv.Itoa(vs[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// parseWRED reads the arguments of `random-detect`: `minimum-threshold X UNIT
// maximum-threshold Y UNIT [drop-probability P] [weight W] [ecn]`, or a predefined profile
// (`threshold burst-optimized ecn`) whose thresholds read Unknown.
func parseWRED(f []string) (*WRED, error) {
	w := &WRED{MinBytes: Unknown, MaxBytes: Unknown, Probability: Unknown, Weight: Unknown}
	var th clitext.MinMax
	for i := 0; i < len(f); i++ {
		var err error
		switch f[i] {
		case "minimum-threshold", "maximum-threshold":
			err = th.Read(f, i, Unknown)
			i += 2
		case "weight":
			w.Weight, err = clitext.NumberAfter(f, i, 0, 15)
			i++
		case "drop-probability":
			w.Probability, err = clitext.NumberAfter(f, i, 0, 100)
			i++
		case "ecn":
			w.ECN = true
		}
		if err != nil {
			return nil, err
		}
	}
	if err := th.Err(); err != nil {
		return nil, err
	}
	if th.HasMin { // else a predefined profile: Unknown
		w.MinBytes, w.MaxBytes = th.Min, th.Max
	}
	return w, nil
}

// parsePause reads `buffer-size B pause-threshold X resume-threshold Y` (bytes).
func parsePause(f []string) (*Pause, error) {
	if len(f) != 6 || f[0] != "buffer-size" || f[2] != "pause-threshold" || f[4] != "resume-threshold" {
		return nil, errors.New("expected buffer-size B pause-threshold X resume-threshold Y")
	}
	var v [3]int64
	for i := range v {
		n, err := strconv.ParseInt(f[2*i+1], 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s %q is not a non-negative whole number of bytes", f[2*i], f[2*i+1])
		}
		v[i] = n
	}
	return &Pause{BufferSize: v[0], PauseThreshold: v[1], ResumeThreshold: v[2]}, nil
}
