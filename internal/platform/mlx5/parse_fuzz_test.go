package mlx5

import (
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// Fuzz tests of the parsers of host output (the read and host read scripts, mlnx_qos, the
// counters script) and of ValidNetdev. Seeds are every sample under testdata (f.Add) plus the
// corpus under testdata/fuzz/<FuzzName>/ (real /bin/sh output, regressions). Each parser must
// not panic, must refuse output that lacks what its contract needs (no silent acceptance of
// garbage), and the state it returns must hold values in range, safe to compare and to turn
// into scripts. `make fuzz` runs each target for FUZZTIME.

// checkState asserts what every HostState a parser returns promises, whatever the input.
func checkState(t *testing.T, s *HostState, ifname string) {
	t.Helper()
	if s == nil {
		t.Fatal("nil state without an error")
	}
	if s.Interface != ifname {
		t.Errorf("state of %q for interface %q", s.Interface, ifname)
	}
	for d, p := range s.DSCP2Prio {
		if p < 0 || p > 7 {
			t.Errorf("DSCP %d maps to priority %d", d, p)
		}
	}
	for p := range 8 {
		if s.PrioTC[p] < 0 || s.PrioTC[p] > 7 {
			t.Errorf("priority %d in TC %d", p, s.PrioTC[p])
		}
		if !slices.Contains([]string{"", "ets", "strict", "vendor", "unknown"}, s.TSA[p]) {
			t.Errorf("TC %d has TSA %q", p, s.TSA[p])
		}
		if s.BW[p] < 0 || s.BW[p] > 100 {
			t.Errorf("TC %d (%s) has bandwidth %d%%", p, s.TSA[p], s.BW[p])
		}
		if s.RP[p] < -1 || s.RP[p] > 1 || s.NP[p] < -1 || s.NP[p] > 1 {
			t.Errorf("priority %d: roce_rp %d roce_np %d", p, s.RP[p], s.NP[p])
		}
	}
	if s.DCBX != "" && s.DCBX != DCBXOS && s.DCBX != DCBXFirmware {
		t.Errorf("DCBX %q", s.DCBX)
	}
	if s.RoCEToS != nil && (*s.RoCEToS < 0 || *s.RoCEToS > fabric.MaxRoCEToS) {
		t.Errorf("roce_tos %d is no ToS byte", *s.RoCEToS)
	}
	if s.RDMADev != "" && !rdmaDevPattern.MatchString(s.RDMADev) {
		t.Errorf("RDMA device %q", s.RDMADev)
	}
	if s.QoSError == nil && (s.DCBX == "" || s.Trust == "") {
		t.Errorf("mlnx_qos output accepted without DCBX mode (%q) or trust state (%q)", s.DCBX, s.Trust)
	}
	if s.Errors == nil {
		t.Error("nil Errors map")
	}
	// Everything the resources do with a state must work on any state.
	nic, dcqcn := s.NICQoS(), s.DCQCN()
	if nic.Interface != ifname || dcqcn.Interface != ifname {
		t.Errorf("NICQoS/DCQCN of %q name %q/%q", ifname, nic.Interface, dcqcn.Interface)
	}
	want, wantD := contractNIC(), contractDCQCN()
	want.Interface, wantD.Interface = ifname, ifname
	s.NICQoSLike(want)
	s.DCQCNLike(wantD)
	NICEqual(want, nic)
	DCQCNEqual(wantD, dcqcn)
	_ = s.CheckNIC()
	_ = s.CheckNICIntent(want)
	_ = s.CheckDCQCN(wantD)
	for _, sudo := range []bool{false, true} {
		for _, script := range []string{
			ApplyScript(ifname, s, &want, &wantD, sudo), RestoreScript(ifname, s, &want, &wantD, sudo),
		} {
			if !strings.HasPrefix(script, "sh -c '") && !strings.HasPrefix(script, "sudo -n sh -c '") {
				t.Errorf("script %q", script)
			}
		}
	}
}

// hasMarkerLine reports whether a line of out ends with marker, as the section splitters need.
func hasMarkerLine(out, marker string) bool {
	for _, l := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		if strings.HasSuffix(l, marker) {
			return true
		}
	}
	return false
}

