package fabric

import "fmt"

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
func (p PFCInterface) Validate() Problems { return all(p) }

func (p PFCInterface) check(c checks) {
	c.str(Root("interface"), PortNameRule, p.Interface)
	c.str(Root("mode"), PFCModeRule, p.Mode)
	if p.LinkPause && p.Mode == PFCModeOn {
		c.add(Root("link_pause"), "link_pause enabled together with PFC",
			"802.3x link-level pause stops every priority of the port and cannot run with PFC (802.1Qbb), which pauses "+
				"only the no-drop priorities. Set link_pause = false, or set mode = \"off\".")
	}
	if p.Buffer != nil {
		validateBuffer(c, *p.Buffer)
	}
	if p.Watchdog != nil {
		validateWatchdog(c, *p.Watchdog)
	}
}

func validateBuffer(c checks, b PFCBuffer) {
	at := Root("buffer")
	if b.XoffBytes != nil {
		c.int(at.Attr("xoff_bytes"), XoffRule, *b.XoffBytes)
	}
	if b.XonBytes != nil {
		c.int(at.Attr("xon_bytes"), XonRule, *b.XonBytes)
	}
	if b.XoffBytes != nil && b.XonBytes != nil && *b.XonBytes >= *b.XoffBytes {
		c.add(at.Attr("xon_bytes"), fmt.Sprintf("xon_bytes %d is not below xoff_bytes %d", *b.XonBytes, *b.XoffBytes),
			"The port pauses the priority above xoff and resumes it below xon; with xon at or above xoff it would "+
				"resume at once and oscillate. Set xon_bytes below xoff_bytes (e.g. half of it).")
	}
	if b.CableLengthM != nil {
		c.int(at.Attr("cable_length_m"), CableLengthRule, int64(*b.CableLengthM))
	}
}

func validateWatchdog(c checks, w PFCWatchdog) {
	at := Root("watchdog")
	c.str(at.Attr("action"), WatchdogActionRule, w.Action)
	// 0 is "not set": the times are optional (NX-OS's are system-wide); platforms that need
	// them (SONiC PFC_WD) refuse their absence.
	if w.DetectionTimeMs != 0 {
		c.int(at.Attr("detection_time_ms"), DetectionTimeRule, int64(w.DetectionTimeMs))
	}
	if w.RestorationTimeMs != 0 {
		c.int(at.Attr("restoration_time_ms"), RestorationTimeRule, int64(w.RestorationTimeMs))
	}
}
