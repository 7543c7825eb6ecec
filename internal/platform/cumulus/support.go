package cumulus

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// profileName is what this provider writes as an NVUE profile name. NVUE's OpenAPI gives the
// format only as "profile-name" without its pattern; letters, digits, '-' and '_' (1-63) are
// what every NVIDIA example uses (assumed, the narrowest safe set).
var profileName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$`)

// portName is a Cumulus switch port: swp<N>, or a breakout swp<N>s<M>. QoS profiles bind to
// physical ports (swp); NVUE refuses QoS on bond members and the watchdog on bonds.
var portName = regexp.MustCompile(`^swp[0-9]{1,4}(s[0-9]{1,2})?$`)

// ValidPort reports whether name is a Cumulus switch port name (swp<N> or swp<N>s<M>).
func ValidPort(name string) bool { return portName.MatchString(name) }

// CheckSupported lists what the cumulus platform cannot express of p, sorted by attribute.
func CheckSupported(p fabric.QoSPolicy) []fabric.Unsupported {
	var out []fabric.Unsupported
	if p.Name != "" && !profileName.MatchString(p.Name) {
		out = append(out, fabric.Unsupported{Attr: []string{"name"}, Reason: fmt.Sprintf(
			"NVUE names the policy's profiles after it (qos mapping %s); use 1-63 letters, digits, '-' and '_' on cumulus", p.Name)})
	}
	out = append(out, fabric.PerClass(p, "mtu",
		"NVUE has no per-class MTU (MTU is per interface, interface <swp> link mtu); a per-class mtu is supported on the nxos platform", fabric.HasMTU)...)
	for _, port := range p.Interfaces {
		if !portName.MatchString(port) {
			out = append(out, fabric.Unsupported{Attr: []string{"interfaces"}, Reason: fmt.Sprintf(
				"%q is not a Cumulus switch port; NVUE binds QoS profiles to swp<N> or swp<N>s<M> ports", port)})
		}
	}
	fabric.SortUnsupported(out)
	return out
}

// CheckPFC lists what the cumulus platform cannot express of p.
func CheckPFC(p fabric.PFCInterface) []fabric.Unsupported {
	var out []fabric.Unsupported
	if p.Interface != "" && !portName.MatchString(p.Interface) {
		out = append(out, fabric.Unsupported{Attr: []string{"interface"}, Reason: fmt.Sprintf(
			"%q is not a Cumulus switch port; NVUE's PFC watchdog runs on swp<N> or swp<N>s<M> ports only", p.Interface)})
	}
	out = append(out, fabric.UnsupportedMode(p.Mode, map[string]string{
		fabric.PFCModeOff:  "NVUE has PFC where the port binds a PFC profile, which its roce_qos_policy owns (the lossless classes): to turn PFC off, unbind the port from the policy or make its classes lossy. mode = \"off\" is supported on the eos and nxos platforms",
		fabric.PFCModeAuto: "Cumulus Linux has no DCBX PFC negotiation in NVUE; mode = \"auto\" is supported on the nxos platform",
	})...)
	if p.LinkPause {
		out = append(out, fabric.Unsupported{Attr: []string{"link_pause"}, Reason: "this provider does not bind NVUE link-pause profiles (NVUE refuses link pause and PFC on one port); link_pause is supported on the eos and nxos platforms"})
	}
	if p.Buffer != nil {
		out = append(out, fabric.Unsupported{Attr: []string{"buffer"}, Reason: "NVUE keeps xoff, xon and cable length in the PFC profile the port binds, which its roce_qos_policy owns and shares across its ports; leave buffer unset on cumulus"})
	}
	if w := p.Watchdog; w != nil {
		if w.Action != fabric.WatchdogDrop {
			out = append(out, fabric.Unsupported{Attr: []string{"watchdog", "action"}, Reason: "NVUE's PFC watchdog drops: it stops honouring pause frames on the stormed traffic class and discards new packets to that queue; set action = \"drop\" on cumulus"})
		}
		for _, f := range []struct {
			attr string
			set  bool
		}{{"detection_time_ms", w.DetectionTimeMs != 0}, {"restoration_time_ms", w.RestorationTimeMs != 0}} {
			if f.set {
				out = append(out, fabric.Unsupported{Attr: []string{"watchdog", f.attr}, Reason: "NVUE's PFC watchdog timers are switch-wide (qos pfc-watchdog polling-interval and robustness), and restoration follows the first polling interval without pause frames; leave the times unset on cumulus"})
			}
		}
	}
	fabric.SortUnsupported(out)
	return slices.Clip(out)
}
