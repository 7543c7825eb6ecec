package mlx5

// iproute2's dcb: the inbox way to set what mlnx_qos sets, through the same dcbnl callbacks of
// the mlx5 driver, on hosts without MLNX_OFED's mlnx-tools (stock distributions: Debian does
// not package mlnx_qos). A read uses mlnx_qos when the host has it and dcb otherwise, and the
// state records which (HostState.Tool), so writes, restores and boot units use the same tool.
//
// dcb has no trust setting on mlx5 (no dcbnl apptrust ops): the driver switches to DSCP trust
// at the first DSCP app entry and back to PCP when the last one goes (en_dcbnl.c
// mlx5e_dcbnl_ieee_setapp / delapp). So trust dscp is the 64 entries of the map, added with
// `dcb app add` (on mlx5 an add moves a DSCP's entry; `replace` is avoided because it exits 0
// whatever failed), and trust pcp is `dcb app flush ... dscp-prio`. A DSCP the app table does
// not list reads as priority 0, as mlnx_qos shows a deleted entry.
//
// Reads use -j: the JSON layouts (dcb_app.c, dcb_pfc.c, dcb_ets.c, dcb_buffer.c, dcb_dcbx.c)
// are stable where the text is not; an app entry is [dscp, prio] before iproute2 6.5 and
// [dscp, prio, " "] since.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// QoS tools a host read can find.
const (
	ToolMlnxQoS = "mlnx_qos"
	ToolDCB     = "dcb"
)

const markDCB = "@@dcb"

// dcbObjects are read in this order, each printed after a "dcb OBJ:" line.
var dcbObjects = []string{"dcbx", "app", "pfc", "ets", "buffer"}

// dcbRead is the command of the @@dcb section for netdev dev (a quoted word, or "$i"): the
// dcb objects as JSON, when guard (an and-list: the netdev is a NIC port with an RDMA device)
// holds and the host has no mlnx_qos.
func dcbRead(dev, guard string) string {
	return guard + " && ! command -v mlnx_qos >/dev/null 2>&1 && for o in " + strings.Join(dcbObjects, " ") +
		`; do echo "dcb $o:"; dcb -j "$o" show dev ` + dev + ` 2>&1; done`
}

type dcbJSON struct {
	// dcbx
	Host *bool `json:"host"`
	// app
	DSCPPrio [][]json.RawMessage `json:"dscp_prio"`
	// pfc
	PrioPFC []bool `json:"prio_pfc"`
	Delay   *int   `json:"delay"`
	// ets
	PrioTC []int    `json:"prio_tc"`
	TCTSA  []string `json:"tc_tsa"`
	TCBW   []int    `json:"tc_bw"`
	// buffer
	PrioBuffer []int `json:"prio_buffer"`
	BufferSize []int `json:"buffer_size"`
	TotalSize  *int  `json:"total_size"`
}

