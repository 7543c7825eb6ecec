package mlx5

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

func TestParseReadFull(t *testing.T) {
	s := readFixture(t, "read-full.txt")
	if s.QoSError != nil {
		t.Fatal(s.QoSError)
	}
	wantMap := [64]int{}
	wantMap[26], wantMap[48] = 3, 6
	maxBuf := 262016
	checkQoS(t, s, wantQoS{
		dcbx: DCBXOS, trust: "dscp", dscpShown: true, dscp: wantMap,
		buffers: []int{130944, 130944, 0, 0, 0, 0, 0, 0}, maxBuffer: &maxBuf, cableLen: 7,
		pfc: []int{3}, prio2buffer: []int{0, 0, 0, 1, 0, 0, 0, 0}, prioTC: [8]int{0, 0, 0, 3, 0, 0, 6, 0},
		tsa: [8]string{"ets", "ets", "ets", "ets", "ets", "ets", "strict", "ets"}, bw: [8]int{50, 0, 0, 50, 0, 0, 0, 0},
	})
	if s.PCIAddress != "0000:3b:00.0" || s.RDMADev != "mlx5_0" || !s.ToSSupported || s.RoCEToS == nil || *s.RoCEToS != 106 {
		t.Errorf("pci %q rdma %q tos %v %v", s.PCIAddress, s.RDMADev, s.ToSSupported, s.RoCEToS)
	}
	if !s.ECN || s.RP != [8]int{0, 0, 0, 1, 0, 0, 0, 0} || s.NP != s.RP {
		t.Errorf("ecn %v rp %v np %v", s.ECN, s.RP, s.NP)
	}
	if len(s.CCParams) != 20 || s.CCParams["np_cnp_dscp"] != 48 || s.CCParams["rp_gd"] != 11 || s.CCParams["rp_byte_reset"] != 32767 {
		t.Errorf("cc_params of the other PCI function leaked in, or values lost: %v", s.CCParams)
	}
	if s.LLDPad || len(s.Errors) != 0 || !cmp.Equal(s.Netdevs, []string{"eno1", "eth0", "eth1", "lo"}) {
		t.Errorf("lldpad %v errors %v netdevs %v", s.LLDPad, s.Errors, s.Netdevs)
	}
	for name, err := range map[string]error{
		"CheckNIC": s.CheckNIC(), "CheckNICIntent": s.CheckNICIntent(contractNIC()), "CheckDCQCN": s.CheckDCQCN(contractDCQCN()),
	} {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}

	nic := s.NICQoS()
	if !NICEqual(contractNIC(), nic) {
		t.Errorf("the contract's roce_nic_qos differs from the host: %+v", nic)
	}
	wantNIC := fabric.NICQoS{
		Interface: "eth0", Trust: fabric.TrustDSCP, PFCPriorities: []int{3},
		DSCPToPriority: map[int]int{26: 3, 48: 6}, PriorityToTC: map[int]int{3: 3, 6: 6},
		ETS: map[int]fabric.ETSClass{
			0: {BandwidthPercent: fabric.Ptr(50)}, 3: {BandwidthPercent: fabric.Ptr(50)}, 6: {StrictPriority: true},
		},
		RoCEToS: fabric.Ptr(106),
	}
	if diff := cmp.Diff(wantNIC, nic); diff != "" {
		t.Errorf("NICQoS (-want +got):\n%s", diff)
	}

	d := s.DCQCN()
	want := contractDCQCN()
	want.NotificationPoint["min_time_between_cnps_us"] = 0 // the fixture has the firmware default
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("DCQCN (-want +got):\n%s", diff)
	}
	if DCQCNEqual(contractDCQCN(), d) {
		t.Error("min_time_between_cnps_us 4 (contract) vs 0 (host) compares equal")
	}
	if got := s.DCQCN("gd", "min_time_between_cnps_us"); len(got.ReactionPoint) != 1 || len(got.NotificationPoint) != 1 {
		t.Errorf("DCQCN(gd, min_time_between_cnps_us) = %+v", got)
	}
}

