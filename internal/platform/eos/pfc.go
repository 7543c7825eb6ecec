package eos

import (
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Interface lines of roce_pfc_interface.
const (
	linePFCOn       = "priority-flow-control on"
	lineWatchdog    = "priority-flow-control pause watchdog"
	lineWDAction    = lineWatchdog + " port action"
	lineWDTimer     = lineWatchdog + " port timer"
	flowOn, flowOff = "on", "off"
)

// PFC reads roce_pfc_interface on port; ok is false when there is no `interface port` block.
//   - mode is on with `priority-flow-control on`, else off;
//   - link_pause is on when `flowcontrol send` or `flowcontrol receive` is on;
//   - watchdog is nil without any watchdog line; else its action as read ("" when there is
//     none or the watchdog itself is not enabled), and the timer's times. A timer with options
//     PFCLines does not write reads Unknown where they matter: a polling interval other than
//     auto for detection_time_ms, forced recovery for restoration_time_ms;
//   - buffer is nil: EOS has no per-port headroom setting.
func (c *Config) PFC(port string) (*fabric.PFCInterface, bool) {
	i, ok := c.Interfaces[port]
	if !ok {
		return nil, false
	}
	p := &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOff, LinkPause: i.FlowSend == flowOn || i.FlowReceive == flowOn}
	if i.PFCOn {
		p.Mode = fabric.PFCModeOn
	}
	if w := i.Watchdog; w != nil {
		fw := &fabric.PFCWatchdog{Action: w.Action, DetectionTimeMs: w.TimeoutMs, RestorationTimeMs: w.RecoveryMs}
		if !w.Enabled {
			fw.Action = ""
		}
		f := strings.Fields(w.Timer)
		if at := slices.Index(f, "polling-interval"); at >= 0 && (at+1 >= len(f) || f[at+1] != "auto") {
			fw.DetectionTimeMs = Unknown
		}
		if slices.Contains(f, "forced") {
			fw.RestorationTimeMs = Unknown
		}
		p.Watchdog = fw
	}
	return p, true
}

// PFCPrior is what roce_pfc_interface changes on a port, as the device had it before. It is
// JSON-encodable for private state; the zero value is a port with none of the lines.
type PFCPrior struct {
	PFCOn       bool      `json:"pfc_on"`
	FlowSend    string    `json:"flow_send"`
	FlowReceive string    `json:"flow_receive"`
	Watchdog    *Watchdog `json:"watchdog"`
}

// PFCPrior records port's PFC lines as they are now.
func (c *Config) PFCPrior(port string) PFCPrior {
	i, ok := c.Interfaces[port]
	if !ok {
		return PFCPrior{}
	}
	p := PFCPrior{PFCOn: i.PFCOn, FlowSend: i.FlowSend, FlowReceive: i.FlowReceive}
	if i.Watchdog != nil {
		w := *i.Watchdog
		p.Watchdog = &w
	}
	return p
}

// PFCLines returns the lines, `interface port` ... `exit`, that take the port from old to
// next: create when old is nil, delete when next is nil, update otherwise.
//   - create and update write the mode and both flowcontrol directions (always managed), and
//     the watchdog when next manages it; a watchdog old managed and next does not goes back to
//     prior;
//   - delete puts mode, flowcontrol and (when old managed it) the watchdog back to prior:
//     absent lines are removed with their `no` form.
//
// next is assumed to pass CheckPFC and fabric validation. Both nil: no lines.
func PFCLines(port string, old, next *fabric.PFCInterface, prior PFCPrior) []string {
	if old == nil && next == nil {
		return nil
	}
	var body []string
	if next != nil {
		flow := flowOff
		if next.LinkPause {
			flow = flowOn
		}
		body = append(body, pfcOnLine(next.Mode == fabric.PFCModeOn),
			"flowcontrol send "+flow, "flowcontrol receive "+flow)
		if next.Watchdog != nil {
			body = append(body, watchdogLines(*next.Watchdog)...)
		} else if old != nil && old.Watchdog != nil {
			body = append(body, restoreWatchdog(prior.Watchdog)...)
		}
	} else {
		body = append(body, pfcOnLine(prior.PFCOn), flowLine("send", prior.FlowSend), flowLine("receive", prior.FlowReceive))
		if old.Watchdog != nil {
			body = append(body, restoreWatchdog(prior.Watchdog)...)
		}
	}
	return ifaceLines(port, body...)
}

func pfcOnLine(on bool) string {
	if on {
		return linePFCOn
	}
	return "no " + linePFCOn
}

// flowLine restores one flowcontrol direction; "" (no line before) removes ours.
func flowLine(dir, v string) string {
	if v == "" {
		return "no flowcontrol " + dir
	}
	return "flowcontrol " + dir + " " + v
}

// watchdogLines enables the watchdog with action drop and, when both times are set (CheckPFC
// refuses one without the other), one timer line; without times the timer is left alone.
func watchdogLines(w fabric.PFCWatchdog) []string {
	action := w.Action
	if action == "" {
		action = fabric.WatchdogDrop
	}
	out := []string{lineWatchdog, lineWDAction + " " + action}
	if w.DetectionTimeMs > 0 && w.RestorationTimeMs > 0 {
		out = append(out, lineWDTimer+" "+timerArgs(w.DetectionTimeMs, w.RestorationTimeMs))
	}
	return out
}

// timerArgs are the arguments of the timer line PFCLines writes.
func timerArgs(timeoutMs, recoveryMs int) string {
	return "timeout " + formatSeconds(timeoutMs) + " polling-interval auto recovery-time " + formatSeconds(recoveryMs)
}

// restoreWatchdog writes the watchdog lines back as prior had them; nil had none.
func restoreWatchdog(w *Watchdog) []string {
	if w == nil {
		w = &Watchdog{}
	}
	out := []string{"no " + lineWatchdog, "no " + lineWDAction, "no " + lineWDTimer}
	if w.Enabled {
		out[0] = lineWatchdog
	}
	if w.Action != "" {
		out[1] = lineWDAction + " " + w.Action
	}
	if w.Timer != "" {
		out[2] = lineWDTimer + " " + w.Timer
	}
	return out
}
