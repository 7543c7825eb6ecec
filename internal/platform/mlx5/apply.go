package mlx5

import (
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// script collects commands run in order, each only if the previous one succeeded.
type script struct {
	sudo bool
	root string // prefixes the files written: "" on a host (names.go)
	cmds []string
}

// run adds a privileged command (through sudo -n when sudo is set). Arguments are quoted.
func (w *script) run(args ...string) {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shQuote(a)
	}
	if w.sudo {
		q = append([]string{"sudo", "-n"}, q...)
	}
	w.cmds = append(w.cmds, strings.Join(q, " "))
}

// write sets a sysfs or debugfs file. With sudo the file is opened by a privileged tee: a
// shell redirect would be opened by the unprivileged shell.
func (w *script) write(path string, v int64) {
	path = w.root + path
	val := strconv.FormatInt(v, 10)
	if w.sudo {
		w.cmds = append(w.cmds, "echo "+val+" | sudo -n tee "+shQuote(path)+" > /dev/null")
		return
	}
	w.cmds = append(w.cmds, "echo "+val+" > "+shQuote(path))
}

// String is the one command to run over SSH: sh -c over the commands joined with &&, so the
// first failure stops the rest and sets the exit status.
func (w *script) String() string {
	if len(w.cmds) == 0 {
		return shWrap("true", false)
	}
	return shWrap(strings.Join(w.cmds, " && "), false)
}

// ApplyScript returns the one command that writes every setting nic and dcqcn manage (either
// may be nil) on ifname, whatever the host has now: idempotent, and one round trip. s is the
// state read before (for the RDMA device and PCI address); run CheckNICIntent and CheckDCQCN on
// it first.
//
// NIC: one mlnx_qos call sets trust, PFC and, when managed, -p/-s/-t; a second one writes all 64
// DSCPs when trust is dscp (mlnx_qos refuses --trust together with --dscp2prio, and switching
// trust to dscp resets the map, so the map goes second). roce_tos is written to the RDMA
// device's traffic_class. DCQCN: roce_rp and roce_np enable for all 8 priorities, then the
// cc_params files.
//
// With nic.Persist or dcqcn.Persist, the command then installs and enables the resource's boot
// unit (persist.go), which runs the same writes as root whenever the netdev appears; with
// Persist false it removes a unit s shows. The device is written first: a failed write leaves
// the unit as it was.
func ApplyScript(ifname string, s *HostState, nic *fabric.NICQoS, dcqcn *fabric.DCQCN, sudo bool) string {
	return applyScript("", ifname, s, nic, dcqcn, sudo)
}

// applyScript is ApplyScript on the host tree under root.
func applyScript(root, ifname string, s *HostState, nic *fabric.NICQoS, dcqcn *fabric.DCQCN, sudo bool) string {
	w := writes(root, ifname, s, nic, dcqcn, sudo)
	if nic != nil {
		w.persist(ifname, s, nic.Persist, KindNICQoS, nic, nil)
	}
	if dcqcn != nil {
		w.persist(ifname, s, dcqcn.Persist, KindDCQCN, nil, dcqcn)
	}
	return w.String()
}

// writes are the commands that set what nic and dcqcn manage on the device (under root).
func writes(root, ifname string, s *HostState, nic *fabric.NICQoS, dcqcn *fabric.DCQCN, sudo bool) *script {
	w := &script{sudo: sudo, root: root}
	if nic != nil {
		var prioTC *[8]int
		if nic.PriorityToTC != nil {
			a := PrioTCArray(nic.PriorityToTC)
			prioTC = &a
		}
		var tsa *[8]string
		var bw *[8]int
		if nic.ETS != nil {
			tsa, bw = etsVectors(nic.ETS)
		}
		var pfc [8]bool
		for _, p := range nic.PFCPriorities {
			if p >= 0 && p < 8 {
				pfc[p] = true
			}
		}
		dscp := DSCPArray(nic.DSCPToPriority)
		w.qos(s, ifname, string(nic.Trust), pfc, prioTC, tsa, bw, &dscp)
		if nic.RoCEToS != nil {
			w.write(tosPath(ifname, s.RDMADev), int64(*nic.RoCEToS))
		}
	}
	if dcqcn != nil {
		var on [8]int
		for _, p := range dcqcn.Priorities {
			if p >= 0 && p < 8 {
				on[p] = 1
			}
		}
		if s.ECN {
			w.ecn(ifname, on, on)
		} // else the firmware's ROCE_CC_PRIO_MASK governs them (CheckDCQCN)
		values := map[string]int64{ccCNPDSCP: int64(dcqcn.CNPDSCP), ccCNPPrio: int64(dcqcn.CNPPriority)}
		for _, m := range []map[string]int64{dcqcn.ReactionPoint, dcqcn.NotificationPoint} {
			for name, v := range m {
				values[ccFile[name]] = v
			}
		}
		for _, f := range ccFilesFor(dcqcn) {
			w.write(ccDir(s.PCIAddress)+"/"+f, values[f])
		}
	}
	return w
}

