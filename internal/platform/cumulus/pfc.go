package cumulus

import (
	"fmt"

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

// WritePFC returns the ops that make port's PFC settings next: the watchdog state. next nil is
// the resource's delete: the watchdog goes back to prior (WatchdogState before the resource;
// "" means unset, so the key is deleted where the switch has it).
func (t *Tree) WritePFC(port string, next *fabric.PFCInterface, prior string) []Op {
	at := path("interface", port, "qos", "pfc-watchdog")
	switch {
	case next != nil && next.Watchdog != nil:
		return []Op{{Method: Patch, Path: at, Body: State{enable}}}
	case next != nil:
		return []Op{{Method: Patch, Path: at, Body: State{disable}}}
	case prior != "":
		return []Op{{Method: Patch, Path: at, Body: State{prior}}}
	case t.WatchdogState(port) != "":
		return []Op{{Method: Delete, Path: at}}
	}
	return nil
}

// CheckPFCAgainst refuses, before anything is sent, a watchdog on a port that binds no PFC
// profile with a switch priority: NVUE accepts the watchdog only on a port with PFC ("You can
// only configure PFC watchdog on a port with PFC (or link pause) configuration", Quality of
// Service). The error is fabric.NeedsLossless, so the write waits for the policy Terraform
// applies beside it.
func (t *Tree) CheckPFCAgainst(next fabric.PFCInterface) error {
	if next.Watchdog != nil && t.PFC(next.Interface).Mode != fabric.PFCModeOn {
		return fabric.NeedsLossless{Reason: fmt.Sprintf("cumulus: the PFC watchdog on %s needs PFC on the port, but it binds no "+
			"PFC profile with a switch priority: bind it to a roce_qos_policy with a lossless class first", next.Interface)}
	}
	return nil
}

// WatchdogState is port's qos pfc-watchdog state in t, "" when the switch has none configured.
func (t *Tree) WatchdogState(port string) string {
	i := t.Interface[port]
	if i.QoS == nil || i.QoS.PFCWatchdog == nil {
		return ""
	}
	return i.QoS.PFCWatchdog.State
}