// parseDCB reads the @@dcb section into s (Tool, DCBX, Trust, the DSCP map, PFC, cable length,
// ETS, buffers). It returns the error of what could not be read: a failed object among dcbx,
// app, pfc and ets (buffers are optional, as mlnx_qos's are).
func parseDCB(s *HostState, lines []string) error {
	s.Tool = ToolDCB
	outs := map[string][]string{}
	cur := ""
	for _, l := range lines {
		if o, ok := strings.CutSuffix(strings.TrimSpace(l), ":"); ok && strings.HasPrefix(o, "dcb ") {
			cur = strings.TrimPrefix(o, "dcb ")
			outs[cur] = []string{}
			continue
		}
		if cur == "" && strings.TrimSpace(l) != "" {
			return fmt.Errorf("reading %s with dcb: %s", s.Interface, strings.TrimSpace(l))
		}
		if cur != "" && strings.TrimSpace(l) != "" {
			outs[cur] = append(outs[cur], strings.TrimSpace(l))
		}
	}
	var errs []error
	got := map[string]*dcbJSON{}
	for _, o := range dcbObjects {
		var text []string
		var js *dcbJSON
		for _, l := range outs[o] {
			if strings.HasPrefix(l, "{") {
				var v dcbJSON
				if err := json.Unmarshal([]byte(l), &v); err != nil {
					text = append(text, fmt.Sprintf("unreadable JSON %q", l))
					continue
				}
				js = &v
			} else {
				text = append(text, l)
			}
		}
		if _, ran := outs[o]; !ran {
			text = append(text, "no output")
		}
		switch {
		case js != nil:
			got[o] = js
		case o != "buffer":
			if strings.Contains(strings.Join(text, " "), "dcb: not found") {
				return errors.New("the host has neither mlnx_qos (MLNX_OFED / DOCA-OFED mlnx-tools) nor iproute2's dcb: install one of them")
			}
			errs = append(errs, fmt.Errorf("dcb -j %s show dev %s: %s", o, s.Interface, strings.Join(text, "; ")))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	s.DCBX = DCBXFirmware
	if h := got["dcbx"].Host; h != nil && *h {
		s.DCBX = DCBXOS
	}
	s.Trust = "pcp"
	for _, e := range got["app"].DSCPPrio {
		var d, p int
		if len(e) < 2 || json.Unmarshal(e[0], &d) != nil || json.Unmarshal(e[1], &p) != nil || d < 0 || d > 63 || p < 0 || p > 7 {
			return fmt.Errorf("dcb -j app show dev %s: unreadable entry %s", s.Interface, joinRaw(e))
		}
		s.Trust, s.DSCP2PrioShown = "dscp", true
		s.DSCP2Prio[d] = p
	}
	pfc, ets := got["pfc"], got["ets"]
	if len(pfc.PrioPFC) != 8 || len(ets.PrioTC) != 8 || len(ets.TCTSA) != 8 || len(ets.TCBW) != 8 {
		return fmt.Errorf("dcb on %s printed PFC or ETS without 8 entries", s.Interface)
	}
	copy(s.PFC[:], pfc.PrioPFC)
	if pfc.Delay != nil {
		s.CableLen = *pfc.Delay
	}
	for i := range 8 {
		s.PrioTC[i] = ets.PrioTC[i]
		switch t := ets.TCTSA[i]; t {
		case "ets", "strict", "vendor":
			s.TSA[i] = t
		default:
			s.TSA[i] = "unknown"
		}
		if s.TSA[i] == "ets" {
			s.BW[i] = ets.TCBW[i]
		}
	}
	if b := got["buffer"]; b != nil && len(b.BufferSize) == 8 {
		s.BufferSize = b.BufferSize
		s.Prio2Buffer = b.PrioBuffer
		s.MaxBufferSize = b.TotalSize
	}
	return nil
}

func joinRaw(e []json.RawMessage) string {
	parts := make([]string, len(e))
	for i, r := range e {
		parts[i] = string(r)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// dcbQoS adds the dcb commands that set trust and PFC, and prio_tc and ETS when not nil, with
// the DSCP map when trust is dscp. cur is the state now (its TSA and shares stand in for an
// unmanaged ets: mlx5 reports strict and vendor TCs at 100 %, which iproute2's own check
// refuses to send back, so every write of ETS states all eight shares).
func (w *script) dcbQoS(ifname, trust string, pfc [8]bool, prioTC *[8]int, tsa *[8]string, bw *[8]int, dscp *[64]int, cur *HostState) {
	args := []string{"dcb", "pfc", "set", "dev", ifname, "prio-pfc"}
	for p, on := range pfc {
		args = append(args, itoa(p)+":"+map[bool]string{true: "on", false: "off"}[on])
	}
	w.run(args...)
	if prioTC != nil || tsa != nil {
		t, b := cur.TSA, cur.BW
		if tsa != nil {
			t, b = *tsa, *bw
		}
		args := []string{"dcb", "ets", "set", "dev", ifname, "tc-tsa"}
		for tc := range t {
			name := t[tc]
			if name != "ets" && name != "strict" {
				name = "vendor"
			}
			args = append(args, itoa(tc)+":"+name)
		}
		args = append(args, "tc-bw")
		for tc := range b {
			share := 0
			if t[tc] == "ets" {
				share = b[tc]
			}
			args = append(args, itoa(tc)+":"+itoa(share))
		}
		if prioTC != nil {
			args = append(args, "prio-tc")
			for p, tc := range prioTC {
				args = append(args, itoa(p)+":"+itoa(tc))
			}
		}
		w.run(args...)
	}
	switch {
	case trust == "dscp" && dscp != nil:
		args := []string{"dcb", "app", "add", "dev", ifname, "dscp-prio"}
		for d, p := range dscp {
			args = append(args, itoa(d)+":"+itoa(p))
		}
		w.run(args...)
	case trust == "pcp":
		w.run("dcb", "app", "flush", "dev", ifname, "dscp-prio")
	}
}
