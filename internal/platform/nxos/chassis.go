package nxos

// Switch families. The provider renders the Nexus 9000 cloud-scale QoS model: 8-queue classes
// (c-8q-nq3, c-out-8q-q3), `pause pfc-cos` in network-qos and ECN on the queuing policy (the
// Azure Local reference configuration). A Nexus 3000 (3100, 3200, 3048/3064) configures PFC
// as `pause no-drop` and ECN and WRED in its network-qos policy instead ("Network QoS policies
// include configuring maximum transmission unit (MTU), pause no-drop, and queue-limit. It is
// also used to configure explicit congestion notification (ECN) and weighted random early
// detection (WRED)": Cisco Nexus 3000 Series NX-OS Quality of Service Configuration Guide,
// 7.x), which this provider does not render; it refuses such a switch before writing.
// `show version` names the chassis: "cisco Nexus9000 C93180YC-FX Chassis", "cisco Nexus3000
// C3232C Chassis (Nexus 9000 Series)" (networktocode/ntc-templates
// tests/cisco_nxos/show_version), "cisco Nexus 3048 Chassis" (older images; napalm's nxos_ssh
// fixtures).

import (
	"fmt"
	"regexp"
	"strings"
)

var reChassis = regexp.MustCompile(`(?m)^\s*cisco (Nexus ?\d+[^\n]*?) Chassis`)

// Chassis is the chassis `show version` names ("Nexus9000 C93180YC-FX"), "" when it names none.
func Chassis(showVersion string) string {
	if m := reChassis.FindStringSubmatch(showVersion); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}

// CheckChassis refuses a Nexus 3000 by its chassis (from show version) or its configured model
// (N3K-...), whichever is known; "" for both passes.
func CheckChassis(chassis, model string) error {
	n3k := strings.HasPrefix(chassis, "Nexus3") || strings.HasPrefix(chassis, "Nexus 3") || strings.HasPrefix(model, "N3K-")
	if !n3k {
		return nil
	}
	what := chassis
	if what == "" {
		what = model
	}
	return fmt.Errorf("%s is a Nexus 3000, whose QoS model differs (PFC as `pause no-drop`, ECN and WRED in the "+
		"network-qos policy, per Cisco's Nexus 3000 QoS configuration guide); the provider renders the Nexus 9000 "+
		"8-queue model (c-8q-nq classes, pause pfc-cos, ECN on the queuing policy) and does not configure Nexus 3000 "+
		"switches", what)
}
