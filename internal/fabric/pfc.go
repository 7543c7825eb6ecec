package fabric

import (
	"fmt"
	"unicode/utf8"
)

// PFC modes of roce_pfc_interface.
const (
	PFCModeOn   = "on"
	PFCModeOff  = "off"
	PFCModeAuto = "auto" // DCBX-negotiated where the platform supports it
)

// PFC watchdog actions. drop is supported everywhere; forward and alert on SONiC only (the
// platform packages refuse them elsewhere).
const (
	WatchdogDrop    = "drop"
	WatchdogForward = "forward"
	WatchdogAlert   = "alert"
)

// Limits of roce_pfc_interface (domain section 2: SONiC PFC_WD and Dell ranges).
const (
	MinWatchdogDetectionMs   = 100
	MaxWatchdogDetectionMs   = 5000
	MinWatchdogRestorationMs = 100
	MaxWatchdogRestorationMs = 60000
	// MaxCableLengthM bounds cable_length_m at 100 km: far beyond any data-centre link, it only
	// catches typos (a length in centimetres, a stray digit) before a headroom calculation.
	MaxCableLengthM = 100000
)

// PFCInterface is PFC operation on one switch port (roce_pfc_interface). The no-drop
// priorities come from the lossless classes of the policy bound to the port.
type PFCInterface struct {
	Interface string
	Mode      string // on | off | auto
	// LinkPause is 802.3x link-level pause; it must be off while PFC is on.
	LinkPause bool
	Buffer    *PFCBuffer   // nil: unmanaged
	Watchdog  *PFCWatchdog // nil: unmanaged
}

// PFCBuffer is the port's PFC headroom. Each field is optional (nil: unmanaged).
type PFCBuffer struct {
	XoffBytes    *int64
	XonBytes     *int64
	CableLengthM *int
}

// PFCWatchdog detects a priority stuck in pause (a PFC storm or deadlock) and restores it.
type PFCWatchdog struct {
	Action            string // drop | forward | alert
	DetectionTimeMs   int    // 0: not set
	RestorationTimeMs int    // 0: not set
}

// Validate checks p against every rule of roce_pfc_interface and returns all problems found,
// each at the attribute at fault. The mode default (on) must be filled in before.
func (p PFCInterface) Validate() Problems {
	var ps Problems
	checkPortName(&ps, p.Interface)
	switch p.Mode {
	case PFCModeOn, PFCModeOff, PFCModeAuto:
	default:
		ps.Add(Root("mode"), fmt.Sprintf("Invalid PFC mode %q", p.Mode),
			"Set mode to on, off or auto (the default is on; auto follows DCBX negotiation where the platform supports it).")
	}
	if p.LinkPause && p.Mode == PFCModeOn {
		ps.Add(Root("link_pause"), "link_pause enabled together with PFC",
			"802.3x link-level pause stops every priority of the port and cannot run with PFC (802.1Qbb), which pauses "+
				"only the no-drop priorities. Set link_pause = false, or set mode = \"off\".")
	}
	if p.Buffer != nil {
		validateBuffer(&ps, *p.Buffer)
	}
	if p.Watchdog != nil {
		validateWatchdog(&ps, *p.Watchdog)
	}
	return ps
}

func checkPortName(ps *Problems, name string) {
	at := Root("interface")
	switch {
	case name == "":
		ps.Add(at, "Empty interface name", "Name the switch port, e.g. \"Ethernet1\".")
	case utf8.RuneCountInString(name) > MaxInterfaceNameLen:
		ps.Add(at, fmt.Sprintf("Interface name longer than %d characters", MaxInterfaceNameLen),
			fmt.Sprintf("%q is not a port name; use the device's port name (at most %d characters).", name, MaxInterfaceNameLen))
	case !interfacePattern.MatchString(name):
		ps.Add(at, fmt.Sprintf("Invalid interface name %q", name),
			fmt.Sprintf("Interface names end up in CLI lines and device paths; use only %s, e.g. \"Ethernet1/1\".", interfaceChars))
	}
}

func validateBuffer(ps *Problems, b PFCBuffer) {
	at := Root("buffer")
	if b.XoffBytes != nil && *b.XoffBytes < 1 {
		ps.Add(at.Attr("xoff_bytes"), fmt.Sprintf("xoff_bytes %d is below 1", *b.XoffBytes),
			"Set xoff_bytes to the headroom in bytes at which the port sends PAUSE upstream (e.g. 122880), or leave it unset.")
	}
	if b.XonBytes != nil && *b.XonBytes < 0 {
		ps.Add(at.Attr("xon_bytes"), fmt.Sprintf("xon_bytes %d is negative", *b.XonBytes),
			"Set xon_bytes to the buffer level in bytes at which the port resumes the priority (e.g. 61440), or leave it unset.")
	}
	if b.XoffBytes != nil && b.XonBytes != nil && *b.XonBytes >= *b.XoffBytes {
		ps.Add(at.Attr("xon_bytes"), fmt.Sprintf("xon_bytes %d is not below xoff_bytes %d", *b.XonBytes, *b.XoffBytes),
			"The port pauses the priority above xoff and resumes it below xon; with xon at or above xoff it would "+
				"resume at once and oscillate. Set xon_bytes below xoff_bytes (e.g. half of it).")
	}
	if b.CableLengthM != nil {
		checkRange(ps, at.Attr("cable_length_m"), "cable_length_m", *b.CableLengthM, 1, MaxCableLengthM,
			fmt.Sprintf("Set cable_length_m to the port's cable length in metres (1-%d), e.g. 40; headroom grows with it.", MaxCableLengthM))
	}
}

func validateWatchdog(ps *Problems, w PFCWatchdog) {
	at := Root("watchdog")
	switch w.Action {
	case WatchdogDrop, WatchdogForward, WatchdogAlert:
	default:
		ps.Add(at.Attr("action"), fmt.Sprintf("Invalid watchdog action %q", w.Action),
			"Set action to drop (supported everywhere), forward or alert (SONiC only).")
	}
	// 0 is "not set": the times are optional (NX-OS's are system-wide); platforms that need
	// them (SONiC PFC_WD) refuse their absence.
	if w.DetectionTimeMs != 0 {
		checkRange(ps, at.Attr("detection_time_ms"), "detection_time_ms", w.DetectionTimeMs,
			MinWatchdogDetectionMs, MaxWatchdogDetectionMs,
			fmt.Sprintf("Set detection_time_ms to %d-%d ms, at least the device's watchdog poll interval (e.g. 200).",
				MinWatchdogDetectionMs, MaxWatchdogDetectionMs))
	}
	if w.RestorationTimeMs != 0 {
		checkRange(ps, at.Attr("restoration_time_ms"), "restoration_time_ms", w.RestorationTimeMs,
			MinWatchdogRestorationMs, MaxWatchdogRestorationMs,
			fmt.Sprintf("Set restoration_time_ms to %d-%d ms (e.g. 400).", MinWatchdogRestorationMs, MaxWatchdogRestorationMs))
	}
}
