package eos

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext"
)

// qosMap applies `qos map SRC V... to TARGET T ...` (f starts at SRC). Only dscp and cos to
// traffic-class and traffic-class to tx-queue are maps this package reads; other maps (say
// traffic-class to dscp, a rewrite map) are ignored.
func (c *Config) qosMap(f []string) error {
	var dst []int
	maxSrc := 7
	switch f[0] {
	case "dscp":
		dst, maxSrc = c.DSCPToTC[:], 63
	case "cos":
		dst = c.COSToTC[:]
	case "traffic-class":
		dst = c.TCToQueue[:]
	default:
		return nil
	}
	to := slices.Index(f, "to")
	if to < 2 || to+1 >= len(f) {
		return errors.New("expected SOURCE VALUE... to TARGET VALUE")
	}
	if want := map[string]string{"dscp": "traffic-class", "cos": "traffic-class", "traffic-class": "tx-queue"}[f[0]]; f[to+1] != want {
		return nil
	}
	if to+2 >= len(f) {
		return errors.New("the map target needs a value")
	}
	v, err := clitext.Number(f[to+2], 0, 7)
	if err != nil {
		return err
	}
	for _, s := range f[1:to] {
		k, err := clitext.Number(s, 0, maxSrc)
		if err != nil {
			return err
		}
		dst[k] = v
	}
	return nil
}

// parseECN reads the arguments of `random-detect ecn`. ok is false for the forms without
// thresholds (`random-detect ecn count`), which are not the marking line.
func parseECN(f []string) (e *ECN, ok bool, err error) {
	e = &ECN{Probability: 100, Weight: -1} // EOS marks at 100 % at the maximum threshold unless told
	var th clitext.MinMax
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "minimum-threshold", "maximum-threshold":
			if err := th.Read(f, i, Unknown); err != nil {
				return nil, true, err
			}
			i += 2
		case "max-mark-probability":
			if e.Probability, err = clitext.NumberAfter(f, i, 1, 100); err != nil {
				return nil, true, err
			}
			i++
		case "weight":
			if e.Weight, err = clitext.NumberAfter(f, i, 0, 15); err != nil {
				return nil, true, err
			}
			i++
		}
	}
	if !th.HasMin && !th.HasMax {
		return nil, false, nil
	}
	if err := th.Err(); err != nil {
		return nil, true, err
	}
	e.MinBytes, e.MaxBytes = th.Min, th.Max
	return e, true, nil
}

// timer reads `port timer timeout S polling-interval auto|S recovery-time S [forced]`.
func (w *Watchdog) timer(f []string) error {
	var timeout, recovery int
	var hasTimeout, hasRecovery bool
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "timeout", "recovery-time":
			if i+1 >= len(f) {
				return fmt.Errorf("%s needs seconds", f[i])
			}
			ms, err := parseSeconds(f[i+1])
			if err != nil {
				return err
			}
			if f[i] == "timeout" {
				timeout, hasTimeout = ms, true
			} else {
				recovery, hasRecovery = ms, true
			}
			i++
		case "polling-interval":
			i++
		}
	}
	if !hasTimeout || !hasRecovery {
		return errors.New("watchdog timer needs timeout and recovery-time")
	}
	w.Timer, w.TimeoutMs, w.RecoveryMs = strings.Join(f, " "), timeout, recovery
	return nil
}

// parseSeconds reads decimal seconds ("0.2", "0.20", "1.11", "2") as whole milliseconds.
func parseSeconds(s string) (int, error) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	if len(frac) > 3 {
		if strings.Trim(frac[3:], "0") != "" {
			return 0, fmt.Errorf("%q seconds is not a whole number of milliseconds", s)
		}
		frac = frac[:3]
	}
	frac += strings.Repeat("0", 3-len(frac))
	if whole == "" {
		whole = "0"
	}
	w, err1 := strconv.Atoi(whole)
	ms, err2 := strconv.Atoi(frac)
	if err1 != nil || err2 != nil || w < 0 || ms < 0 || strings.ContainsAny(whole+frac, "+-") || w > math.MaxInt32/1000 {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	return w*1000 + ms, nil
}

// formatSeconds prints ms as EOS does: seconds with two decimals (200 -> "0.20").
func formatSeconds(ms int) string {
	return fmt.Sprintf("%d.%02d", ms/1000, ms%1000/10)
}
