package lab

// Fault injection per device (faults.md): a device refuses connections, drops one in the middle
// of a write, stalls, rejects the next write with its own error text, or answers slowly; a NIC
// host also reboots. Every device holds a faultSet; each platform's server consults it where
// its operations happen (gNMI: the guard's interceptors and listener; CLI switches: the SSH
// accept loop and the line loop; NIC hosts: the SSH accept loop and exec requests).

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"
)

// FaultKind is a fault a device can be told to show.
type FaultKind string

const (
	// FaultRefuse: new TCP connections are accepted and reset at once, and the open ones are
	// closed, until cleared.
	FaultRefuse FaultKind = "refuse"
	// FaultDrop: the connection is closed in the middle of the next operation that writes,
	// before the device applies it (one-shot).
	FaultDrop FaultKind = "drop"
	// FaultStall: every operation hangs, its connection open, until cleared (or for at most
	// StallLimit).
	FaultStall FaultKind = "stall"
	// FaultReject: the next write is refused with the device's own error text (one-shot).
	FaultReject FaultKind = "reject"
	// FaultSlow: every answer comes SlowBy later (DefaultSlowBy, or InjectSlow's), until
	// cleared.
	FaultSlow FaultKind = "slow"
	// FaultReboot: NIC hosts only, Host.Reboot now (one-shot, so never listed as active).
	FaultReboot FaultKind = "reboot"
	// FaultDriverReload: NIC hosts only, Host.DriverReload now (one-shot): the driver's
	// defaults on every port, and the units bound to the netdevs run again.
	FaultDriverReload FaultKind = "driver-reload"
)

// DefaultSlowBy is the delay FaultSlow adds when InjectFault sets it.
const DefaultSlowBy = 2 * time.Second

// StallLimit is how long a stalled operation hangs at most; it then runs as if nothing happened.
const StallLimit = 10 * time.Minute

// faultOrder is the order Faults lists faults in, and the kinds every device takes.
var faultOrder = []FaultKind{FaultRefuse, FaultDrop, FaultStall, FaultReject, FaultSlow}

// hostFaultVerb words the refusal of a host-only fault on a switch.
var hostFaultVerb = map[FaultKind]string{FaultReboot: "reboot", FaultDriverReload: "reload a NIC driver"}

// faultTarget is what every device offers to fault injection.
type faultTarget interface {
	faultSet() *faultSet
	// closeConns closes every open connection of the device (FaultRefuse).
	closeConns()
}

// faultSet is the faults armed on one device. The zero value has none.
type faultSet struct {
	mu      sync.Mutex
	on      map[FaultKind]bool // refuse, drop, stall, reject
	slowBy  time.Duration      // FaultSlow when > 0
	release chan struct{}      // closed when the stall is cleared
	stopped chan struct{}      // closed when the device stops
}

func (f *faultSet) arm(kind FaultKind) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.on == nil {
		f.on = map[FaultKind]bool{}
	}
	f.on[kind] = true
	if kind == FaultStall && f.release == nil {
		f.release = make(chan struct{})
	}
}

func (f *faultSet) setSlow(by time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.slowBy = by
}

// clear disarms everything and lets stalled operations go on.
func (f *faultSet) clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.on, f.slowBy = nil, 0
	if f.release != nil {
		close(f.release)
		f.release = nil
	}
}

func (f *faultSet) active() []FaultKind {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []FaultKind
	for _, k := range faultOrder {
		if f.on[k] || (k == FaultSlow && f.slowBy > 0) {
			out = append(out, k)
		}
	}
	return out
}

func (f *faultSet) has(kind FaultKind) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.on[kind]
}

// take disarms a one-shot fault and reports whether it was armed: the caller makes it happen.
func (f *faultSet) take(kind FaultKind) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.on[kind] {
		return false
	}
	delete(f.on, kind)
	return true
}

func (f *faultSet) slow() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.slowBy
}

func (f *faultSet) stopCh() chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped == nil {
		f.stopped = make(chan struct{})
	}
	return f.stopped
}

