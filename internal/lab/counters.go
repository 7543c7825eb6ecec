package lab

// Traffic counters of the simulated devices. Every counter is a pure function of time: a steady
// rate since the device (or the object) came up, plus extra rates while a storm is on. So two
// reads a second apart differ, a counter never goes back, and a test can work out what a read
// must show from the rates below and a clock it controls.

import (
	"math"
	"math/bits"
	"time"
)

// stormClock accumulates how long a port has been in a storm (receiving PFC pauses, dropping
// and marking packets).
type stormClock struct {
	on    bool
	since time.Time     // start of the current storm
	total time.Duration // storm time before it
}

func (s *stormClock) set(on bool, now time.Time) {
	switch {
	case on == s.on:
		return
	case on:
		s.since = now
	default:
		s.total += max(0, now.Sub(s.since))
	}
	s.on = on
}

// elapsed is the storm time up to now.
func (s *stormClock) elapsed(now time.Time) time.Duration {
	if s.on {
		return s.total + max(0, now.Sub(s.since))
	}
	return s.total
}

// count is how many events happen in d at rate per second, rounded down; 128-bit
// intermediate so that byte counters of a 100G port cannot overflow.
func count(rate uint64, d time.Duration) uint64 {
	if d <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(rate, uint64(d))
	if hi >= uint64(time.Second) {
		return math.MaxUint64 // beyond any lab's lifetime
	}
	q, _ := bits.Div64(hi, lo, uint64(time.Second))
	return q
}