func TestParseReadUpstream(t *testing.T) {
	s := readFixture(t, "read-upstream.txt")
	if s.QoSError != nil {
		t.Fatal(s.QoSError)
	}
	if !s.LLDPad || s.DCBX != DCBXFirmware || s.Trust != "pcp" || s.DSCP2PrioShown {
		t.Errorf("lldpad %v dcbx %q trust %q", s.LLDPad, s.DCBX, s.Trust)
	}
	if s.ECN || s.CCParams != nil || s.ToSSupported || s.RoCEToS != nil {
		t.Errorf("ecn %v cc %v tos %v %v", s.ECN, s.CCParams, s.ToSSupported, s.RoCEToS)
	}
	if got := s.Errors["/sys/kernel/debug/mlx5/*/cc_params/*"]; got != "Permission denied" {
		t.Errorf("debugfs error = %q", got)
	}
	nicErr := s.CheckNIC()
	for _, want := range []string{"firmware-controlled", "mlnx_qos -i eth0 -d os", "LLDP_NB_DCBX_P1=0", "lldpad runs", "systemctl disable --now lldpad"} {
		if nicErr == nil || !strings.Contains(nicErr.Error(), want) {
			t.Errorf("CheckNIC() = %v, want %q", nicErr, want)
		}
	}
	dErr := s.CheckDCQCN(contractDCQCN())
	for _, want := range []string{"no readable /sys/class/net/eth0/ecn/roce_rp/enable", "upstream (inbox) kernels",
		`roce_nic_firmware, parameters = { ROCE_CC_PRIO_MASK_P1 = "8" }`,
		"cannot read /sys/kernel/debug/mlx5/0000:3b:00.0/cc_params", "set sudo = true", "Permission denied"} {
		if dErr == nil || !strings.Contains(dErr.Error(), want) {
			t.Errorf("CheckDCQCN() = %v, want %q", dErr, want)
		}
	}
	n := s.NICQoS()
	if len(n.DSCPToPriority) != 0 || n.Trust != fabric.TrustPCP || n.ETS[0] != (fabric.ETSClass{}) {
		t.Errorf("NICQoS under trust pcp with vendor TSA = %+v", n)
	}
	if d := s.DCQCN(); d.CNPDSCP != -1 || d.CNPPriority != -1 || d.Priorities != nil {
		t.Errorf("DCQCN without ecn and cc_params = %+v", d)
	}
}

func TestCheckToSAndMissing(t *testing.T) {
	s := readFixture(t, "read-upstream.txt")
	s.DCBX, s.LLDPad = DCBXOS, false
	if err := s.CheckNIC(); err != nil {
		t.Fatal(err)
	}
	n := contractNIC()
	n.Trust, n.DSCPToPriority = fabric.TrustPCP, nil
	if err := s.CheckNICIntent(n); err == nil || !strings.Contains(err.Error(),
		"no /sys/class/net/eth0/device/infiniband/mlx5_0/tc/1/traffic_class") {
		t.Errorf("CheckNICIntent = %v", err)
	}
	n.RoCEToS = nil
	if err := s.CheckNICIntent(n); err != nil {
		t.Errorf("without roce_tos: %v", err)
	}
	s.RDMADev = ""
	n.RoCEToS = fabric.Ptr(106)
	if err := s.CheckNICIntent(n); err == nil || !strings.Contains(err.Error(), "has no RDMA device") {
		t.Errorf("CheckNICIntent without RDMA device = %v", err)
	}

	full := readFixture(t, "read-full.txt")
	delete(full.CCParams, "rp_gd")
	full.RP[5] = -1
	err := full.CheckDCQCN(contractDCQCN())
	for _, want := range []string{"no /sys/kernel/debug/mlx5/0000:3b:00.0/cc_params/rp_gd", "could not read /sys/class/net/eth0/ecn/roce_rp/enable/5"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckDCQCN = %v, want %q", err, want)
		}
	}
	full.PCIAddress = ""
	if err := full.CheckDCQCN(contractDCQCN()); err == nil || !strings.Contains(err.Error(), "no PCI_SLOT_NAME in /sys/class/net/eth0/device/uevent") {
		t.Errorf("CheckDCQCN without PCI address = %v", err)
	}
}

func TestCheckInterfaceMissing(t *testing.T) {
	s, err := ParseRead("eth9", fixture(t, "read-full.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{s.CheckNIC(), s.CheckDCQCN(contractDCQCN())} {
		if err == nil || err.Error() != `interface "eth9" does not exist on the host; its netdevs are: eno1, eth0, eth1, lo` {
			t.Errorf("error = %v", err)
		}
	}
	if s.ECN || s.RoCEToS != nil {
		t.Error("values of eth0 were taken for eth9")
	}
}

func TestCheckNICQoSError(t *testing.T) {
	out := strings.Replace(string(fixture(t, "read-full.txt")), "DCBX mode: OS controlled", "Netlink error: Operation not permitted (1)\n@@failed", 1)
	s, err := ParseRead("eth0", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckNIC(); err == nil || !strings.Contains(err.Error(), "mlnx_qos -i eth0: Netlink error: Operation not permitted (1)") {
		t.Errorf("CheckNIC = %v", err)
	}
	s.Trust, s.QoSError = "none", nil
	if err := s.CheckNIC(); err == nil || !strings.Contains(err.Error(), `trust state "none"`) {
		t.Errorf("CheckNIC = %v", err)
	}
}

func TestParseReadErrors(t *testing.T) {
	full := string(fixture(t, "read-full.txt"))
	tests := []struct{ name, out, want string }{
		{"sudo refused", "sudo: a password is required\n", "sudo -n refused to run the read script (sudo: a password is required)"},
		{"nothing", "", "printed nothing"},
		{"garbage", "Welcome!\nbash: sh: command not found\n", `does not start with @@mlnx_qos: "Welcome!"`},
		{"truncated", full[:strings.Index(full, "@@lldpad")], "ends before the @@lldpad marker"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ParseRead("eth0", []byte(tt.out)); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseRead error = %v, want %q", err, tt.want)
			}
		})
	}
}