// stop releases every wait for good: the device is stopping.
func (f *faultSet) stop() {
	ch := f.stopCh()
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// stall blocks while FaultStall is armed, until it is cleared, StallLimit passes, gone is closed
// (the client went away) or the device stops. false says the operation must not run.
func (f *faultSet) stall(gone <-chan struct{}) bool {
	f.mu.Lock()
	release := f.release
	armed := f.on[FaultStall]
	f.mu.Unlock()
	if !armed {
		return true
	}
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

// sleep waits d (a device's latency plus FaultSlow), or until the device stops.
func (f *faultSet) sleep(d time.Duration) {
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

// faultConn is one SSH connection as a device's sessions see it: what to close to drop it, and a
// channel closed once it is gone.
type faultConn struct {
	nc   net.Conn
	gone chan struct{}
}

func newFaultConn(nc net.Conn) *faultConn { return &faultConn{nc: nc, gone: make(chan struct{})} }

// drop closes the connection: the client reads what was sent so far, then EOF (or a reset,
// when the client's own bytes were still unread).
func (c *faultConn) drop() {
	if tc, ok := c.nc.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
	_ = c.nc.Close()
}

// resetConn closes a just-accepted connection with a TCP reset, as a refusing device looks to a
// client: "connection reset by peer".
func resetConn(nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = nc.Close()
}

// InjectFault makes device show kind (faults.md): refuse, drop, stall, reject and slow (with
// DefaultSlowBy) on every device, reboot on NIC hosts. Faults add up; ClearFaults removes them.
func (l *Lab) InjectFault(device string, kind FaultKind) error {
	d, err := l.faultTarget(device)
	if err != nil {
		return err
	}
	switch kind {
	case FaultRefuse:
		d.faultSet().arm(kind)
		d.closeConns()
	case FaultDrop, FaultStall, FaultReject:
		d.faultSet().arm(kind)
	case FaultSlow:
		d.faultSet().setSlow(DefaultSlowBy)
	case FaultReboot, FaultDriverReload:
		h, ok := d.(*Host)
		if !ok {
			return fmt.Errorf("%s is a %s switch: only NIC hosts %s (switch faults: %s)",
				device, l.devices[device].entry().Platform, hostFaultVerb[kind], kindList(faultOrder))
		}
		if kind == FaultReboot {
			h.Reboot()
		} else {
			h.DriverReload()
		}
	default:
		return fmt.Errorf("unknown fault kind %q (kinds: %s, and %s, %s on NIC hosts)", kind, kindList(faultOrder), FaultReboot, FaultDriverReload)
	}
	return nil
}

// InjectSlow makes every answer of device come by later than it would, until ClearFaults.
func (l *Lab) InjectSlow(device string, by time.Duration) error {
	d, err := l.faultTarget(device)
	if err != nil {
		return err
	}
	if by <= 0 {
		return fmt.Errorf("slow: the delay must be positive, got %s", by)
	}
	d.faultSet().setSlow(by)
	return nil
}

// ClearFaults removes every fault of device; stalled operations go on.
func (l *Lab) ClearFaults(device string) error {
	d, err := l.faultTarget(device)
	if err != nil {
		return err
	}
	d.faultSet().clear()
	return nil
}

// Faults lists the faults active on device (one-shots until they fire), in the order refuse,
// drop, stall, reject, slow; nil for a device the lab does not have.
func (l *Lab) Faults(device string) []FaultKind {
	d, err := l.faultTarget(device)
	if err != nil {
		return nil
	}
	return d.faultSet().active()
}

func (l *Lab) faultTarget(device string) (faultTarget, error) {
	d, ok := l.devices[device]
	if !ok {
		return nil, fmt.Errorf("no device %q in this lab (devices: %s)", device, strings.Join(l.names, ", "))
	}
	ft, ok := d.(faultTarget)
	if !ok {
		return nil, errors.New(device + " does not take faults")
	}
	return ft, nil
}

func kindList(kinds []FaultKind) string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}
