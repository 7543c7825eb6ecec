package cumulus

import (
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// PFC reads roce_pfc_interface on port. A port the applied configuration does not list (NVUE's
// applied tree without defaults holds only configured ports) reads mode off. mode is on when the port binds a PFC profile with a switch priority; link_pause false (the
// resource never binds a link-pause profile) and buffer nil (the PFC profile's, the policy's);
// watchdog is the port's qos pfc-watchdog state: enabled reads action drop (what NVUE's
// watchdog does: "discards new incoming packets to this egress queue"), without times (NVUE's
// timers are switch-wide).
func (t *Tree) PFC(port string) *fabric.PFCInterface {
	i := t.Interface[port]
	p := &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOff}
	if i.QoS == nil {
		return p
	}
	if b := i.QoS.PFC; b != nil {
		if prof := t.QoS.PFC[b.Profile]; prof != nil && len(prof.SwitchPriority) > 0 {
			p.Mode = fabric.PFCModeOn
		}
	}
	if w := i.QoS.PFCWatchdog; w != nil && enabled(w.State) {
		p.Watchdog = &fabric.PFCWatchdog{Action: fabric.WatchdogDrop}
	}
	return p
}

// WritePFC returns the ops that make port's PFC settings p: the watchdog state. next nil is
// the resource's delete: the watchdog goes back to what it was (wasOn).
func WritePFC(port string, next *fabric.PFCInterface, wasOn bool) []Op {
	on := wasOn
	if next != nil {
		on = next.Watchdog != nil
	}
	at := path("interface", port, "qos", "pfc-watchdog")
	if on {
		return []Op{{Method: Patch, Path: at, Body: State{enable}}}
	}
	return []Op{{Method: Patch, Path: at, Body: State{disable}}}
}

// WatchdogOn reports whether port's PFC watchdog is enabled in t (the value a delete restores).
func (t *Tree) WatchdogOn(port string) bool {
	i := t.Interface[port]
	return i.QoS != nil && i.QoS.PFCWatchdog != nil && enabled(i.QoS.PFCWatchdog.State)
}