func FuzzParseRead(f *testing.F) {
	for _, name := range []string{"read-full.txt", "read-upstream.txt"} {
		out := fixture(f, name)
		f.Add("eth0", out)
		f.Add("eth1", out)
		f.Add("eth0", []byte(strings.ReplaceAll(string(out), "\n", "\r\n")))
	}
	f.Add("eth0", []byte("sudo: a password is required\n"))
	f.Add("eth0", []byte("@@mlnx_qos\n@@uevent\n@@infiniband\n@@values\n@@units\n@@lldpad\n@@netdevs\n@@end\n"))
	f.Fuzz(func(t *testing.T, ifname string, out []byte) {
		s, err := ParseRead(ifname, out)
		if err != nil {
			if s != nil {
				t.Error("a state with an error")
			}
			if err.Error() == "" {
				t.Error("empty error")
			}
			return
		}
		// Output without the markers is not a read script's output: an error, never a state.
		for _, m := range markers {
			if !hasMarkerLine(string(out), m) && m != markDCB { // optional: splitSections
				t.Fatalf("output without a line ending in %s accepted", m)
			}
		}
		if s.QoSError == nil {
			for _, need := range []string{"DCBX mode: ", "Priority trust state: ", "enabled"} {
				if !strings.Contains(string(out), need) {
					t.Errorf("mlnx_qos section accepted without %q", need)
				}
			}
		}
		checkState(t, s, ifname)
	})
}

func FuzzParseHostRead(f *testing.F) {
	// A host read of two netdevs pieced together from the read samples; the corpus has a
	// real one (/bin/sh running HostReadScript over a test tree).
	full, up := string(fixture(f, "read-full.txt")), string(fixture(f, "read-upstream.txt"))
	netdev := func(name, read string) string {
		return "@@netdev " + name + "\n" + read[:strings.Index(read, "@@units")]
	}
	host := up[strings.Index(up, "@@units"):]
	pieced := netdev("eth0", full) + netdev("eth1", up) + "@@cc_params\n" + host
	f.Add([]byte(pieced))
	f.Add([]byte(strings.ReplaceAll(pieced, "\n", "\r\n")))
	f.Add([]byte("@@netdev lo\n@@mlnx_qos\n@@failed\n@@uevent\n@@infiniband\n@@values\n@@cc_params\n@@units\n@@lldpad\n@@netdevs\nlo\n@@end\n"))
	f.Add([]byte("Welcome!\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		states, err := ParseHostRead(out)
		if platformtest.Refused(t, "states", states, err) {
			return
		}
		for _, m := range hostMarkers {
			if !hasMarkerLine(string(out), m) {
				t.Fatalf("host read output without a line ending in %s accepted", m)
			}
		}
		for name, s := range states {
			if !strings.Contains(string(out), markNetdev+name) {
				t.Errorf("netdev %q not named by a %s line", name, markNetdev)
			}
			checkState(t, s, name)
		}
	})
}

func FuzzParseMlnxQoS(f *testing.F) {
	for _, name := range []string{"mlnx_qos-composed-old.txt", "mlnx_qos-output-1.txt", "mlnx_qos-output-3-dscp.txt", "mlnx_qos-output-3.txt"} {
		f.Add(fixture(f, name))
	}
	for _, name := range []string{"read-full.txt", "read-upstream.txt"} {
		read := string(fixture(f, name))
		f.Add([]byte(read[strings.Index(read, markQoS)+len(markQoS)+1 : strings.Index(read, markUevent)]))
	}
	f.Add([]byte("Priority trust state is not supported on your system\n@@failed\n"))
	f.Fuzz(func(t *testing.T, report []byte) {
		s := &HostState{Interface: "eth0", Errors: map[string]string{}}
		for i := range s.RP {
			s.RP[i], s.NP[i] = -1, -1
		}
		lines := strings.Split(string(report), "\n")
		if err := parseMlnxQoS(s, lines); err != nil {
			if !strings.HasPrefix(err.Error(), "mlnx_qos -i eth0: ") {
				t.Errorf("error %q does not name the command", err)
			}
			return
		}
		// Accepted: the report had every line the resources compare.
		trimmed := make([]string, len(lines))
		for i, l := range lines {
			trimmed[i] = strings.TrimSpace(l)
		}
		if !slices.Contains(trimmed, "DCBX mode: OS controlled") && !slices.Contains(trimmed, "DCBX mode: Firmware controlled") {
			t.Error("accepted without a DCBX mode line")
		}
		if !slices.ContainsFunc(trimmed, func(l string) bool { return strings.HasPrefix(l, "Priority trust state: ") }) {
			t.Error("accepted without a trust state line")
		}
		if !slices.ContainsFunc(trimmed, func(l string) bool { return strings.HasPrefix(l, "enabled") }) {
			t.Error("accepted without the PFC enabled row")
		}
		prios := 0
		for _, l := range trimmed {
			if rePrioLine.MatchString(l) {
				prios++
			}
		}
		if prios < 8 {
			t.Errorf("accepted with %d priority lines", prios)
		}
		checkState(t, s, "eth0")
	})
}