// A section whose last line lacks a newline glues the next marker to it; a login banner before
// the first marker and CRLF line ends are ignored.
func TestParseReadTolerance(t *testing.T) {
	full := string(fixture(t, "read-full.txt"))
	want := readFixture(t, "read-full.txt")
	for name, out := range map[string]string{
		"glued":  strings.Replace(full, "mlx5_0\n@@values", "mlx5_0@@values", 1),
		"banner": "Last login: today\n" + full,
		"crlf":   strings.ReplaceAll(full, "\n", "\r\n"),
	} {
		s, err := ParseRead("eth0", []byte(out))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(want, s, cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) })); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestParseValuesOddities(t *testing.T) {
	full := string(fixture(t, "read-full.txt"))
	out := strings.NewReplacer(
		"roce_rp/enable/2:0", "roce_rp/enable/2:7",
		"0000:3b:00.0/cc_params/rp_gd:11", "0000:3b:00.0/cc_params/rp_gd:x",
		"tc/1/traffic_class:Global tclass=106", "tc/1/traffic_class:dst_ip=10.0.0.0/8,tclass=96,",
	).Replace(full)
	s, err := ParseRead("eth0", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if s.RP[2] != -1 || s.Errors["/sys/class/net/eth0/ecn/roce_rp/enable/2"] != `unexpected value "7"` {
		t.Errorf("rp[2] = %d, errors %v", s.RP[2], s.Errors)
	}
	if _, ok := s.CCParams["rp_gd"]; ok || s.Errors["/sys/kernel/debug/mlx5/0000:3b:00.0/cc_params/rp_gd"] == "" {
		t.Errorf("rp_gd = %v, errors %v", s.CCParams["rp_gd"], s.Errors)
	}
	if s.RoCEToS != nil || !s.ToSSupported {
		t.Errorf("a rule line is not the global traffic class: %v", s.RoCEToS)
	}
}

func TestParseReadToolErrors(t *testing.T) {
	full := string(fixture(t, "read-full.txt"))
	uevent := full[strings.Index(full, "@@uevent\n"):strings.Index(full, "@@values")]
	out := strings.Replace(full, uevent, "@@uevent\ncat: /sys/class/net/eth0/device/uevent: No such file or directory\n"+
		"@@infiniband\nls: cannot access '/sys/class/net/eth0/device/infiniband': No such file or directory\n", 1)
	s, err := ParseRead("eth0", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if s.PCIAddress != "" || s.RDMADev != "" || len(s.Errors) != 2 {
		t.Fatalf("pci %q rdma %q errors %v", s.PCIAddress, s.RDMADev, s.Errors)
	}
	err = s.CheckDCQCN(contractDCQCN())
	if want := "cannot locate cc_params: no PCI_SLOT_NAME in /sys/class/net/eth0/device/uevent " +
		"(/sys/class/net/eth0/device/uevent: No such file or directory)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("CheckDCQCN = %v", err)
	}
	err = s.CheckNICIntent(contractNIC())
	if want := "roce_tos: eth0 has no RDMA device: /sys/class/net/eth0/device/infiniband lists none " +
		"(/sys/class/net/eth0/device/infiniband: No such file or directory). Is RoCE enabled on the NIC?"; err == nil || err.Error() != want {
		t.Errorf("CheckNICIntent = %v\nwant %s", err, want)
	}
}

// Under Secure Boot's kernel lockdown debugfs answers EPERM ("Operation not permitted") even to
// root: the error says lockdown, not sudo.
func TestDCQCNUnderKernelLockdown(t *testing.T) {
	text := strings.ReplaceAll(string(fixture(t, "read-upstream.txt")), "cc_params/*: Permission denied", "cc_params/*: Operation not permitted")
	s, err := ParseRead("eth0", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	dErr := s.CheckDCQCN(contractDCQCN())
	for _, want := range []string{"kernel is locked down", "/sys/kernel/security/lockdown", "Operation not permitted"} {
		if dErr == nil || !strings.Contains(dErr.Error(), want) {
			t.Errorf("CheckDCQCN() = %v, want %q", dErr, want)
		}
	}
	if dErr != nil && strings.Contains(dErr.Error(), "set sudo = true") {
		t.Errorf("CheckDCQCN() blames sudo under lockdown: %v", dErr)
	}
}