// qos adds the commands of the host's QoS tool (s.Tool) that set trust and PFC, prio_tc and ETS
// when not nil, and the DSCP map when trust is dscp and dscp is not nil.
func (w *script) qos(s *HostState, ifname, trust string, pfc [8]bool, prioTC *[8]int, tsa *[8]string, bw *[8]int, dscp *[64]int) {
	if s.Tool == ToolDCB {
		w.dcbQoS(ifname, trust, pfc, prioTC, tsa, bw, dscp, s)
		return
	}
	w.mlnxQoS(ifname, trust, pfc, prioTC, tsa, bw)
	if trust == string(fabric.TrustDSCP) && dscp != nil {
		w.dscp2prio(ifname, *dscp)
	}
}

// mlnxQoS adds the mlnx_qos call setting trust and PFC, and prio_tc and ETS when not nil.
func (w *script) mlnxQoS(ifname, trust string, pfc [8]bool, prioTC *[8]int, tsa *[8]string, bw *[8]int) {
	args := []string{"mlnx_qos", "-i", ifname}
	if trust != "" {
		args = append(args, "--trust", trust)
	}
	bits := make([]string, 8)
	for i, on := range pfc {
		bits[i] = "0"
		if on {
			bits[i] = "1"
		}
	}
	args = append(args, "--pfc", strings.Join(bits, ","))
	if prioTC != nil {
		args = append(args, "-p", joinInts(prioTC[:]))
	}
	if tsa != nil {
		args = append(args, "-s", strings.Join(tsa[:], ","), "-t", joinInts(bw[:]))
	}
	w.run(args...)
}

// dscp2prio adds one mlnx_qos call setting every DSCP (--dscp2prio may repeat).
func (w *script) dscp2prio(ifname string, m [64]int) {
	args := []string{"mlnx_qos", "-i", ifname}
	for d, p := range m {
		args = append(args, "--dscp2prio", "set,"+itoa(d)+","+itoa(p))
	}
	w.run(args...)
}

// ecn writes roce_rp and roce_np enable for each priority whose value is 0 or 1.
func (w *script) ecn(ifname string, rp, np [8]int) {
	for p := range 8 {
		if rp[p] >= 0 {
			w.write(ecnPath(ifname, pointRP, p), int64(rp[p]))
		}
		if np[p] >= 0 {
			w.write(ecnPath(ifname, pointNP, p), int64(np[p]))
		}
	}
}

// etsVectors turns ets (owned whole) into mlnx_qos -s and -t lists: unlisted TCs are ETS with
// 0 %, strict TCs take 0 % (mlnx_qos requires it).
func etsVectors(ets map[int]fabric.ETSClass) (*[8]string, *[8]int) {
	var tsa [8]string
	var bw [8]int
	for tc := range tsa {
		tsa[tc] = "ets"
		c, ok := ets[tc]
		switch {
		case ok && c.StrictPriority:
			tsa[tc] = "strict"
		case ok && c.BandwidthPercent != nil:
			bw[tc] = *c.BandwidthPercent
		}
	}
	return &tsa, &bw
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = itoa(x)
	}
	return strings.Join(s, ",")
}
