package mlx5

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// errorText compares errors by their message (QoSError).
var errorText = cmp.Comparer(func(a, b error) bool { return a == nil && b == nil || a != nil && b != nil && a.Error() == b.Error() })

// newHost2 is newHost plus eth1 (PCI 0000:3b:00.1, mlx5_1, cc_params of its own, trust pcp
// with firmware DCBX and mlnx_qos's lldpad warning, no traffic_class file) and lo, for which
// mlnx_qos fails as on a host.
func newHost2(t *testing.T, ifname string) *host {
	h := newHost(t, ifname)
	base := filepath.Dir(h.log)
	up := string(fixture(t, "read-upstream.txt"))
	h.file(filepath.Join(base, "report.eth1"), up[strings.Index(up, "@@mlnx_qos\n")+len("@@mlnx_qos\n"):strings.Index(up, "@@uevent")], 0o644)
	h.file(filepath.Join(base, "bin", "mlnx_qos"), "#!/bin/sh\n"+`echo "mlnx_qos ($#)" >> "$STUB_LOG"; for a in "$@"; do printf '%s\n' "$a" >> "$STUB_LOG"; done
case "$2" in
lo) printf '%s\n' 'Priority trust state is not supported on your system' 'Buffers commands are not supported on your system' \
	'Rate limit is not supported on your system!' 'ETS features are not supported on your system'; exit 1;;
eth1) cat "$STUB_REPORT.eth1";;
*) cat "$STUB_REPORT";;
esac
`, 0o755)
	net := h.root + "/sys/class/net/eth1"
	h.file(net+"/device/uevent", "DRIVER=mlx5_core\nPCI_SLOT_NAME=0000:3b:00.1\n", 0o644)
	if err := os.MkdirAll(net+"/device/infiniband/mlx5_1", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, point := range []string{pointRP, pointNP} {
		for p := range 8 {
			h.file(net+"/ecn/"+point+"/enable/"+itoa(p), map[bool]string{true: "1\n", false: "0\n"}[p == 3], 0o644)
		}
	}
	for i, f := range ccOrder {
		h.file(h.root+"/sys/kernel/debug/mlx5/0000:3b:00.1/cc_params/"+f, itoa(1000+i)+"\n", 0o600)
	}
	return h
}

// checkSameAsRead asserts the key property: for each netdev, the state ParseHostRead gives is
// the one ParseRead gives for the output of ReadScript on the same host (the tree under root).
// run runs a command.
func checkSameAsRead(t *testing.T, got map[string]*HostState, names []string, root string, run func(string) string, sudo bool) {
	t.Helper()
	keys := make([]string, 0, len(got))
	for n := range got {
		keys = append(keys, n)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, names) {
		t.Fatalf("netdevs %v, want %v", keys, names)
	}
	for _, n := range names {
		want, err := ParseRead(n, []byte(run(readScript(root, n, sudo))))
		if err != nil {
			t.Fatal(err)
		}
		g := got[n]
		if want.RDMADev == "" && g != nil {
			// No RDMA device: the host read does not run mlnx_qos there (ReadScript does), so
			// only its failure is compared; everything else must match.
			if g.QoSError == nil {
				t.Errorf("%s: no RDMA device, but its mlnx_qos section does not say it failed", n)
			}
			c := *g
			c.QoSError, c.DCBX, c.Trust, c.DSCP2PrioShown, c.DSCP2Prio = want.QoSError, want.DCBX, want.Trust, want.DSCP2PrioShown, want.DSCP2Prio
			c.DefaultPriority, c.BufferSize, c.MaxBufferSize, c.CableLen = want.DefaultPriority, want.BufferSize, want.MaxBufferSize, want.CableLen
			c.PFC, c.Prio2Buffer, c.PrioTC, c.TSA, c.BW, c.LLDPad = want.PFC, want.Prio2Buffer, want.PrioTC, want.TSA, want.BW, want.LLDPad
			g = &c
		}
		if diff := cmp.Diff(want, g, errorText); diff != "" {
			t.Errorf("%s: ParseHostRead differs from ParseRead (-read +host):\n%s", n, diff)
		}
	}
}

func TestHostReadScriptGolden(t *testing.T) {
	for sudo, name := range map[bool]string{true: "hostread-sudo.sh", false: "hostread-nosudo.sh"} {
		got := HostReadScript(sudo)
		if strings.Contains(got, "\n") {
			t.Errorf("%s spans lines", name)
		}
		golden(t, name, got+"\n")
	}
	if got, want := HostReadScript(true), "sudo -n "+HostReadScript(false); got != want {
		t.Errorf("sudo wraps differently:\n%s\n%s", got, want)
	}
}

func TestHostReadMatchesRead(t *testing.T) {
	for _, sudo := range []bool{true, false} {
		t.Run(map[bool]string{true: "sudo", false: "nosudo"}[sudo], func(t *testing.T) {
			h := newHost2(t, "eth0")
			out, log, err := h.run(hostReadScript(h.root, sudo))
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			want := ""
			if sudo {
				want = "sudo sh\n" // one sudo for the whole read
			}
			// mlnx_qos runs only where there is an RDMA device: not for lo.
			for _, n := range []string{"eth0", "eth1"} {
				want += "mlnx_qos (3)\n-i\n" + n + "\n-a\n"
			}
			if log != want {
				t.Errorf("the host read ran:\n%s\nwant:\n%s", log, want)
			}
			got, err := ParseHostRead([]byte(out))
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			checkSameAsRead(t, got, []string{"eth0", "eth1", "lo"}, h.root, func(cmd string) string { o, _, _ := h.run(cmd); return o }, sudo)

			// The sections did not mix: spot checks of what differs between the netdevs.
			e0, e1, lo := got["eth0"], got["eth1"], got["lo"]
			if e0.PCIAddress != "0000:3b:00.0" || e0.RDMADev != "mlx5_0" || e0.RoCEToS == nil || *e0.RoCEToS != 96 || e0.LLDPad ||
				e0.Trust != "dscp" || e0.RP != [8]int{0, 0, 0, 0, 0, 1, 0, 0} || e0.CCParams["np_cnp_dscp"] != 17 || len(e0.Errors) != 0 {
				t.Errorf("eth0: %+v", e0)
			}
			if e1.PCIAddress != "0000:3b:00.1" || e1.RDMADev != "mlx5_1" || e1.ToSSupported || !e1.LLDPad || e1.DCBX != DCBXFirmware ||
				e1.RP != [8]int{0, 0, 0, 1, 0, 0, 0, 0} || e1.CCParams["np_cnp_dscp"] != 1017 || len(e1.CCParams) != 20 {
				t.Errorf("eth1: %+v", e1)
			}
			if e1.Errors["/sys/class/net/eth1/device/infiniband/*/tc/1/traffic_class"] != "No such file or directory" {
				t.Errorf("eth1 errors: %v", e1.Errors)
			}
			if lo.QoSError == nil || lo.PCIAddress != "" || lo.RDMADev != "" || lo.ECN || lo.CCParams != nil ||
				lo.Errors["/sys/class/net/lo/ecn/roce_rp/enable/*"] != "No such file or directory" {
				t.Errorf("lo: %+v", lo)
			}
			for _, s := range got {
				if !cmp.Equal(s.Netdevs, []string{"eth0", "eth1", "lo"}) {
					t.Errorf("%s: netdevs %v", s.Interface, s.Netdevs)
				}
			}
		})
	}
}

// plainRoot moves h's tree to a root without a quote: cat and ls quote such a path in their
// errors, which then do not parse (real /sys paths need no quoting).
func plainRoot(t *testing.T, h *host) {
	root := filepath.Join(filepath.Dir(h.root), "root")
	if err := os.Rename(h.root, root); err != nil {
		t.Fatal(err)
	}
	h.root = root
}

// Without mlnx_qos on the PATH, every netdev records the shell's "not found"; lo also the
// files it lacks.
func TestHostReadMissingTool(t *testing.T) {
	h := newHost2(t, "eth0")
	plainRoot(t, h)
	if err := os.Remove(filepath.Join(filepath.Dir(h.log), "bin", "mlnx_qos")); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("mlnx_qos"); err == nil {
		t.Skip("mlnx_qos is installed here")
	}
	out, _, _ := h.run(hostReadScript(h.root, true))
	got, err := ParseHostRead([]byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	checkSameAsRead(t, got, []string{"eth0", "eth1", "lo"}, h.root, func(cmd string) string { o, _, _ := h.run(cmd); return o }, true)
	for n, s := range got {
		// Without mlnx_qos the read falls back to dcb: this machine's dcb (no such netdev), or none.
		if n != "lo" && (s.QoSError == nil || s.Tool != ToolDCB || !strings.Contains(s.QoSError.Error(), "dcb")) {
			t.Errorf("%s: QoSError = %v", n, s.QoSError)
		}
	}
	if got["lo"].QoSError == nil {
		t.Error("lo has no RDMA device: its mlnx_qos section must say it failed")
	}
	lo := got["lo"]
	for _, p := range []string{"/device/uevent", "/device/infiniband", "/ecn/roce_rp/enable/*", "/ecn/roce_np/enable/*", "/device/infiniband/*/tc/1/traffic_class"} {
		if lo.Errors["/sys/class/net/lo"+p] != "No such file or directory" {
			t.Errorf("lo: no error for %s: %v", p, lo.Errors)
		}
	}
	if len(got["eth0"].Errors) != 0 {
		t.Errorf("eth0 errors: %v", got["eth0"].Errors)
	}
}

// Without sudo, debugfs is unreadable: every netdev records the cc_params glob's error, as
// ParseRead does. The scripts run as nobody when the test runs as root.
func TestHostReadPermissionDenied(t *testing.T) {
	h := newHost2(t, "eth0")
	plainRoot(t, h)
	debug := h.root + "/sys/kernel/debug"
	if err := os.Chmod(debug, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(debug, 0o755) })
	var cred *syscall.Credential
	if os.Geteuid() == 0 { // root reads anything: run as nobody, who must reach the tree and the stub log
		if fi, err := os.Stat(os.TempDir()); err != nil || fi.Mode().Perm()&0o001 == 0 {
			t.Skip("the permission case runs the scripts as nobody, who cannot enter", os.TempDir(), "on this machine (root reads debugfs anyway)")
		}
		base := filepath.Dir(h.log)
		for _, d := range []string{filepath.Dir(base), base} {
			if err := os.Chmod(d, 0o777); err != nil {
				t.Fatal(err)
			}
		}
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	run := func(cmd string) string {
		c := exec.Command("/bin/sh", "-c", cmd)
		c.Env, c.SysProcAttr = h.env, &syscall.SysProcAttr{Credential: cred}
		out, _ := c.CombinedOutput()
		return h.unroot(string(out))
	}
	out := run(hostReadScript(h.root, false))
	got, err := ParseHostRead([]byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	checkSameAsRead(t, got, []string{"eth0", "eth1", "lo"}, h.root, run, false)
	for n, s := range got {
		if s.Errors["/sys/kernel/debug/mlx5/*/cc_params/*"] != "Permission denied" || s.CCParams != nil {
			t.Errorf("%s: cc_params %v, errors %v", n, s.CCParams, s.Errors)
		}
	}
}

// Names a caller failed to validate reach the commands and the parse as they are.
func TestHostReadHostileName(t *testing.T) {
	name := `e'x $(touch pwned);"q"`
	h := newHost(t, name)
	out, log, err := h.run(hostReadScript(h.root, true))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := "sudo sh\nmlnx_qos (3)\n-i\n" + name + "\n-a\n"; log != want {
		t.Errorf("mlnx_qos got:\n%s\nwant:\n%s", log, want)
	}
	got, err := ParseHostRead([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	checkSameAsRead(t, got, []string{name, "lo"}, h.root, func(cmd string) string { o, _, _ := h.run(cmd); return o }, true)
	if s := got[name]; s == nil || s.PCIAddress != "0000:3b:00.0" || s.RP[5] != 1 || s.RoCEToS == nil {
		t.Errorf("state: %+v", s)
	}
	if _, err := os.Stat("pwned"); err == nil {
		t.Fatal("command substitution ran")
	}
}

// A marker glued to output that lacked its final newline, a login banner and CRLF line ends
// change nothing.
func TestParseHostReadTolerance(t *testing.T) {
	h := newHost2(t, "eth0")
	out, _, _ := h.run(hostReadScript(h.root, false))
	want, err := ParseHostRead([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	for name, o := range map[string]string{
		"glued":  strings.NewReplacer("mlx5_0\n@@values", "mlx5_0@@values", "\n@@netdev lo", "@@netdev lo").Replace(out),
		"banner": "Last login: today\n" + out,
		"crlf":   strings.ReplaceAll(out, "\n", "\r\n"),
	} {
		if o == out {
			t.Fatalf("%s: nothing replaced", name)
		}
		got, err := ParseHostRead([]byte(o))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(want, got, errorText); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestParseHostReadErrors(t *testing.T) {
	h := newHost2(t, "eth0")
	out, _, _ := h.run(hostReadScript(h.root, false))
	dup := out[:strings.Index(out, "@@netdev eth1")] + "@@netdev eth0\n" + out[strings.Index(out, "@@mlnx_qos"):]
	lacking := strings.Replace(out, "@@netdev eth1\n@@mlnx_qos\n", "@@netdev eth1\n", 1)
	for _, tt := range []struct{ name, out, want string }{
		{"sudo refused", "sudo: a password is required\n", "sudo -n refused to run the read script (sudo: a password is required)"},
		{"nothing", "", "printed nothing"},
		{"garbage", "Welcome!\nbash: sh: command not found\n", `does not start with @@netdev: "Welcome!"`},
		{"truncated in a netdev", out[:strings.Index(out, "@@netdev lo")+20], "ends before the @@cc_params marker"},
		{"truncated", out[:strings.Index(out, "@@netdevs")], "ends before the @@netdevs marker"},
		{"netdev twice", dup, `netdev "eth0" twice`},
		{"section missing", lacking, "for netdev eth1 lacks a section"},
		{"per-netdev marker after the host's", strings.Replace(out, "@@lldpad\n", "@@lldpad\n@@uevent\n", 1), "garbled at @@uevent"},
		{"read script output", string(fixture(t, "read-full.txt")), "garbled at @@mlnx_qos"},
	} {
		if _, err := ParseHostRead([]byte(tt.out)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error = %v, want %q", tt.name, err, tt.want)
		}
	}
	// A garbled name that cut its own section (dash's echo stops at \c) drops that netdev only.
	cut := strings.Replace(out, "@@netdev lo\n@@mlnx_qos\n", `@@netdev l\@@mlnx_qos`+"\n", 1)
	if got, err := ParseHostRead([]byte(cut)); err != nil || len(got) != 2 || got["eth0"] == nil || got["eth1"] == nil {
		t.Errorf("cut section: %v, %v", got, err)
	}
}

// The host read script quoted in the package documentation (for the lab author) is the real one.
func TestDocShowsHostReadScript(t *testing.T) {
	checkDocExample(t, "HostReadScript(false) reads every netdev of the host at once (one line):", HostReadScript(false))
}

// SR-IOV nodes: the host read runs mlnx_qos for the ports only, never for VFs, switchdev
// representors or IPoIB netdevs (through the real /bin/sh); their sections say @@skipped.
func TestHostReadSkipsVFsAndRepresentors(t *testing.T) {
	h := newHost2(t, "eth0")
	net := h.root + "/sys/class/net/"
	h.file(net+"eth0/phys_port_name", "p0\n", 0o444)
	h.file(net+"eth0/type", "1\n", 0o444)
	h.file(net+"eth0v0/type", "1\n", 0o444)
	h.file(net+"eth0v0/device/physfn/uevent", "PCI_SLOT_NAME=0000:3b:00.0\n", 0o444)
	h.file(net+"eth0v0/device/infiniband/mlx5_2/.keep", "", 0o444)
	h.file(net+"eth0npf0vf0/phys_port_name", "pf0vf0\n", 0o444)
	h.file(net+"eth0npf0vf0/device/infiniband/mlx5_0/.keep", "", 0o444)
	h.file(net+"ib0/type", "32\n", 0o444)
	h.file(net+"ib0/device/infiniband/mlx5_3/.keep", "", 0o444)
	out, log, err := h.run(hostReadScript(h.root, false))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := "mlnx_qos (3)\n-i\neth0\n-a\nmlnx_qos (3)\n-i\neth1\n-a\n"; log != want {
		t.Errorf("the host read ran:\n%s\nwant mlnx_qos for the two ports only:\n%s", log, want)
	}
	got, err := ParseHostRead([]byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for name, skipped := range map[string]bool{"eth0": false, "eth1": false, "lo": false, "eth0v0": true, "eth0npf0vf0": true, "ib0": true} {
		s, ok := got[name]
		if !ok {
			t.Fatalf("no state for %s", name)
		}
		if s.QoSSkipped != skipped {
			t.Errorf("%s: QoSSkipped = %v, want %v", name, s.QoSSkipped, skipped)
		}
	}
	if got["eth0"].QoSError != nil || got["eth0"].Trust != "dscp" {
		t.Errorf("eth0 was not read: %+v", got["eth0"])
	}
}
