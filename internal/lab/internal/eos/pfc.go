package eos

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"

// PFC, the PFC watchdog (shared by qos profiles and interfaces) and ECN marking of a
// tx-queue on the `eos` switch.

// Watchdog time ranges, in hundredths of a second.
const (
	wdTimeoutMin, wdTimeoutMax   = 1, 6000   // 0.01-60 s
	wdPollingMin, wdPollingMax   = 1, 6000   // 0.01-60 s
	wdRecoveryMin, wdRecoveryMax = 1, 60000  // 0.01-600 s
	ecnProbMax, ecnWeightMax     = 100, 15   // max-mark-probability 1-100, weight 0-15
	kib                          = 1024      // EOS's kbytes
	mib                          = kib * kib // EOS's mbytes
)

// ecnUnits are the threshold units and the largest threshold each takes.
var ecnUnits = []cliswitch.Unit{
	{Name: "bytes", Max: 256 * mib},
	{Name: "kbytes", Max: 256 * kib},
	{Name: "mbytes", Max: 256},
	{Name: "segments", Max: 1 << 20},
	{Name: "milliseconds", Max: 1000},
}

// ecnBytes converts a threshold to bytes; ok is false for units that are not sizes.
func ecnBytes(v int, unit string) (int, bool) {
	switch unit {
	case "bytes":
		return v, true
	case "kbytes":
		return v * kib, true
	case "mbytes":
		return v * mib, true
	}
	return 0, false
}

func cmdProfilePFC(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	return pfcCmd(x, a, &x.cfg.profile(x.mode.profile).pfc)
}

func cmdIfacePFC(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	return pfcCmd(x, a, &x.iface().pfc)
}

// errNoHardware is EOS's answer to a command the platform does not support (AVD issue 6399:
// `priority-flow-control pause watchdog action no-drop` on a switch without it).
const errNoHardware = "% Unavailable command (not supported on this hardware platform)"

// pfcCmd: `priority-flow-control on`, `priority-flow-control priority N no-drop|drop`,
// `priority-flow-control pause watchdog ...`, and their no forms. vEOS has no PFC (it forwards
// in software): every form is unavailable there (the text of a real platform's refusal; its use
// on vEOS is assumed).
func pfcCmd(x *eosCtx, a *cliswitch.Args, p *eosPFC) *cliswitch.Refusal {
	if x.sw != nil && !x.sw.model.pfc {
		return cliswitch.ErrFinal("%s", errNoHardware)
	}
	what, err := a.Kw("on", "priority", "pause")
	if err != nil {
		return err
	}
	switch what {
	case "on":
		if err := a.Done(); err != nil {
			return err
		}
		p.on = !x.neg
		return nil
	case "priority":
		return pfcPriority(x, a, p)
	}
	if _, err := a.Kw("watchdog"); err != nil {
		return err
	}
	return watchdogCmd(x, a, &p.wd)
}

func pfcPriority(x *eosCtx, a *cliswitch.Args, p *eosPFC) *cliswitch.Refusal {
	prio, err := a.Num(0, 7)
	if err != nil {
		return err
	}
	v, err := cliswitch.NegLast(a, x.neg, "", cliswitch.Keyword("no-drop", "drop"))
	if err != nil {
		return err
	}
	if x.neg {
		delete(p.prio, prio)
		return nil
	}
	if p.prio == nil {
		p.prio = map[int]string{}
	}
	p.prio[prio] = v
	return nil
}

// watchdogCmd: after `priority-flow-control pause watchdog`: nothing (enable), `port action
// drop|errdisable|notify-only`, or `port timer timeout S polling-interval auto|S
// recovery-time S [forced]`.
func watchdogCmd(x *eosCtx, a *cliswitch.Args, wd *eosWatchdog) *cliswitch.Refusal {
	if !a.More() {
		wd.enabled = !x.neg
		return nil
	}
	if _, err := a.Kw("port"); err != nil {
		return err
	}
	what, err := a.Kw("action", "timer")
	if err != nil {
		return err
	}
	if what == "action" {
		var action string
		if x.neg {
			_, err = a.OptKw("drop", "errdisable", "notify-only")
		} else {
			action, err = a.Kw("drop", "errdisable", "notify-only")
		}
		if err != nil {
			return err
		}
		if err := a.Done(); err != nil {
			return err
		}
		wd.action = action
		return nil
	}
	var timer *eosWDTimer
	if !x.neg || a.More() {
		if timer, err = parseTimer(a); err != nil {
			return err
		}
	}
	if x.neg {
		timer = nil
	}
	wd.timer = timer
	return nil
}

