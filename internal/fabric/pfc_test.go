package fabric

import (
	"strings"
	"testing"
)

// contractPFC is the roce_pfc_interface example of the contract.
func contractPFC() PFCInterface {
	return PFCInterface{
		Interface: "Ethernet1", Mode: PFCModeOn,
		Buffer:   &PFCBuffer{XoffBytes: Ptr[int64](122880), XonBytes: Ptr[int64](61440), CableLengthM: Ptr(40)},
		Watchdog: &PFCWatchdog{Action: WatchdogDrop, DetectionTimeMs: 200, RestorationTimeMs: 400},
	}
}

func TestValidatePFCRules(t *testing.T) {
	checkRules(t, contractPFC, []ruleCase[PFCInterface]{
		{"contract example", func(*PFCInterface) {}, "", ""},
		{"no buffer, no watchdog", func(p *PFCInterface) { p.Buffer, p.Watchdog = nil, nil }, "", ""},
		{"empty buffer", func(p *PFCInterface) { p.Buffer = &PFCBuffer{} }, "", ""},
		{"nxos port name", func(p *PFCInterface) { p.Interface = "Ethernet1/1" }, "", ""},
		{"interface empty", func(p *PFCInterface) { p.Interface = "" }, "interface", "Empty"},
		{"interface too long", func(p *PFCInterface) { p.Interface = strings.Repeat("e", 65) }, "interface", "longer than 64"},
		{"interface with blank", func(p *PFCInterface) { p.Interface = "Ethernet 1" }, "interface", "Invalid interface"},
		{"interface with semicolon", func(p *PFCInterface) { p.Interface = "E1;reload" }, "interface", "Invalid interface"},
		// mode
		{"mode off", func(p *PFCInterface) { p.Mode = PFCModeOff }, "", ""},
		{"mode auto", func(p *PFCInterface) { p.Mode = PFCModeAuto }, "", ""},
		{"mode empty", func(p *PFCInterface) { p.Mode = "" }, "mode", "Invalid PFC mode"},
		{"mode upper case", func(p *PFCInterface) { p.Mode = "ON" }, "mode", "Invalid PFC mode"},
		// link pause
		{"link pause with mode off", func(p *PFCInterface) { p.Mode, p.LinkPause = PFCModeOff, true }, "", ""},
		{"link pause with mode auto", func(p *PFCInterface) { p.Mode, p.LinkPause = PFCModeAuto, true }, "", ""},
		{"link pause with mode on", func(p *PFCInterface) { p.LinkPause = true }, "link_pause", "together with PFC"},
		// buffer
		{"xoff only", func(p *PFCInterface) { p.Buffer = &PFCBuffer{XoffBytes: Ptr[int64](1)} }, "", ""},
		{"xon only, zero", func(p *PFCInterface) { p.Buffer = &PFCBuffer{XonBytes: Ptr[int64](0)} }, "", ""},
		{"xon just below xoff", func(p *PFCInterface) { p.Buffer.XonBytes = Ptr[int64](122879) }, "", ""},
		{"xon equal to xoff", func(p *PFCInterface) { p.Buffer.XonBytes = Ptr[int64](122880) }, "buffer.xon_bytes", "not below xoff_bytes"},
		{"xon above xoff", func(p *PFCInterface) { p.Buffer.XonBytes = Ptr[int64](200000) }, "buffer.xon_bytes", "not below xoff_bytes 122880"},
		{"xoff zero", func(p *PFCInterface) { p.Buffer = &PFCBuffer{XoffBytes: Ptr[int64](0)} }, "buffer.xoff_bytes", "below 1"},
		{"xon negative", func(p *PFCInterface) { p.Buffer = &PFCBuffer{XonBytes: Ptr[int64](-1)} }, "buffer.xon_bytes", "xon_bytes -1 is below 0"},
		{"cable 1 m", func(p *PFCInterface) { p.Buffer.CableLengthM = Ptr(1) }, "", ""},
		{"cable 100 km", func(p *PFCInterface) { p.Buffer.CableLengthM = Ptr(MaxCableLengthM) }, "", ""},
		{"cable 0 m", func(p *PFCInterface) { p.Buffer.CableLengthM = Ptr(0) }, "buffer.cable_length_m", "out of range 1-100000"},
		{"cable too long", func(p *PFCInterface) { p.Buffer.CableLengthM = Ptr(MaxCableLengthM + 1) }, "buffer.cable_length_m", "out of range"},
		// watchdog
		{"action forward", func(p *PFCInterface) { p.Watchdog.Action = WatchdogForward }, "", ""},
		{"action alert", func(p *PFCInterface) { p.Watchdog.Action = WatchdogAlert }, "", ""},
		{"action empty", func(p *PFCInterface) { p.Watchdog.Action = "" }, "watchdog.action", "Invalid watchdog action"},
		{"action shutdown", func(p *PFCInterface) { p.Watchdog.Action = "shutdown" }, "watchdog.action", "Invalid watchdog action"},
		{"detection 100", func(p *PFCInterface) { p.Watchdog.DetectionTimeMs = 100 }, "", ""},
		{"detection 5000", func(p *PFCInterface) { p.Watchdog.DetectionTimeMs = 5000 }, "", ""},
		{"times unset (platforms with system-wide timers)", func(p *PFCInterface) { p.Watchdog.DetectionTimeMs, p.Watchdog.RestorationTimeMs = 0, 0 }, "", ""},
		{"detection 99", func(p *PFCInterface) { p.Watchdog.DetectionTimeMs = 99 }, "watchdog.detection_time_ms", "out of range 100-5000"},
		{"detection 5001", func(p *PFCInterface) { p.Watchdog.DetectionTimeMs = 5001 }, "watchdog.detection_time_ms", "out of range 100-5000"},
		{"restoration 100", func(p *PFCInterface) { p.Watchdog.RestorationTimeMs = 100 }, "", ""},
		{"restoration 60000", func(p *PFCInterface) { p.Watchdog.RestorationTimeMs = 60000 }, "", ""},
		{"restoration 99", func(p *PFCInterface) { p.Watchdog.RestorationTimeMs = 99 }, "watchdog.restoration_time_ms", "out of range 100-60000"},
		{"restoration 60001", func(p *PFCInterface) { p.Watchdog.RestorationTimeMs = 60001 }, "watchdog.restoration_time_ms", "out of range 100-60000"},
	})
}

// All problems are reported at once, in attribute order.
func TestValidatePFCCollectsAll(t *testing.T) {
	p := PFCInterface{
		Interface: "", Mode: "sometimes",
		Buffer:   &PFCBuffer{XoffBytes: Ptr[int64](100), XonBytes: Ptr[int64](100), CableLengthM: Ptr(0)},
		Watchdog: &PFCWatchdog{Action: "x", DetectionTimeMs: 1, RestorationTimeMs: 1},
	}
	var got []string
	for _, pr := range p.Validate() {
		got = append(got, pr.Path.String())
	}
	want := []string{"interface", "mode", "buffer.xon_bytes", "buffer.cable_length_m",
		"watchdog.action", "watchdog.detection_time_ms", "watchdog.restoration_time_ms"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("paths = %v, want %v", got, want)
	}
}
