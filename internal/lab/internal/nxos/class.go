package nxos

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"

// What a class of an `nxos` policy-map holds: the qos-group a qos class sets, the PFC CoS and
// MTU of a network-qos class, and the bandwidth, priority, WRED/ECN and ingress pause buffer
// of a queuing class. The no forms take an optional copy of the values, as NX-OS does.

// Ranges the lab takes (NX-OS's depend on the ASIC; these cover a Nexus 9300's buffer).
const (
	nxosBufferMax = 52428800 // bytes: WRED thresholds
	// `pause buffer-size` and its thresholds: NX-OS's object model, class ipqosPause
	// (bufferSize 5000..268435456, pauseThreshold and resumeThreshold 0..268435456;
	// CiscoDevNet/terraform-provider-nxos gen/definitions/network_qos.yaml, 43d0c254).
	nxosPauseBufferMin = 5000
	nxosPauseMax       = 268435456
	nxosMTUMin         = 576
	nxosMTUMax         = 9216
	nxosWREDProbMax    = 100
	nxosWREDWtMax      = 15
)

// nxosUnits are the WRED threshold units and the largest threshold each takes.
var nxosUnits = []cliswitch.Unit{{Name: "bytes", Max: nxosBufferMax}, {Name: "kbytes", Max: nxosBufferMax / 1024}, {Name: "mbytes", Max: nxosBufferMax / (1024 * 1024)}}

// optNeg reads a value the no form may leave out: parse runs unless this is a no form at the
// end of the line.
func optNeg(x *nxosCtx, a *cliswitch.Args, parse func() *cliswitch.Refusal) *cliswitch.Refusal {
	if x.neg && !a.More() {
		return nil
	}
	return parse()
}

// cmdSetQoSGroup: `set qos-group N` (0-7), `no set qos-group [N]`.
func cmdSetQoSGroup(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if _, err := a.Kw("qos-group"); err != nil {
		return err
	}
	group, err := cliswitch.NegLast(a, x.neg, cliswitch.NoValue, cliswitch.Number(0, 7))
	if err != nil {
		return err
	}
	x.class().qosGroup = group
	return nil
}

// cmdPausePFC: `pause pfc-cos LIST` (0-7) in a network-qos class, `no pause pfc-cos [LIST]`.
func cmdPausePFC(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if _, err := a.Kw("pfc-cos"); err != nil {
		return err
	}
	set, err := cliswitch.NegLast(a, x.neg, 0, func(a *cliswitch.Args) (uint64, *cliswitch.Refusal) { return argList(a, 0, 7) })
	if err != nil {
		return err
	}
	x.class().pfcCos = uint8(set)
	return nil
}

// cmdClassMTU: `mtu N` (576-9216) in a network-qos class, `no mtu [N]`.
func cmdClassMTU(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	mtu, err := mtuArg(x, a)
	if err != nil {
		return err
	}
	x.class().mtu = mtu
	return nil
}

// mtuArg reads `N` (576-9216) and the end of the line; 0 for the no form.
func mtuArg(x *nxosCtx, a *cliswitch.Args) (int, *cliswitch.Refusal) {
	return cliswitch.NegLast(a, x.neg, 0, cliswitch.Number(nxosMTUMin, nxosMTUMax))
}

// cmdBandwidthPct: `bandwidth [remaining] percent P` (0-100), `no bandwidth [remaining]
// percent [P]`. The two forms share the class's one bandwidth; a no form clears only its own.
func cmdBandwidthPct(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	k, err := a.Kw("remaining", "percent")
	if err != nil {
		return err
	}
	remaining := k == "remaining"
	if remaining {
		if _, err := a.Kw("percent"); err != nil {
			return err
		}
	}
	pct, err := cliswitch.NegLast(a, x.neg, cliswitch.NoValue, cliswitch.Number(0, 100))
	if err != nil {
		return err
	}
	cl := x.class()
	switch {
	case !x.neg:
		cl.bw, cl.bwRemain = pct, remaining
	case cl.bwRemain == remaining:
		cl.bw = cliswitch.NoValue
	}
	return nil
}

// cmdPriorityLevel: `priority level L` (1-7), `no priority [level L]`.
func cmdPriorityLevel(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	level, err := cliswitch.NegLast(a, x.neg, 0, func(a *cliswitch.Args) (int, *cliswitch.Refusal) {
		if _, err := a.Kw("level"); err != nil {
			return 0, err
		}
		level := 0
		err := optNeg(x, a, func() *cliswitch.Refusal {
			var err *cliswitch.Refusal
			level, err = a.Num(1, 7)
			return err
		})
		return level, err
	})
	if err != nil {
		return err
	}
	x.class().priority = level
	return nil
}

// cmdWRED: `random-detect minimum-threshold X UNIT maximum-threshold Y UNIT drop-probability P
// weight W [ecn]`, `no random-detect [...]`.
func cmdWRED(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	w, err := cliswitch.NegLast(a, x.neg, nil, parseWRED)
	if err != nil {
		return err
	}
	x.class().wred = w
	return nil
}

func parseWRED(a *cliswitch.Args) (*nxosWRED, *cliswitch.Refusal) {
	w := &nxosWRED{}
	var err *cliswitch.Refusal
	if w.min, w.minUnit, err = wredThreshold(a, "minimum-threshold"); err != nil {
		return nil, err
	}
	if w.max, w.maxUnit, err = wredThreshold(a, "maximum-threshold"); err != nil {
		return nil, err
	}
	if w.prob, err = a.KwNum("drop-probability", 0, nxosWREDProbMax); err != nil {
		return nil, err
	}
	if w.weight, err = a.KwNum("weight", 0, nxosWREDWtMax); err != nil {
		return nil, err
	}
	ecn, err := a.OptKw("ecn")
	if err != nil {
		return nil, err
	}
	w.ecn = ecn != ""
	return w, nil
}

// wredThreshold reads `KEYWORD N UNIT`, N within the unit's range: NX-OS gives that range when
// a number is too large for its unit.
func wredThreshold(a *cliswitch.Args, keyword string) (int, string, *cliswitch.Refusal) {
	return a.Threshold(keyword, 0, nxosUnits, func(at int, word string, maxN int) *cliswitch.Refusal {
		return cliswitch.ErrRange(at, word, 0, maxN)
	})
}

// cmdPauseBuffer: `pause buffer-size B pause-threshold X resume-threshold Y` (bytes) in a
// queuing class, `no pause buffer-size [...]`.
func cmdPauseBuffer(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if _, err := a.Kw("buffer-size"); err != nil {
		return err
	}
	p, err := cliswitch.NegLast(a, x.neg, nil, parsePause)
	if err != nil {
		return err
	}
	x.class().pause = p
	return nil
}

func parsePause(a *cliswitch.Args) (*nxosPause, *cliswitch.Refusal) {
	p := &nxosPause{}
	var err *cliswitch.Refusal
	if p.buffer, err = a.Num(nxosPauseBufferMin, nxosPauseMax); err != nil {
		return nil, err
	}
	if p.pause, err = a.KwNum("pause-threshold", 0, nxosPauseMax); err != nil {
		return nil, err
	}
	if p.resume, err = a.KwNum("resume-threshold", 0, nxosPauseMax); err != nil {
		return nil, err
	}
	return p, nil
}
