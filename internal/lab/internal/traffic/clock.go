package traffic

import (
	"sync"
	"time"
)

// ManualClock is a clock that moves only when told to: tests give it to a device (its Now as
// the device's clock) and work out what a read must show from the rates and the time they
// advanced.
type ManualClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewManualClock starts at 2025-01-01 00:00 UTC.
func NewManualClock() *ManualClock {
	return &ManualClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
}

// Now is the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock d forward.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
