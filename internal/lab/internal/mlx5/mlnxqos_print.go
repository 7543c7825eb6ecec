package mlx5

// The second half of mlnx_qos: trust, buffers, rate limits, ETS, and
// pretty_print in the current format (TCs sorted, buffer row,
// "max_buffer_size=" suffix, no "default priority:" line).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/py"
)

// trust is the Trust class over netlink: "dscp" while the DSCP app table
// has entries; --trust dscp installs the firmware default map (i>>3) entry
// by entry, --trust pcp deletes every entry.
func (q *qosRun) trust() string {
	a := q.a
	want := a.get("trust")
	if a.truthy("trust") && want != "dscp" && want != "pcp" {
		q.print("Invalid trust state command. Refer to the help.")
		q.exit(1)
	}
	trust := "none"
	get := func() *nlErr {
		apps, err := q.getApps()
		if err != nil {
			return err
		}
		trust = "pcp"
		if len(apps) > 0 {
			trust = "dscp"
		}
		return nil
	}
	err := get()
	if err == nil && a.truthy("trust") && trust != want {
		err = q.setTrust(want)
		if err == nil {
			err = get()
		}
		if err == nil {
			q.apps, err = q.getApps()
		}
	}
	if err != nil {
		q.checkPrivilege(err)
		q.print("Priority trust state is not supported on your system")
		if a.truthy("trust") {
			q.exit(1)
		}
		trust = "none"
	}
	return trust
}

func (q *qosRun) setTrust(want string) *nlErr {
	apps, err := q.getApps()
	if err != nil {
		return err
	}
	if want == "pcp" {
		for _, app := range apps {
			if err := q.delApp(app); err != nil {
				return err
			}
		}
		return nil
	}
	for i := range 64 {
		if err := q.setApp(dcbApp{dscp: uint8(i), prio: uint8(i >> 3)}); err != nil {
			return err
		}
	}
	return nil
}

type bufferState struct {
	failed   bool
	prio2buf [8]uint8
	size     [8]uint32
	total    uint32
}

func (q *qosRun) buffers() bufferState {
	a := q.a
	var b bufferState
	var err *nlErr
	b.prio2buf, b.size, b.total, err = q.getBuffer()
	if err != nil {
		q.checkPrivilege(err)
		q.print("Buffers commands are not supported on your system")
		if a.truthy("buffer_size") || a.truthy("prio2buffer") {
			q.exit(1)
		}
		return bufferState{failed: true}
	}
	if a.truthy("prio2buffer") {
		q.eachItem("prio2buffer", "Too many items for prio2buffer", "", func(i int, t string) {
			b.prio2buf[i] = uint8(q.parseInt(t, 7, "prio buffer"))
		})
	}
	if a.truthy("buffer_size") {
		q.eachItem("buffer_size", "Too many items for buffer_size", "", func(i int, t string) {
			v, msg := pyInt(t)
			if msg != "" || v.Sign() < 0 || v.BitLen() > 32 {
				q.print("Buffers commands error")
				q.exit(1)
			}
			b.size[i] = uint32(v.Uint64())
		})
	}
	if a.truthy("buffer_size") || a.truthy("prio2buffer") {
		if err := q.setBuffer(b.prio2buf, b.size); err != nil {
			q.checkPrivilege(err)
			q.print("Buffers commands error")
			q.exit(1)
		}
		b.prio2buf, b.size, b.total, _ = q.getBuffer()
	}
	return b
}

// ratelimit returns the TCs' limits in kbit/s, or nil where the query
// failed (the tool then prints TC lines without their "tc:" head).
func (q *qosRun) ratelimit() []uint64 {
	a := q.a
	if a.truthy("ratelimit") {
		var kbps [8]uint64
		q.eachItem("ratelimit", "Too many items for ratelimit", "ratelimit must have 8 items", func(i int, r string) {
			kbps[i] = uint64(q.parseInt(r, 1000000, "ratelimit")) * 1000 * 1000 //nolint:gosec // 0..1e6
		})
		if _, err := q.getMaxRate(); err != nil {
			q.print("Rate limit is not supported on your system!")
		} else if err := q.setMaxRate(kbps); err != nil {
			q.print("Rate limit is not supported on your system!")
		}
	}
	got, err := q.getMaxRate()
	if err != nil {
		q.print("Rate limit is not supported on your system!")
		return nil
	}
	return got[:]
}

