package nxos

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// MaxObjectNameLen bounds NX-OS class-map and policy-map names.
const MaxObjectNameLen = 40

// NX-OS network-qos class MTU range this provider writes (the contract's range).
const (
	minMTU = 1500
	maxMTU = 9216
)

// maxPriorityLevel is the highest `priority level` of an NX-OS queuing class.
const maxPriorityLevel = 7

// Names of the objects the platform creates (DESIGN section 3).
const (
	suffixNetworkQoS = "-nq"
	suffixQueuing    = "-out"
	prefixIngress    = "roce-in-"
)

// ClassMapName is the class-map of class in policy: <policy>-<class>.
func ClassMapName(policy, class string) string { return policy + "-" + class }

// NetworkQoSName is the network-qos policy-map of policy: <policy>-nq.
func NetworkQoSName(policy string) string { return policy + suffixNetworkQoS }

// QueuingName is the egress queuing policy-map of policy: <policy>-out.
func QueuingName(policy string) string { return policy + suffixQueuing }

// IngressName is the ingress queuing policy-map roce_pfc_interface creates on port for its
// buffer: roce-in-<port> with "/" replaced by "_" (roce-in-Ethernet1_1).
func IngressName(port string) string { return prefixIngress + strings.ReplaceAll(port, "/", "_") }

const reasonTimers = "NX-OS watchdog timers are system-wide (interval x multipliers); leave detection_time_ms and restoration_time_ms null"

// CheckSupported lists the attributes of p that the nxos platform cannot express, sorted by
// attribute path: trust dscp_pcp, an mtu outside 1500-9216, more strict classes than NX-OS
// has priority levels, and names whose NX-OS objects (<name>, <name>-<class>, <name>-nq,
// <name>-out) would exceed MaxObjectNameLen. ECN thresholds that are not whole kbytes are
// fabric.ECNWholeKilobytes's.
func CheckSupported(p fabric.QoSPolicy) []fabric.Unsupported {
	var out []fabric.Unsupported
	nameOK := true
	if n := utf8.RuneCountInString(QueuingName(p.Name)); n > MaxObjectNameLen {
		nameOK = false
		out = append(out, fabric.Unsupported{Attr: []string{"name"}, Reason: fmt.Sprintf(
			"NX-OS names the policy-maps %s, %s and %s, and policy-map names have at most %d characters; use at most "+
				"%d characters on nxos (%q has %d)", p.Name, NetworkQoSName(p.Name), QueuingName(p.Name), MaxObjectNameLen,
			MaxObjectNameLen-len(suffixQueuing), p.Name, utf8.RuneCountInString(p.Name))})
	}
	if p.Trust == fabric.TrustDSCPPCP {
		out = append(out, fabric.Unsupported{Attr: []string{"trust"}, Reason: "NX-OS class-maps cannot give DSCP precedence over CoS (a match-any class-map takes either field, in policy order); trust = \"dscp_pcp\" is supported on the sonic platform"})
	}
	levels := priorityLevels(p)
	for _, tc := range strictTCs(p) {
		name, _, _ := p.ClassByTC(tc)
		if levels[tc] > maxPriorityLevel {
			most := maxPriorityLevel
			if levels[strictTCs(p)[0]] == 2 {
				most-- // level 1 is the control queue's
			}
			out = append(out, fabric.Unsupported{Attr: []string{"classes", name, "strict_priority"}, Reason: fmt.Sprintf(
				"NX-OS queuing has priority levels 1-%d, one per strict queue (level 1 is the control queue 7's while no class "+
					"uses traffic class 7); make at most %d classes strict", maxPriorityLevel, most)})
		}
	}
	for _, name := range p.ClassNames() {
		c := p.Classes[name]
		if cm := ClassMapName(p.Name, name); nameOK && utf8.RuneCountInString(cm) > MaxObjectNameLen {
			out = append(out, fabric.Unsupported{Attr: []string{"classes", name}, Reason: fmt.Sprintf(
				"NX-OS names the class's class-map %s, and class-map names have at most %d characters; shorten the "+
					"policy or class name", cm, MaxObjectNameLen)})
		}
		if c.MTU != nil && (*c.MTU < minMTU || *c.MTU > maxMTU) {
			out = append(out, fabric.Unsupported{Attr: []string{"classes", name, "mtu"}, Reason: fmt.Sprintf(
				"this provider sets NX-OS network-qos class mtu from %d to %d bytes (%d given)", minMTU, maxMTU, *c.MTU)})
		}
	}
	fabric.SortUnsupported(out)
	return out
}