func parseTimer(a *cliswitch.Args) (*eosWDTimer, *cliswitch.Refusal) {
	t := &eosWDTimer{}
	var err *cliswitch.Refusal
	if _, err = a.Kw("timeout"); err != nil {
		return nil, err
	}
	if t.timeout, err = argSeconds(a, wdTimeoutMin, wdTimeoutMax); err != nil {
		return nil, err
	}
	if _, err = a.Kw("polling-interval"); err != nil {
		return nil, err
	}
	if a.IsKw("auto") {
		a.Pos++ // polling 0 is auto
	} else if t.polling, err = argSeconds(a, wdPollingMin, wdPollingMax); err != nil {
		return nil, err
	}
	if _, err = a.Kw("recovery-time"); err != nil {
		return nil, err
	}
	if t.recovery, err = argSeconds(a, wdRecoveryMin, wdRecoveryMax); err != nil {
		return nil, err
	}
	forced, err := a.OptKw("forced")
	if err != nil {
		return nil, err
	}
	t.forced = forced != ""
	if err := a.Done(); err != nil {
		return nil, err
	}
	return t, nil
}

// cmdRandomDetect: `random-detect ecn minimum-threshold X UNIT maximum-threshold Y UNIT
// [max-mark-probability P] [weight W]`, `no random-detect ecn [...]`.
//
// `random-detect ecn count` (and its no form) turns the queue's ECN counter on: AVD's schema
// ("Enable counter for random-detect ECNs"), AMD's ROCm RoCE guide for an Arista 7388.
func cmdRandomDetect(x *eosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if _, err := a.Kw("ecn"); err != nil {
		return err
	}
	if a.More() && a.Words[a.Pos] == "count" {
		a.Pos++
		if err := a.Done(); err != nil {
			return err
		}
		x.txQueue().ecnCount = !x.neg
		return nil
	}
	var ecn *eosECN
	if !x.neg || a.More() {
		e, err := parseECN(a)
		if err != nil {
			return err
		}
		ecn = e
	}
	if err := a.Done(); err != nil {
		return err
	}
	if x.neg {
		ecn = nil
	}
	x.txQueue().ecn = ecn
	return nil
}

func parseECN(a *cliswitch.Args) (*eosECN, *cliswitch.Refusal) {
	e := &eosECN{prob: cliswitch.NoValue, weight: cliswitch.NoValue}
	var err *cliswitch.Refusal
	if e.min, e.minUnit, err = threshold(a, "minimum-threshold"); err != nil {
		return nil, err
	}
	if e.max, e.maxUnit, err = threshold(a, "maximum-threshold"); err != nil {
		return nil, err
	}
	optional := []string{"max-mark-probability", "weight"}
	for a.More() && len(optional) > 0 {
		k, err := a.Kw(optional...)
		if err != nil {
			return nil, err
		}
		if k == "weight" {
			e.weight, err = a.Num(0, ecnWeightMax)
		} else {
			e.prob, err = a.Num(1, ecnProbMax)
		}
		if err != nil {
			return nil, err
		}
		for i, o := range optional {
			if o == k {
				optional = append(optional[:i:i], optional[i+1:]...)
				break
			}
		}
	}
	if err := a.Done(); err != nil {
		return nil, err
	}
	minB, okMin := ecnBytes(e.min, e.minUnit)
	maxB, okMax := ecnBytes(e.max, e.maxUnit)
	if (okMin && okMax && minB > maxB) || (e.minUnit == e.maxUnit && e.min > e.max) {
		return nil, cliswitch.ErrFinal("%% Minimum threshold must be less than or equal to maximum threshold")
	}
	return e, nil
}

// threshold reads `KEYWORD N UNIT`, N within the unit's range: EOS refuses a number too large
// for its unit as invalid input.
func threshold(a *cliswitch.Args, keyword string) (int, string, *cliswitch.Refusal) {
	return a.Threshold(keyword, 1, ecnUnits, func(at int, word string, _ int) *cliswitch.Refusal { return cliswitch.ErrInvalid(at, word) })
}
