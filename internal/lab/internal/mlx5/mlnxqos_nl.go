package mlx5

// What mlnx_qos sees of the kernel: its DcbController calls over rtnetlink
// (python/Python/dcbnetlink.py in Mellanox/mlnx-tools) answered from the
// port's DCB state. RTM_SETDCB needs CAP_NET_ADMIN ("Netlink error:
// Operation not permitted (1)"), an unknown netdev is ENODEV, and a
// callback's failure comes back in the reply attribute, which the tool
// reports as "Netlink error: Bad value. see dmesg.".

import (
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

// nlErr is the OSError the tool raises: errno is 0 for the "Bad value"
// one, which is created without an errno.
type nlErr struct {
	no  sh.Errno
	bad bool
}

func (n *nlErr) Error() string {
	if n.bad {
		return "Netlink error: Bad value. see dmesg."
	}
	return fmt.Sprintf("Netlink error: %s (%d)", n.no.Error(), int(n.no))
}

func (q *qosRun) nlGet() *nlErr {
	if q.p == nil {
		return &nlErr{no: sh.ENODEV}
	}
	return nil
}

func (q *qosRun) nlSet() *nlErr {
	if !q.e.Root {
		return &nlErr{no: sh.EPERM}
	}
	return q.nlGet()
}

func (q *qosRun) getDCBX() (uint8, *nlErr) {
	if err := q.nlGet(); err != nil {
		return 0, err
	}
	return q.p.dcbxCap(), nil
}

func (q *qosRun) setDCBX(mode uint8) *nlErr {
	if err := q.nlSet(); err != nil {
		return err
	}
	if q.p.setDCBX(mode) != 0 {
		return &nlErr{bad: true}
	}
	return nil
}

func (q *qosRun) getPFC() (en uint8, delay uint16, err *nlErr) {
	if err := q.nlGet(); err != nil {
		return 0, 0, err
	}
	return q.p.pfcEn, q.p.cableLen, nil
}

func (q *qosRun) setPFC(en uint8, delay uint16) *nlErr {
	if err := q.nlSet(); err != nil {
		return err
	}
	q.p.ctr.account(q.h.now(), q.p.pfcEn) // pauses so far count for the old PFC set
	q.p.setPFC(en, delay)
	return nil
}

func (q *qosRun) getApps() ([]dcbApp, *nlErr) {
	if err := q.nlGet(); err != nil {
		return nil, err
	}
	return append([]dcbApp(nil), q.p.apps...), nil
}

func (q *qosRun) setApp(a dcbApp) *nlErr { return q.writeApp(q.p.setApp, a) }

func (q *qosRun) delApp(a dcbApp) *nlErr { return q.writeApp(q.p.delApp, a) }

// writeApp sends one app entry's SET or DEL, write (the port's setApp or delApp): an entry
// the driver refuses is a bad value.
func (q *qosRun) writeApp(write func(dcbApp) error, a dcbApp) *nlErr {
	if err := q.nlSet(); err != nil {
		return err
	}
	if write(a) != nil {
		return &nlErr{bad: true}
	}
	return nil
}

func (q *qosRun) getETS() (prioTC, tsa, bw [8]uint8, err *nlErr) {
	if err := q.nlGet(); err != nil {
		return prioTC, tsa, bw, err
	}
	prioTC, tsa, bw = q.p.getETS()
	return prioTC, tsa, bw, nil
}

func (q *qosRun) setETS(prioTC, tsa, bw [8]uint8) *nlErr {
	if err := q.nlSet(); err != nil {
		return err
	}
	if validateETS(tsa, bw) != nil {
		return &nlErr{bad: true}
	}
	q.p.setETSCore(prioTC, tsa, bw)
	return nil
}

func (q *qosRun) getMaxRate() ([8]uint64, *nlErr) {
	if err := q.nlGet(); err != nil {
		return [8]uint64{}, err
	}
	return q.p.maxRateKbps(), nil
}

func (q *qosRun) setMaxRate(kbps [8]uint64) *nlErr {
	if err := q.nlSet(); err != nil {
		return err
	}
	if q.p.setMaxRate(kbps) != nil {
		return &nlErr{bad: true}
	}
	return nil
}

func (q *qosRun) getBuffer() (prio2buf [8]uint8, size [8]uint32, total uint32, err *nlErr) {
	if err := q.nlGet(); err != nil {
		return prio2buf, size, 0, err
	}
	return q.p.prio2buf, q.p.bufSize, portBufferSize, nil
}

// setBuffer is the manual buffer configuration (mlx5e_dcbnl_setbuffer):
// sizes are rounded down to whole cells and must fit the port.
func (q *qosRun) setBuffer(prio2buf [8]uint8, size [8]uint32) *nlErr {
	if err := q.nlSet(); err != nil {
		return err
	}
	var sum uint64
	for i := range size {
		size[i] -= size[i] % bufferCell
		sum += uint64(size[i])
	}
	if sum > portBufferSize-bufferCell {
		return &nlErr{bad: true}
	}
	q.p.prio2buf, q.p.bufSize = prio2buf, size
	return nil
}

// pyFrame is one traceback entry; file "" is the mlnx_qos script.
type pyFrame struct {
	file string
	line int
	fn   string
	stmt string
}

// pyTraceback is an uncaught exception, with the exceptions it happened
// while handling first. The lab prints the frames that matter to the
// reader (the script's own line and the failing call), not every library
// frame Python would.
type pyTraceback []pyExc

type pyExc struct {
	frames []pyFrame
	exc    string
}

func (tb pyTraceback) String() string {
	var b strings.Builder
	for i, t := range tb {
		if i > 0 {
			b.WriteString("\nDuring handling of the above exception, another exception occurred:\n\n")
		}
		b.WriteString("Traceback (most recent call last):\n")
		for _, f := range t.frames {
			file, fn := "/usr/bin/mlnx_qos", "<module>"
			if f.file != "" {
				file = f.file
			}
			if f.fn != "" {
				fn = f.fn
			}
			fmt.Fprintf(&b, "  File %q, line %d, in %s\n    %s\n", file, f.line, fn, f.stmt)
		}
		b.WriteString(t.exc + "\n")
	}
	return b.String()
}

func frame(line int, stmt string) []pyFrame { return []pyFrame{{line: line, stmt: stmt}} }

// checkPrivilegeFrames are the frames of check_privilege(e) failing on
// an exception without an errno attribute.
func checkPrivilegeFrames(line int) []pyFrame {
	return []pyFrame{
		{line: line, stmt: "check_privilege(e)"},
		{line: 387, fn: "check_privilege", stmt: "if is_privilege_excp(excp):"},
		{line: 384, fn: "is_privilege_excp", stmt: "return errno.EPERM == excp.errno"},
	}
}
