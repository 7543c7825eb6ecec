// Package traffic is the clockwork of the simulated devices' traffic counters. Every counter
// is a pure function of time: a steady rate since the device (or the object) came up, plus
// extra rates while a storm is on. So two reads a second apart differ, a counter never goes
// back, and a test can work out what a read must show from the rates (each device's counters
// file) and a clock it controls.
package traffic

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
	"time"
)

// Storm accumulates how long a port has been in a storm (receiving PFC pauses, dropping
// and marking packets).
type Storm struct {
	On    bool
	since time.Time     // start of the current storm
	total time.Duration // storm time before it
}

// Set turns the storm on or off at now.
func (s *Storm) Set(on bool, now time.Time) {
	switch {
	case on == s.On:
		return
	case on:
		s.since = now
	default:
		s.total += max(0, now.Sub(s.since))
	}
	s.On = on
}

// Elapsed is the storm time up to now.
func (s *Storm) Elapsed(now time.Time) time.Duration {
	if s.On {
		return s.total + max(0, now.Sub(s.since))
	}
	return s.total
}

// Count is how many events happen in d at rate per second, rounded down; 128-bit
// intermediate so that byte counters of a 100G port cannot overflow.
func Count(rate uint64, d time.Duration) uint64 {
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

// SetPort turns the storm of a switch port on or off at now (`rocelab storm`); the switch
// names its ports in the error for one it lacks. The caller holds the lock guarding storms.
func SetPort(storms map[string]*Storm, device string, ports []string, ifname string, on bool, now time.Time) error {
	st, ok := storms[ifname]
	if !ok {
		return fmt.Errorf("%s has no interface %q (interfaces: %s)", device, ifname, strings.Join(ports, ", "))
	}
	st.Set(on, now)
	return nil
}
