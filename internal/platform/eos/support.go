package eos

import (
	"fmt"
	"unicode/utf8"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// MaxProfileNameLen bounds policy names on EOS. The name becomes a CLI word and a part of the
// prompt (`eos-1(config-qos-profile-NAME)#`); at 32 characters the prompt still fits the
// transport's prompt pattern.
const MaxProfileNameLen = 32

// watchdogStepMs is the granularity of EOS watchdog times: seconds with two decimals.
const watchdogStepMs = 10

const reasonHeadroom = "EOS manages PFC headroom per platform (no per-port xoff/xon setting); buffer xoff_bytes and xon_bytes are supported on the sonic and nxos platforms"

// CheckSupported lists the attributes of p that the eos platform cannot express, sorted by
// attribute path: trust dscp_pcp, a per-class mtu, and a name longer than MaxProfileNameLen.
// Trust pcp, pcp lists and lossless classes are supported. ECN thresholds that are not whole
// kbytes are fabric.ECNWholeKilobytes's.
func CheckSupported(p fabric.QoSPolicy) []fabric.Unsupported {
	var out []fabric.Unsupported
	if n := utf8.RuneCountInString(p.Name); n > MaxProfileNameLen {
		out = append(out, fabric.Unsupported{Attr: []string{"name"}, Reason: fmt.Sprintf(
			"EOS names the qos profile after the policy and the name becomes part of the CLI prompt; use at most %d "+
				"characters on eos (%q has %d)", MaxProfileNameLen, p.Name, n)})
	}
	if p.Trust == fabric.TrustDSCPPCP {
		out = append(out, fabric.Unsupported{Attr: []string{"trust"}, Reason: "EOS trusts one field per port (qos trust dscp or cos) and cannot give DSCP precedence over PCP; trust = \"dscp_pcp\" is supported on the sonic platform"})
	}
	out = append(out, fabric.PerClass(p, "mtu",
		"EOS has no per-class MTU (MTU is per interface); a per-class mtu is supported on the nxos platform", fabric.HasMTU)...)
	out = append(out, strictBelowRoundRobin(p)...)
	fabric.SortUnsupported(out)
	return out
}

// strictBelowRoundRobin refuses a strict class below a round-robin one: EOS serves its
// transmit queues strict from the top down, and a queue made round-robin (`no priority`)
// makes every lower-numbered queue round-robin too, so `show qos interface` lists the strict
// queues above the round-robin ones (internal/lab/eos-switch.md, "Queues"). A strict class
// must have a higher traffic class than every class with a bandwidth share.
func strictBelowRoundRobin(p fabric.QoSPolicy) []fabric.Unsupported {
	var out []fabric.Unsupported
	for _, s := range p.ClassNames() {
		cs := p.Classes[s]
		if !cs.StrictPriority {
			continue
		}
		for _, r := range p.ClassNames() {
			cr := p.Classes[r]
			if cr.BandwidthPercent != nil && cr.TrafficClass > cs.TrafficClass {
				out = append(out, fabric.Unsupported{Attr: []string{"classes", s, "strict_priority"}, Reason: fmt.Sprintf(
					"EOS makes every queue below a round-robin queue round-robin too, so class %q (traffic class %d) "+
						"cannot stay strict under class %q (traffic class %d, bandwidth_percent); on eos give strict "+
						"classes higher traffic classes than every class with a bandwidth share", s, cs.TrafficClass, r, cr.TrafficClass)})
				break
			}
		}
	}
	return out
}

// CheckPFC lists the attributes of p that the eos platform cannot express (DESIGN section 4),
// sorted by attribute path: mode auto, any buffer setting, watchdog actions other than drop,
// watchdog times that are not whole 10 ms steps, and one watchdog time without the other.
func CheckPFC(p fabric.PFCInterface) []fabric.Unsupported {
	out := fabric.UnsupportedMode(p.Mode, map[string]string{
		fabric.PFCModeAuto: "EOS has no DCBX-negotiated PFC mode; mode = \"auto\" is supported on the nxos platform",
	})
	if b := p.Buffer; b != nil {
		out = append(out, bufferUnsupported(*b)...)
	}
	if w := p.Watchdog; w != nil {
		out = append(out, watchdogUnsupported(*w)...)
	}
	fabric.SortUnsupported(out)
	return out
}

func bufferUnsupported(b fabric.PFCBuffer) []fabric.Unsupported {
	var out []fabric.Unsupported
	if b.XoffBytes != nil {
		out = append(out, fabric.Unsupported{Attr: []string{"buffer", "xoff_bytes"}, Reason: reasonHeadroom})
	}
	if b.XonBytes != nil {
		out = append(out, fabric.Unsupported{Attr: []string{"buffer", "xon_bytes"}, Reason: reasonHeadroom})
	}
	if b.CableLengthM != nil {
		out = append(out, fabric.Unsupported{Attr: []string{"buffer", "cable_length_m"}, Reason: "EOS has no cable-length setting (PFC headroom is managed per platform); buffer.cable_length_m is supported on the sonic platform only"})
	}
	if len(out) == 0 { // an empty buffer block still asks for something EOS does not have
		out = append(out, fabric.Unsupported{Attr: []string{"buffer"}, Reason: reasonHeadroom})
	}
	return out
}

func watchdogUnsupported(w fabric.PFCWatchdog) []fabric.Unsupported {
	var out []fabric.Unsupported
	if w.Action == fabric.WatchdogForward || w.Action == fabric.WatchdogAlert {
		out = append(out, fabric.Unsupported{Attr: []string{"watchdog", "action"}, Reason: "EOS has no forward or alert watchdog action (on EOS the watchdog drops the stuck priority's traffic: action = \"drop\"); forward and alert are supported on the sonic platform only"})
	}
	times := []struct {
		attr string
		ms   int
	}{{"detection_time_ms", w.DetectionTimeMs}, {"restoration_time_ms", w.RestorationTimeMs}}
	for _, t := range times {
		if t.ms%watchdogStepMs != 0 {
			out = append(out, fabric.Unsupported{Attr: []string{"watchdog", t.attr}, Reason: stepReason(t.ms)})
		}
	}
	if (w.DetectionTimeMs == 0) != (w.RestorationTimeMs == 0) {
		missing := times[0].attr
		if w.RestorationTimeMs == 0 {
			missing = times[1].attr
		}
		out = append(out, fabric.Unsupported{Attr: []string{"watchdog", missing}, Reason: "EOS sets the watchdog timeout and recovery time in one line (priority-flow-control pause watchdog port timer); set detection_time_ms and restoration_time_ms together, or neither"})
	}
	return out
}

// stepReason names the granularity and the two nearest multiples of 10 ms, as WholeKilobytes
// does for kbytes.
func stepReason(ms int) string {
	lower := ms - ((ms%watchdogStepMs)+watchdogStepMs)%watchdogStepMs
	options := fmt.Sprintf("%d", lower+watchdogStepMs)
	if lower > 0 {
		options = fmt.Sprintf("%d or %d", lower, lower+watchdogStepMs)
	}
	return fmt.Sprintf("EOS sets watchdog times in seconds with two decimals (steps of %d ms) and this provider never "+
		"rounds: %d ms is not a multiple of %d ms; use %s", watchdogStepMs, ms, watchdogStepMs, options)
}