func FuzzParseCounters(f *testing.F) {
	for _, name := range []string{"counters-sample.txt", "counters-lab.txt"} {
		f.Add("eth0", fixture(f, name))
	}
	f.Add("", fixture(f, "counters-all-lab.txt")) // "": every port
	f.Add("eth0", []byte("@@netdev eth0\n@@ethtool\nNIC statistics:\n     rx_discards_phy: 3\n@@hw_counters\n@@netdevs\neth0\n@@end\n"))
	f.Add("eth0", []byte("@@netdev eth0\n@@ethtool\nsh: 1: ethtool: not found\n@@hw_counters\n@@netdevs\neth0\n@@end\n"))
	f.Fuzz(func(t *testing.T, ifname string, out []byte) {
		got, err := ParseCounters(platformtest.Ports(ifname), out)
		if platformtest.Refused(t, "counters", got, err) {
			return
		}
		platformtest.CheckPorts(t, ifname, got)
		for _, m := range []string{markNetdevs, markEnd} {
			if !hasMarkerLine(string(out), m) {
				t.Fatalf("counters output without a line ending in %s accepted", m)
			}
		}
		for name, c := range got {
			if !strings.Contains(string(out), markNetdev+name) {
				t.Errorf("netdev %q accepted without its section", name)
			}
			if !strings.Contains(string(out), "NIC statistics:") {
				t.Error("accepted without ethtool's statistics header")
			}
			for _, m := range []map[int]int64{c.PFCRxPause, c.PFCTxPause} {
				for p, v := range m {
					if p < 0 || p > 7 || v < 0 {
						t.Errorf("pause counter of priority %d = %d", p, v)
					}
				}
			}
			for name, v := range map[string]*int64{
				"ecn_marked": c.ECNMarked, "dropped": c.Dropped, "cnp_sent": c.CNPSent, "cnp_handled": c.CNPHandled,
				"out_of_sequence": c.OutOfSequence,
			} {
				if v != nil && *v < 0 {
					t.Errorf("%s = %d: a counter is never negative", name, *v)
				}
			}
		}
	})
}

// unquoteSh undoes shQuote the way sh reads a word: 'quoted' parts taken literally, \x outside
// quotes is x, and outside quotes nothing sh treats specially may appear. ok is false when the
// word is not one sh reads as a single literal word.
func unquoteSh(w string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c == '\'':
			j := strings.IndexByte(w[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(w[i+1 : i+1+j])
			i += j + 1
		case c == '\\' && i+1 < len(w) && w[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case isAlnum(c) || strings.IndexByte("_-./:,=+@%", c) >= 0:
			b.WriteByte(c)
		default:
			return "", false
		}
	}
	return b.String(), w != ""
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// FuzzValidNetdev: an accepted netdev name is 1-15 bytes of letters, digits, '_', '.' and '-'
// (not starting with '-' or '.'), so it reaches the scripts unquoted; and shQuote turns any
// name, accepted or not, into one sh word that reads back as the name.
func FuzzValidNetdev(f *testing.F) {
	for _, s := range []string{"eth0", "ens1f0np0", "_x", "a.b-c", "x23456789012345", "-eth0", ".", "eth0'; reboot #",
		"eth 0", "eth0\n", "", "x234567890123456", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		q := shQuote(name)
		if got, ok := unquoteSh(q); !ok || got != name {
			t.Errorf("shQuote(%q) = %s reads back as %q (ok %v)", name, q, got, ok)
		}
		if !ValidNetdev(name) {
			return
		}
		if len(name) > 15 || name[0] == '-' || name[0] == '.' {
			t.Errorf("accepted netdev %q", name)
		}
		for i := 0; i < len(name); i++ {
			if !isAlnum(name[i]) && strings.IndexByte("_.-", name[i]) < 0 {
				t.Errorf("accepted netdev %q with byte %q", name, name[i])
			}
		}
		if q != name {
			t.Errorf("accepted netdev %q needs quoting: %s", name, q)
		}
		if ReadScript(name, false) != strings.ReplaceAll(ReadScript("eth0", false), "eth0", name) {
			t.Errorf("ReadScript(%q) is not the eth0 script with the name replaced", name)
		}
	})
}
