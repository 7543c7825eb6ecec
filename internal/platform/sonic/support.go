package sonic

import (
	"fmt"
	"regexp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// objectName is the pattern sonic-yang-models gives QoS map and WRED_PROFILE names
// (sonic-dscp-tc-map, sonic-tc-priority-group-map, sonic-wred-profile, ...): 1-32 characters.
var objectName = regexp.MustCompile(`^[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}$`)

const reasonWatchdogTimes = "SONiC's PFC_WD|<port> takes detection_time and restoration_time with the action; set both"

// CheckSupported lists the attributes of p that the sonic platform cannot express, sorted by
// attribute path: a per-class mtu, and names whose CONFIG_DB objects would break the
// sonic-yang-models name rules (maps <name>, WRED_PROFILE <name>-<class>: letters, digits,
// '-' and '_', at most 32 characters). Trust pcp and dscp_pcp (DOT1P_TO_TC_MAP) and lossless
// classes are supported. An empty result means BuildSet can write p.
func CheckSupported(p fabric.QoSPolicy) []fabric.Unsupported {
	var out []fabric.Unsupported
	if p.Name != "" && !objectName.MatchString(p.Name) {
		out = append(out, fabric.Unsupported{Attr: []string{"name"}, Reason: fmt.Sprintf(
			"SONiC names its QoS maps after the policy (DSCP_TO_TC_MAP|%s), and sonic-yang-models allows map names of 1-32 "+
				"letters, digits, '-' and '_' only; use such a name on sonic", p.Name)})
	}
	for _, name := range p.ClassNames() {
		c := p.Classes[name]
		if c.MTU != nil {
			out = append(out, fabric.Unsupported{Attr: []string{"classes", name, "mtu"}, Reason: "SONiC has no per-class MTU (MTU is per port, PORT|<port>.mtu); a per-class mtu is supported on the nxos platform"})
		}
		if c.ECN != nil && objectName.MatchString(p.Name) && !objectName.MatchString(objName(p.Name, name)) {
			out = append(out, fabric.Unsupported{Attr: []string{"classes", name}, Reason: fmt.Sprintf(
				"on sonic the ECN class's WRED profile is named WRED_PROFILE|%s, and sonic-yang-models allows 1-32 letters, "+
					"digits, '-' and '_' only; shorten the policy or class name", objName(p.Name, name))})
		}
	}
	return out
}

// CheckPFC lists the attributes of p that the sonic platform cannot express (DESIGN section
// 4): mode off and auto, link_pause true, and one of xoff_bytes/xon_bytes without the other.
// Watchdog actions drop, forward and alert are all supported.
func CheckPFC(p fabric.PFCInterface) []fabric.Unsupported {
	out := fabric.UnsupportedMode(p.Mode, map[string]string{
		fabric.PFCModeOff:  "SONiC has no PFC switch apart from the no-drop set: PORT_QOS_MAP|<port>.pfc_enable belongs to the bound roce_qos_policy; to turn PFC off, unbind the port from the policy or make its classes lossy. mode = \"off\" is supported on the eos and nxos platforms",
		fabric.PFCModeAuto: "SONiC has no DCBX negotiation; mode = \"auto\" is supported on the nxos platform",
	})
	if p.LinkPause {
		out = append(out, fabric.Unsupported{Attr: []string{"link_pause"}, Reason: "SONiC CONFIG_DB has no 802.3x pause setting (only false can be read back); link_pause is supported on the eos and nxos platforms"})
	}
	if b := p.Buffer; b != nil && (b.XoffBytes == nil) != (b.XonBytes == nil) {
		missing := "xon_bytes"
		if b.XoffBytes == nil {
			missing = "xoff_bytes"
		}
		out = append(out, fabric.Unsupported{Attr: []string{"buffer", missing}, Reason: "SONiC BUFFER_PROFILE takes xon and xoff together (size = xoff + xon); set both xoff_bytes and xon_bytes, or neither"})
	}
	if w := p.Watchdog; w != nil {
		if w.DetectionTimeMs == 0 {
			out = append(out, fabric.Unsupported{Attr: []string{"watchdog", "detection_time_ms"}, Reason: reasonWatchdogTimes})
		}
		if w.RestorationTimeMs == 0 {
			out = append(out, fabric.Unsupported{Attr: []string{"watchdog", "restoration_time_ms"}, Reason: reasonWatchdogTimes})
		}
	}
	return out
}

// objName is the name of a per-class object: SCHEDULER and WRED_PROFILE <policy>-<class>.
func objName(policy, class string) string { return policy + "-" + class }
