package mlx5

import (
	"strings"
	"testing"
)

// dcbSection is a @@dcb section as iproute2 prints it: app entries in the layout of 6.1-6.4
// ([dscp, prio]) or of 6.5 and later ([dscp, prio, " "]), dcb_app.c.
func dcbSection(app string) []string {
	return strings.Split(`dcb dcbx:
{"host":true,"cee":true,"ieee":true}
dcb app:
`+app+`
dcb pfc:
{"pfc_cap":8,"macsec_bypass":false,"delay":7,"prio_pfc":[false,false,false,true,false,false,false,false]}
dcb ets:
{"willing":false,"ets_cap":8,"cbs":false,"tc_bw":[50,0,0,50,0,0,100,0],"pg_bw":[0,0,0,0,0,0,0,0],"tc_tsa":["ets","ets","ets","ets","ets","ets","strict","ets"],"prio_tc":[0,0,0,3,0,0,6,0],"reco_tc_bw":[0,0,0,0,0,0,0,0],"reco_tc_tsa":["strict","strict","strict","strict","strict","strict","strict","strict"],"reco_prio_tc":[0,0,0,0,0,0,0,0]}
dcb buffer:
Attribute not found: Success
`, "\n")
}

func TestParseDCB(t *testing.T) {
	for _, app := range []string{`{"dscp_prio":[[0,0],[26,3],[48,6]]}`, `{"dscp_prio":[[0,0," "],[26,3," "],[48,6," "]]}`} {
		s := &HostState{Interface: "eth0"}
		if err := parseDCB(s, dcbSection(app)); err != nil {
			t.Fatalf("%s: %v", app, err)
		}
		n := s.NICQoS()
		if s.Tool != ToolDCB || s.DCBX != DCBXOS || n.Trust != "dscp" || n.DSCPToPriority[26] != 3 || n.DSCPToPriority[48] != 6 ||
			len(n.PFCPriorities) != 1 || n.PFCPriorities[0] != 3 || n.PriorityToTC[3] != 3 || n.PriorityToTC[6] != 6 ||
			!n.ETS[6].StrictPriority || *n.ETS[0].BandwidthPercent != 50 || s.BufferSize != nil || s.CableLen != 7 {
			t.Errorf("%s: state %+v, NIC %+v", app, s, n)
		}
	}
	// No DSCP entry: the driver trusts PCP.
	s := &HostState{Interface: "eth0"}
	if err := parseDCB(s, dcbSection(`{}`)); err != nil || s.Trust != "pcp" || s.DSCP2PrioShown {
		t.Errorf("empty app table: %v %+v", err, s)
	}
	for _, c := range []struct{ lines, want string }{
		{"dcb dcbx:\nsh: 1: dcb: not found\ndcb app:\nsh: 1: dcb: not found\n", "neither mlnx_qos"},
		{"dcb dcbx:\nAttribute read: Operation not supported\ndcb app:\n{}\n", "dcb -j dcbx show dev eth0: Attribute read: Operation not supported"},
		{strings.Join(dcbSection(`{"dscp_prio":[[64,1," "]]}`), "\n"), "unreadable entry [64,1,\" \"]"},
	} {
		s := &HostState{Interface: "eth0"}
		if err := parseDCB(s, strings.Split(c.lines, "\n")); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.lines, err, c.want)
		}
	}
}

// The dcb writes: PFC on all 8 priorities, ETS with every share stated (strict TCs at 0, so
// the shares sum to 100 as iproute2 demands), the 64 DSCP entries; trust pcp flushes them.
func TestDCBWrites(t *testing.T) {
	s := &HostState{Interface: "eth0", Tool: ToolDCB, ECN: true}
	s.TSA = [8]string{"vendor", "vendor", "vendor", "vendor", "vendor", "vendor", "vendor", "vendor"}
	n := contractNIC()
	n.RoCEToS = nil
	w := writes("", "eth0", s, &n, nil, true)
	got := strings.Join(w.cmds, "\n")
	for _, want := range []string{
		"sudo -n dcb pfc set dev eth0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off",
		"sudo -n dcb ets set dev eth0 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0 prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0",
		"sudo -n dcb app add dev eth0 dscp-prio 0:0 1:0 ",
		" 26:3 ", " 48:6 ", " 63:0",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("writes lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "mlnx_qos") {
		t.Errorf("dcb host written with mlnx_qos:\n%s", got)
	}
	n.Trust, n.DSCPToPriority, n.ETS = "pcp", map[int]int{}, nil
	got = strings.Join(writes("", "eth0", s, &n, nil, false).cmds, "\n")
	if !strings.Contains(got, "dcb app flush dev eth0 dscp-prio") ||
		!strings.Contains(got, "tc-tsa 0:vendor 1:vendor 2:vendor 3:vendor 4:vendor 5:vendor 6:vendor 7:vendor tc-bw 0:0 ") {
		t.Errorf("trust pcp with prio-tc only:\n%s", got)
	}
}
