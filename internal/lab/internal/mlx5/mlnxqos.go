package mlx5

// mlnx_qos of MLNX_OFED / mlnx-tools (python/mlnx_qos at 8fbfd9c, 2026):
// the same steps in the same order, so that a command mixing a valid and
// an invalid option changes what the real tool changes before it fails,
// with the tool's messages (on standard output, exit status 1; optparse's
// on standard error, 2) and the tracebacks its bugs produce.

import (
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

// qosExit ends an mlnx_qos run with a status (the tool's sys.exit), through exitStatus.
type qosExit int

// exitStatus is the end of a tool run's deferred recover (r): a panic of the tool's exit type E
// (dcbExit, qosExit) is an early exit whose code becomes status; any other panic goes on.
func exitStatus[E ~int](r any, status *int) {
	if r == nil {
		return
	}
	code, ok := r.(E)
	if !ok {
		panic(r)
	}
	*status = int(code)
}

type qosRun struct {
	e    *sh.Env
	h    *Host
	p    *nicPort // nil: no such netdev
	a    *qosArgs
	out  io.Writer
	apps []dcbApp
}

func (h *Host) cmdMlnxQos(e *sh.Env, args []string) (status int) {
	h.mlnxQos.Add(1)
	a, msg := parseQosArgs(args[1:])
	switch {
	case msg != "":
		fmt.Fprintf(e.Stderr, "%s\nmlnx_qos: error: %s\n", qosUsage, msg)
		return 2
	case a.help:
		fmt.Fprint(e.Stdout, qosHelp())
		return 0
	case a.version:
		fmt.Fprintln(e.Stdout, "mlnx_qos 1.2")
		return 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	q := &qosRun{e: e, h: h, a: a, out: e.Stdout}
	defer func() { exitStatus[qosExit](recover(), &status) }()
	q.main()
	return 0
}

func (q *qosRun) print(format string, args ...any) { fmt.Fprintf(q.out, format+"\n", args...) }
func (q *qosRun) usage()                           { fmt.Fprint(q.out, qosUsage+"\n") }

// eachItem is mlnx_qos's loop over a comma-separated list option of 8 items: item(i, s) for
// each, tooMany past the 8th; with count set, count unless there were 8.
func (q *qosRun) eachItem(opt, tooMany, count string, item func(i int, s string)) {
	n := 0
	for _, t := range strings.Split(q.a.get(opt), ",") {
		if n >= 8 {
			q.print("%s", tooMany)
			q.exit(1)
		}
		item(n, t)
		n++
	}
	if count != "" && n != 8 {
		q.print("%s", count)
		q.exit(1)
	}
}

func (q *qosRun) exit(code int) { panic(qosExit(code)) }

func (q *qosRun) raise(tb pyTraceback) {
	fmt.Fprint(q.e.Stderr, tb.String())
	q.exit(1)
}

// parseInt is the tool's parse_int(s, 0, hi, what): a Python int in
// [0, hi] (every caller's minimum is 0) or exit 1.
func (q *qosRun) parseInt(s string, hi int64, what string) int64 {
	v, msg := pyInt(s)
	if msg == "" && (v.Sign() < 0 || v.Cmp(big.NewInt(hi)) > 0) {
		msg = fmt.Sprintf("%s is not in the range 0..%d", v, hi)
	}
	if msg != "" {
		q.print("Bad value for %s: %s", what, msg)
		q.usage()
		q.exit(1)
	}
	return v.Int64()
}

func (q *qosRun) checkPrivilege(err *nlErr) {
	if err.no == sh.EPERM {
		q.print("%s", err)
		q.exit(1)
	}
}

// pfcFailed is the tool's `print('mlnx_qos: Error setting pfc:' + e)`,
// which raises a TypeError of its own.
func (q *qosRun) pfcFailed(err *nlErr, line int, stmt string, printLine int, what string) {
	q.checkPrivilege(err)
	q.raise(pyTraceback{
		{frame(line, stmt), "OSError: " + err.Error()},
		{frame(printLine, fmt.Sprintf("print('mlnx_qos: Error setting %s:' + e)", what)),
			`TypeError: can only concatenate str (not "OSError") to str`},
	})
}

func (q *qosRun) main() {
	a := q.a
	if len(a.operands) > 0 {
		q.print("Bad arguments")
		q.usage()
		q.exit(1)
	}
	if a.vals["intf"] == nil {
		q.print("Interface name is required")
		q.usage()
		q.exit(1)
	}
	q.p = q.h.port(a.get("intf"))
	if q.h.lldpad {
		q.print("****** WARNING: lldpad service is running and may overwrite your settings ******\n")
	}
	q.dcbx()
	q.pfcCommands()
	q.dscp2prio()
	trust := q.trust()
	buf := q.buffers()
	rates := q.ratelimit()
	prioTC, tsa, bw, err := q.getETS()
	var en uint8
	var delay uint16
	if err == nil {
		en, delay, err = q.getPFC()
	}
	if err != nil {
		q.checkPrivilege(err)
		q.print("ETS features are not supported on your system")
		q.exit(1)
	}
	q.ets(&prioTC, &tsa, &bw)
	q.prettyPrint(prioTC, tsa, bw, rates, en, delay, trust, buf)
}

func (q *qosRun) dcbx() {
	if q.a.vals["dcbx"] == nil {
		return
	}
	switch q.a.get("dcbx") {
	case "os":
		const stmt = "ctrl.set_dcbx(ctrl.get_dcbx() | DCB_CAP_DCBX_HOST);"
		cur, err := q.getDCBX()
		if err == nil {
			err = q.setDCBX(cur | dcbxCapHost)
		}
		if err != nil {
			q.raise(pyTraceback{{frame(410, stmt), "OSError: " + err.Error()}})
		}
	case "fw":
		if err := q.setDCBX(0); err != nil {
			q.raise(pyTraceback{{frame(412, "ctrl.set_dcbx(0);"), "OSError: " + err.Error()}})
		}
	case "get":
	default:
		q.print("Invalid dcbx mode command. Refer to the help.")
		q.exit(1)
	}
}

// pfcCommands are --cable_len, -P, -F and -f, in the tool's order.
func (q *qosRun) pfcCommands() {
	a := q.a
	getEn := func(line int) uint8 {
		en, _, err := q.getPFC()
		if err != nil {
			q.raise(pyTraceback{{frame(line, "pfc_en = ctrl.get_ieee_pfc_en()"), "OSError: " + err.Error()}})
		}
		return en
	}
	if a.truthy("cable_len") {
		delay := q.parseInt(a.get("cable_len"), 0xffff, "cable_len")
		en := getEn(420)
		if err := q.setPFC(en, uint16(delay)); err != nil {
			q.pfcFailed(err, 423, "ctrl.set_ieee_pfc(_pfc_en = pfc_en, _delay = pfc_delay)", 426, "pfc delay")
		}
	}
	if a.truthy("get_pfc") {
		en := getEn(430)
		idx, msg := pyInt(a.get("get_pfc"))
		if msg != "" {
			q.raise(pyTraceback{{frame(432, "index = int(options.get_pfc)"), "ValueError: " + msg}})
		}
		if idx.Sign() < 0 || idx.Cmp(big.NewInt(7)) > 0 {
			q.print("pfc index must be in range of 0-7")
			q.exit(1)
		}
		q.print("%d", en>>idx.Int64()&1)
		q.exit(0)
	}
	if a.truthy("specific_pfc") {
		bits := []byte(fmt.Sprintf("%08b", getEn(443))) // bits[0] is priority 7
		items := strings.Split(a.get("specific_pfc"), ",")
		if len(items) != 8 {
			q.print("pfc list must have 8 items")
			q.exit(1)
		}
		for i := range items {
			t := items[7-i]
			if t == "x" {
				continue
			}
			if t != "0" && t != "1" {
				q.print("Bad value for 'PFC': %s", t)
				q.exit(1)
			}
			bits[i] = t[0]
		}
		var en uint8
		for _, b := range bits {
			en = en<<1 | (b - '0')
		}
		q.applyPFC(en, 462, 463, 466)
		q.exit(0)
	}
	if a.truthy("pfc") {
		var en uint8
		q.eachItem("pfc", "Too many items for PFC", "pfc list must have 8 items", func(i int, t string) {
			en |= uint8(q.parseInt(t, 1, "PFC")) << i
		})
		q.applyPFC(en, 488, 489, 492)
	}
}

func (q *qosRun) applyPFC(en uint8, getLine, setLine, printLine int) {
	_, delay, err := q.getPFC()
	if err != nil {
		q.pfcFailed(err, getLine, "pfc_delay = ctrl.get_ieee_pfc_delay()", printLine, "pfc")
	}
	if err := q.setPFC(en, delay); err != nil {
		q.pfcFailed(err, setLine, "ctrl.set_ieee_pfc(_pfc_en = pfc_en, _delay = pfc_delay)", printLine, "pfc")
	}
}

type appAction struct {
	action     string
	dscp, prio *big.Int
}

func (q *qosRun) dscp2prio() {
	a := q.a
	if len(a.dscp2prio) > 0 && a.truthy("trust") {
		q.print("trust and dscp2prio commands cannot be used at the same time.")
		q.exit(1)
	}
	// ValueErrors reach check_privilege(e), which has no errno to read.
	valueError := func(line int, stmt, msg string) {
		q.raise(pyTraceback{{frame(line, stmt), "ValueError: " + msg},
			{checkPrivilegeFrames(517), "AttributeError: 'ValueError' object has no attribute 'errno'"}})
	}
	var acts []appAction
	for _, opt := range a.dscp2prio {
		if opt == "flush" {
			acts = append(acts, appAction{action: opt})
			continue
		}
		parts := strings.Split(opt, ",")
		if len(parts) < 3 {
			valueError(508, `action, dscp, prio = opt.split(",")`, fmt.Sprintf("not enough values to unpack (expected 3, got %d)", len(parts)))
		}
		if len(parts) > 3 {
			valueError(508, `action, dscp, prio = opt.split(",")`, "too many values to unpack (expected 3)")
		}
		dscp, msg := pyInt(parts[1])
		if msg != "" {
			valueError(509, "dscp = int(dscp)", msg)
		}
		prio, msg := pyInt(parts[2])
		if msg != "" {
			valueError(510, "prio = int(prio)", msg)
		}
		if (parts[0] != "set" && parts[0] != "del") || dscp.Cmp(big.NewInt(63)) > 0 || prio.Cmp(big.NewInt(7)) > 0 {
			q.exit(1) // sys.exit(1) inside the try: SystemExit is not an Exception
		}
		acts = append(acts, appAction{parts[0], dscp, prio})
	}
	if err := q.applyApps(acts); err != nil {
		q.checkPrivilege(err)
		if len(a.dscp2prio) > 0 {
			q.print("dscp2prio command failed")
			q.exit(1)
		}
		q.apps = nil
	}
}

func (q *qosRun) applyApps(acts []appAction) *nlErr {
	for _, act := range acts {
		switch act.action {
		case "flush":
			apps, err := q.getApps()
			if err != nil {
				return err
			}
			for _, app := range apps {
				if err := q.delApp(app); err != nil {
					return err
				}
			}
		default:
			line, fn, stmt := 529, "set_ieee_app", "ctrl.set_ieee_app(IEEE_8021QAZ_APP_SEL_DSCP,prio,dscp)"
			if act.action == "del" {
				line, fn, stmt = 532, "del_ieee_app", "ctrl.del_ieee_app(IEEE_8021QAZ_APP_SEL_DSCP,prio,dscp)"
			}
			if exc := structPackError(act.prio, act.dscp); exc != "" {
				q.raise(pyTraceback{
					{[]pyFrame{{line: line, stmt: stmt}, {file: "/usr/share/mlnx-tools/python/dcbnetlink.py",
						line: map[string]int{"set_ieee_app": 460, "del_ieee_app": 473}[fn], fn: fn,
						stmt: `dcb_app        = struct.pack("BBH", selector, priority, protocol)`}}, "struct.error: " + exc},
					{checkPrivilegeFrames(545), "AttributeError: 'error' object has no attribute 'errno'"},
				})
			}
			app := dcbApp{dscp: uint8(act.dscp.Int64()), prio: uint8(act.prio.Int64())}
			var err *nlErr
			if act.action == "set" {
				err = q.setApp(app)
			} else {
				err = q.delApp(app)
			}
			if err != nil {
				return err
			}
		}
	}
	apps, err := q.getApps()
	q.apps = apps
	return err
}

// structPackError is struct.pack("BBH", 5, prio, dscp) refusing a
// negative value (the tool only checks the upper bounds).
func structPackError(prio, dscp *big.Int) string {
	if prio.Sign() < 0 {
		return "ubyte format requires 0 <= number <= 255"
	}
	if dscp.Sign() < 0 {
		return "'H' format requires 0 <= number <= 65535"
	}
	return ""
}