func (q *qosRun) ets(prioTC, tsa, bw *[8]uint8) {
	a := q.a
	if a.truthy("tsa") {
		q.eachItem("tsa", "Too many items for TSA", "tsa list must have 8 items", func(i int, t string) {
			switch t {
			case "strict":
				tsa[i] = tsaStrict
			case "ets":
				tsa[i] = tsaETS
			case "vendor":
				tsa[i] = tsaVendor
			default:
				q.print("('Bad TSA value: ', %s)", py.Repr(t))
				q.usage()
				q.exit(1)
			}
		})
	}
	if a.truthy("tc_bw") {
		q.eachItem("tc_bw", "Too many items for ETS BW", "tcbw list must have 8 items", func(i int, t string) {
			v := uint8(q.parseInt(t, 100, "ETS BW"))
			if tsa[i] != tsaETS && v != 0 {
				q.print("ETS BW for a strict/vendor TC must be 0")
				q.usage()
				q.exit(1)
			}
			bw[i] = v
		})
	}
	if a.truthy("prio_tc") {
		q.eachItem("prio_tc", "Too many items in UP => TC mapping", "prio_tc list must have 8 items", func(i int, t string) {
			prioTC[i] = uint8(q.parseInt(t, 7, "UP => TC mapping"))
		})
	}
	if a.truthy("tsa") || a.truthy("tc_bw") || a.truthy("prio_tc") {
		if err := q.setETS(*prioTC, *tsa, *bw); err != nil {
			q.print("%s", err)
			q.exit(1)
		}
	}
}

func (q *qosRun) prettyPrint(prioTC, tsa, bw [8]uint8, rates []uint64, en uint8, delay uint16, trust string, buf bufferState) {
	if mode, _ := q.getDCBX(); mode&dcbxCapHost != 0 {
		q.print("DCBX mode: OS controlled")
	} else {
		q.print("DCBX mode: Firmware controlled")
	}
	q.print("Priority trust state: %s", trust)
	if trust == "dscp" {
		q.print("dscp2prio mapping:")
		q.printApps()
	}
	if !buf.failed {
		var b strings.Builder
		b.WriteString("Receive buffer size (bytes): ")
		for _, s := range buf.size {
			fmt.Fprintf(&b, "%d,", s)
		}
		fmt.Fprintf(&b, "max_buffer_size=%d", buf.total)
		q.print("%s", b.String())
	}
	tc2up := map[int][]int{}
	if q.a.printall {
		for i := range 8 {
			tc2up[i] = nil
		}
	}
	q.print("Cable len: %d", delay)
	q.print("PFC configuration:")
	q.print("\tpriority    0   1   2   3   4   5   6   7")
	var b strings.Builder
	b.WriteString("\tenabled     ")
	for up := range 8 {
		fmt.Fprintf(&b, "%d   ", en>>up&1)
	}
	if !buf.failed {
		b.WriteString("\n\tbuffer      ")
		for up := range 8 {
			fmt.Fprintf(&b, "%d   ", buf.prio2buf[up])
		}
	}
	q.print("%s", b.String())
	for up, tc := range prioTC {
		tc2up[int(tc)] = append(tc2up[int(tc)], up)
	}
	tcs := make([]int, 0, len(tc2up))
	for tc := range tc2up {
		tcs = append(tcs, tc)
	}
	slices.Sort(tcs)
	for _, tc := range tcs {
		msg := ""
		if tc < len(rates) {
			r := "unlimited"
			if rates[tc] > 0 {
				r = fmt.Sprintf("%.1f Gbps", float64(rates[tc])/1000/1000)
			}
			msg = fmt.Sprintf("tc: %d ratelimit: %s, tsa: ", tc, r)
		}
		switch tsa[tc] {
		case tsaETS:
			msg += fmt.Sprintf("ets, bw: %d%%", bw[tc])
		case tsaStrict:
			msg += "strict"
		case tsaVendor:
			msg += "vendor"
		default:
			msg += "unknown"
		}
		q.print("%s", msg)
		for _, up := range tc2up[tc] {
			q.print("\t priority:  %d", up)
		}
	}
}

// printApps is DcbAppTable.printAppSelector: the DSCPs of each priority
// in netlink (kernel list) order, 8 to a line.
func (q *qosRun) printApps() {
	var s [8]string
	for _, app := range q.apps {
		s[app.prio] += fmt.Sprintf("%02d,", app.dscp)
	}
	for i := range 8 {
		var lines []string
		pad := fmt.Sprintf("\tprio:%d dscp:", i)
		for len(s[i]) > 24 {
			lines = append(lines, pad+s[i][:24])
			s[i] = s[i][24:]
		}
		if s[i] != "" {
			lines = append(lines, pad+s[i])
		}
		if len(lines) > 0 {
			q.print("%s", strings.Join(lines, "\n"))
		}
	}
}
