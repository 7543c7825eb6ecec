// Package fault is the machinery of fault injection per device (faults.md in package lab): a
// device refuses connections, drops one in the middle of a write, stalls, rejects the next
// write with its own error text, or answers slowly; a NIC host also reboots. Every device holds
// a Set; each platform's server consults it where its operations happen (gNMI: the guard's
// interceptors and listener; CLI switches: the SSH accept loop and the line loop; NIC hosts:
// the SSH accept loop and exec requests). Package lab re-exports the kinds and arms the sets.
package fault

import (
	"net"
	"strings"
	"sync"
	"time"
)

// Kind is a fault a device can be told to show (lab.FaultKind).
type Kind string

// The kinds; package lab documents each (lab.FaultRefuse ...).
const (
	Refuse       Kind = "refuse"
	Drop         Kind = "drop"
	Stall        Kind = "stall"
	Reject       Kind = "reject"
	Slow         Kind = "slow"
	Reboot       Kind = "reboot"
	DriverReload Kind = "driver-reload"
)

// DefaultSlowBy is the delay Slow adds when lab.InjectFault sets it.
const DefaultSlowBy = 2 * time.Second

// StallLimit is how long a stalled operation hangs at most; it then runs as if nothing happened.
const StallLimit = 10 * time.Minute

// Order is the order lab.Faults lists faults in, and the kinds every device takes.
var Order = []Kind{Refuse, Drop, Stall, Reject, Slow}

// Set is the faults armed on one device. The zero value has none.
type Set struct {
	mu      sync.Mutex
	on      map[Kind]bool // refuse, drop, stall, reject
	slowBy  time.Duration // Slow when > 0
	release chan struct{} // closed when the stall is cleared
	stopped chan struct{} // closed when the device stops
	stalled int           // operations held in Stall now
}

// Arm arms kind (Refuse, Drop, Stall or Reject).
func (f *Set) Arm(kind Kind) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.on == nil {
		f.on = map[Kind]bool{}
	}
	f.on[kind] = true
	if kind == Stall && f.release == nil {
		f.release = make(chan struct{})
	}
}

// SetSlow arms Slow: every answer comes by later.
func (f *Set) SetSlow(by time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.slowBy = by
}

// Clear disarms everything and lets stalled operations go on.
func (f *Set) Clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.on, f.slowBy = nil, 0
	if f.release != nil {
		close(f.release)
		f.release = nil
	}
}

// Active lists the armed faults in Order.
func (f *Set) Active() []Kind {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Kind
	for _, k := range Order {
		if f.on[k] || (k == Slow && f.slowBy > 0) {
			out = append(out, k)
		}
	}
	return out
}

// Has says whether kind is armed.
func (f *Set) Has(kind Kind) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.on[kind]
}

// Take disarms a one-shot fault and reports whether it was armed: the caller makes it happen.
func (f *Set) Take(kind Kind) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.on[kind] {
		return false
	}
	delete(f.on, kind)
	return true
}

// SlowBy is the delay Slow adds, or 0.
func (f *Set) SlowBy() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.slowBy
}

func (f *Set) stopCh() chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped == nil {
		f.stopped = make(chan struct{})
	}
	return f.stopped
}

// Stop releases every wait for good: the device is stopping.
func (f *Set) Stop() {
	ch := f.stopCh()
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// Stall blocks while Stall is armed, until it is cleared, StallLimit passes, gone is closed
// (the client went away) or the device stops. false says the operation must not run.
func (f *Set) Stall(gone <-chan struct{}) bool {
	f.mu.Lock()
	release := f.release
	armed := f.on[Stall]
	f.mu.Unlock()
	if !armed {
		return true
	}
	f.mu.Lock()
	f.stalled++
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.stalled--
		f.mu.Unlock()
	}()
	t := time.NewTimer(StallLimit)
	defer t.Stop()
	select {
	case <-release:
		return true
	case <-t.C:
		return true
	case <-gone:
		return false
	case <-f.stopCh():
		return false
	}
}

// Stalled is how many operations Stall holds now: a test knows the device has them before it
// checks that none answered.
func (f *Set) Stalled() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stalled
}

// Sleep waits d (a device's latency plus Slow), or until the device stops.
func (f *Set) Sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-f.stopCh():
	}
}

// Conn is one SSH connection as a device's sessions see it: what to close to drop it, and a
// channel closed once it is gone.
type Conn struct {
	nc net.Conn
	// Gone is closed once the connection is gone (the server closes it).
	Gone chan struct{}
}

// NewConn is nc as its sessions see it.
func NewConn(nc net.Conn) *Conn { return &Conn{nc: nc, Gone: make(chan struct{})} }

// Drop closes the connection: the client reads what was sent so far, then EOF (or a reset,
// when the client's own bytes were still unread).
func (c *Conn) Drop() {
	if tc, ok := c.nc.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
	_ = c.nc.Close()
}

// ResetConn closes a just-accepted connection with a TCP reset, as a refusing device looks to a
// client: "connection reset by peer".
func ResetConn(nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = nc.Close()
}

// Pause is what a remote device adds before a handshake or an answer: its latency and Slow's
// delay, cut short when the device stops.
func (f *Set) Pause(latency time.Duration) {
	f.Sleep(latency + f.SlowBy())
}

// List words kinds for an error message: "refuse, drop, ...".
func List(kinds []Kind) string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}
