package lab

// Fault injection per device (faults.md): a device refuses connections, drops one in the middle
// of a write, stalls, rejects the next write with its own error text, or answers slowly; a NIC
// host also reboots. The machinery (the faults armed on a device, a connection a fault can drop)
// is internal/fault; here are the kinds and the Lab's knobs.

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

// FaultKind is a fault a device can be told to show.
type FaultKind = fault.Kind

const (
	// FaultRefuse: new TCP connections are accepted and reset at once, and the open ones are
	// closed, until cleared.
	FaultRefuse FaultKind = fault.Refuse
	// FaultDrop: the connection is closed in the middle of the next operation that writes,
	// before the device applies it (one-shot).
	FaultDrop FaultKind = fault.Drop
	// FaultStall: every operation hangs, its connection open, until cleared (or for at most
	// StallLimit).
	FaultStall FaultKind = fault.Stall
	// FaultReject: the next write is refused with the device's own error text (one-shot).
	FaultReject FaultKind = fault.Reject
	// FaultSlow: every answer comes SlowBy later (DefaultSlowBy, or InjectSlow's), until
	// cleared.
	FaultSlow FaultKind = fault.Slow
	// FaultReboot: NIC hosts only, Host.Reboot now (one-shot, so never listed as active).
	FaultReboot FaultKind = fault.Reboot
	// FaultDriverReload: NIC hosts only, Host.DriverReload now (one-shot): the driver's
	// defaults on every port, and the units bound to the netdevs run again.
	FaultDriverReload FaultKind = fault.DriverReload
)

// DefaultSlowBy is the delay FaultSlow adds when InjectFault sets it.
const DefaultSlowBy = fault.DefaultSlowBy

// StallLimit is how long a stalled operation hangs at most; it then runs as if nothing happened.
const StallLimit = fault.StallLimit

// hostFaultVerb words the refusal of a host-only fault on a switch.
var hostFaultVerb = map[FaultKind]string{FaultReboot: "reboot", FaultDriverReload: "reload a NIC driver"}

// faultTarget is what every device offers to fault injection.
type faultTarget = device.FaultTarget

// InjectFault makes device show kind (faults.md): refuse, drop, stall, reject and slow (with
// DefaultSlowBy) on every device, reboot on NIC hosts. Faults add up; ClearFaults removes them.
func (l *Lab) InjectFault(device string, kind FaultKind) error {
	d, err := l.faultTarget(device)
	if err != nil {
		return err
	}
	switch kind {
	case FaultRefuse:
		d.FaultSet().Arm(kind)
		d.CloseConns()
	case FaultDrop, FaultStall, FaultReject:
		d.FaultSet().Arm(kind)
	case FaultSlow:
		d.FaultSet().SetSlow(DefaultSlowBy)
	case FaultReboot, FaultDriverReload:
		h, ok := d.(*Host)
		if !ok {
			return fmt.Errorf("%s is a %s switch: only NIC hosts %s (switch faults: %s)",
				device, l.devices[device].Entry().Platform, hostFaultVerb[kind], fault.List(fault.Order))
		}
		if kind == FaultReboot {
			h.Reboot()
		} else {
			h.DriverReload()
		}
	default:
		return fmt.Errorf("unknown fault kind %q (kinds: %s, and %s, %s on NIC hosts)", kind, fault.List(fault.Order), FaultReboot, FaultDriverReload)
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
	d.FaultSet().SetSlow(by)
	return nil
}

// ClearFaults removes every fault of device; stalled operations go on.
func (l *Lab) ClearFaults(device string) error {
	d, err := l.faultTarget(device)
	if err != nil {
		return err
	}
	d.FaultSet().Clear()
	return nil
}

// Faults lists the faults active on device (one-shots until they fire), in the order refuse,
// drop, stall, reject, slow; nil for a device the lab does not have.
func (l *Lab) Faults(device string) []FaultKind {
	d, err := l.faultTarget(device)
	if err != nil {
		return nil
	}
	return d.FaultSet().Active()
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