// The range of `pause buffer-size` and of its thresholds: NX-OS's own object model (the DME
// class ipqosPause: bufferSize 5000..268435456, pauseThreshold "Xoff bytes" and resumeThreshold
// "Xon bytes" 0..268435456; CiscoDevNet/terraform-provider-nxos gen/definitions/network_qos.yaml
// at 43d0c254). A model's hardware may want more (a figure of 27456 for the 93180YC-EX circulates
// without a Cisco source), which the switch then refuses at apply, and nothing is changed.
const (
	MinPauseBufferBytes = 5000
	MaxPauseBytes       = 268435456
)

// CheckPFC lists the attributes of p that the nxos platform cannot express (DESIGN section 4),
// sorted by attribute path: cable_length_m, one of xoff_bytes/xon_bytes without the other, a
// port whose ingress policy-map name would be too long, watchdog actions other than drop and
// any watchdog time. Modes on, off and auto and link_pause are supported.
func CheckPFC(p fabric.PFCInterface) []fabric.Unsupported {
	var out []fabric.Unsupported
	if b := p.Buffer; b != nil {
		if b.CableLengthM != nil {
			out = append(out, fabric.Unsupported{Attr: []string{"buffer", "cable_length_m"}, Reason: "NX-OS has no cable-length setting (set the headroom with xoff_bytes and xon_bytes); buffer.cable_length_m is supported on the sonic platform only"})
		}
		if (b.XoffBytes == nil) != (b.XonBytes == nil) {
			missing := "xon_bytes"
			if b.XoffBytes == nil {
				missing = "xoff_bytes"
			}
			out = append(out, fabric.Unsupported{Attr: []string{"buffer", missing}, Reason: "NX-OS sets the pause thresholds in one line (pause buffer-size <xoff+xon> pause-threshold <xoff> resume-threshold <xon>); set both xoff_bytes and xon_bytes, or neither"})
		}
		if b.XoffBytes != nil && b.XonBytes != nil {
			if size := *b.XoffBytes + *b.XonBytes; size < MinPauseBufferBytes || size > MaxPauseBytes {
				out = append(out, fabric.Unsupported{Attr: []string{"buffer"}, Reason: fmt.Sprintf(
					"NX-OS's pause buffer-size (xoff_bytes + xon_bytes = %d) takes %d to %d bytes", size, MinPauseBufferBytes, MaxPauseBytes)})
			}
		}
		if n := IngressName(p.Interface); b.XoffBytes != nil && utf8.RuneCountInString(n) > MaxObjectNameLen {
			out = append(out, fabric.Unsupported{Attr: []string{"buffer"}, Reason: fmt.Sprintf(
				"NX-OS sets the port's headroom in policy-map %s, and policy-map names have at most %d characters", n, MaxObjectNameLen)})
		}
	}
	if w := p.Watchdog; w != nil {
		if w.Action == fabric.WatchdogForward || w.Action == fabric.WatchdogAlert {
			out = append(out, fabric.Unsupported{Attr: []string{"watchdog", "action"}, Reason: "NX-OS has no forward or alert watchdog action (the PFC watchdog drops the stuck priority's traffic: action = \"drop\"); forward and alert are supported on the sonic platform only"})
		}
		if w.DetectionTimeMs != 0 {
			out = append(out, fabric.Unsupported{Attr: []string{"watchdog", "detection_time_ms"}, Reason: reasonTimers})
		}
		if w.RestorationTimeMs != 0 {
			out = append(out, fabric.Unsupported{Attr: []string{"watchdog", "restoration_time_ms"}, Reason: reasonTimers})
		}
	}
	fabric.SortUnsupported(out)
	return out
}

// controlTC is the traffic class of NX-OS's control-plane queue: default-8q-out-policy serves
// c-out-8q-q7 at `priority level 1`, above every other queue. A policy without a class for it
// keeps it so (queuingLines), and its strict classes take the levels below (2, 3, ...).
const controlTC = 7

// priorityLevels maps each strict class's traffic class to its `priority level`: 1, 2, ... from
// the highest traffic class down, after the control queue's level 1 when no class uses TC 7.
func priorityLevels(p fabric.QoSPolicy) map[int]int {
	first := 1
	if _, _, ok := p.ClassByTC(controlTC); !ok {
		first = 2
	}
	levels := map[int]int{}
	for i, tc := range strictTCs(p) {
		levels[tc] = first + i
	}
	return levels
}

// strictTCs lists the traffic classes of p's strict classes, highest first: the order of
// `priority level` 1, 2, ...
func strictTCs(p fabric.QoSPolicy) []int {
	var out []int
	for tc := 7; tc >= 0; tc-- {
		if _, c, ok := p.ClassByTC(tc); ok && c.StrictPriority {
			out = append(out, tc)
		}
	}
	return out
}
