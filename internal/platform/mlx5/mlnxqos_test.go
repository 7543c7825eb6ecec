package mlx5

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// want is what a report must parse to; nil slices and pointers mean "not printed".
type wantQoS struct {
	dcbx, trust string
	dscpShown   bool
	dscp        [64]int
	defaultPrio *int
	buffers     []int
	maxBuffer   *int
	cableLen    int
	pfc         []int // enabled priorities
	prio2buffer []int
	prioTC      [8]int
	tsa         [8]string
	bw          [8]int
	lldpad      bool
}

func TestParseMlnxQoSSamples(t *testing.T) {
	stock := [8]int{1, 0, 2, 3, 4, 5, 6, 7}
	vendor := [8]string{"vendor", "vendor", "vendor", "vendor", "vendor", "vendor", "vendor", "vendor"}
	oldMap := defaultDSCP()
	oldMap[26], oldMap[48], oldMap[46] = 3, 6, 5
	two := 2
	total := 262016
	tests := []struct {
		file string
		want wantQoS
	}{
		{"mlnx_qos-output-1.txt", wantQoS{ // real: OFED 4.x, trust dscp, no buffer lines, vendor TSA
			dcbx: DCBXOS, trust: "dscp", dscpShown: true, dscp: defaultDSCP(), cableLen: 7,
			pfc: []int{3}, prioTC: stock, tsa: vendor,
		}},
		{"mlnx_qos-output-3.txt", wantQoS{ // real: trust pcp, buffer line without suffix
			dcbx: DCBXOS, trust: "pcp", buffers: []int{524160, 0, 0, 0, 0, 0, 0, 0}, cableLen: 7,
			prio2buffer: make([]int, 8), prioTC: stock, tsa: vendor,
		}},
		{"mlnx_qos-output-3-dscp.txt", wantQoS{
			dcbx: DCBXOS, trust: "dscp", dscpShown: true, dscp: defaultDSCP(),
			buffers: []int{524160, 0, 0, 0, 0, 0, 0, 0}, cableLen: 7,
			prio2buffer: make([]int, 8), prioTC: stock, tsa: vendor,
		}},
		{"mlnx_qos-composed-old.txt", wantQoS{
			dcbx: DCBXOS, trust: "dscp", dscpShown: true, dscp: oldMap, defaultPrio: &two,
			buffers: []int{130944, 130944, 0, 0, 0, 0, 0, 0}, maxBuffer: &total, cableLen: 10,
			pfc: []int{3, 4}, prio2buffer: []int{0, 0, 0, 1, 1, 0, 0, 0}, prioTC: stock,
			tsa: [8]string{"ets", "ets", "ets", "ets", "ets", "ets", "strict", "ets"},
			bw:  [8]int{40, 10, 0, 50, 0, 0, 0, 0},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			s, err := parseReport(t, "eth4", fixture(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			checkQoS(t, s, tt.want)
		})
	}
}

func checkQoS(t *testing.T, s *HostState, w wantQoS) {
	t.Helper()
	var pfc []int
	for p, on := range s.PFC {
		if on {
			pfc = append(pfc, p)
		}
	}
	got := wantQoS{
		dcbx: s.DCBX, trust: s.Trust, dscpShown: s.DSCP2PrioShown, dscp: s.DSCP2Prio, defaultPrio: s.DefaultPriority,
		buffers: s.BufferSize, maxBuffer: s.MaxBufferSize, cableLen: s.CableLen, pfc: pfc, prio2buffer: s.Prio2Buffer,
		prioTC: s.PrioTC, tsa: s.TSA, bw: s.BW, lldpad: s.LLDPad,
	}
	if diff := cmp.Diff(w, got, cmp.AllowUnexported(wantQoS{})); diff != "" {
		t.Errorf("parsed state (-want +got):\n%s", diff)
	}
}

// TAB and space indentation, trailing blanks and CRLF line ends parse the same.
func TestParseMlnxQoSWhitespace(t *testing.T) {
	base := string(fixture(t, "mlnx_qos-output-1.txt"))
	want, err := parseReport(t, "eth4", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"tabs":     strings.ReplaceAll(base, "        ", "\t"),
		"crlf":     strings.ReplaceAll(base, "\n", "\r\n"),
		"trailing": strings.ReplaceAll(base, "\n", "  \n"),
	} {
		got, err := parseReport(t, "eth4", []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.DSCP2Prio != want.DSCP2Prio || got.PFC != want.PFC || got.PrioTC != want.PrioTC || got.TSA != want.TSA {
			t.Errorf("%s: parsed differently", name)
		}
	}
}

func TestParseMlnxQoSFailures(t *testing.T) {
	ok := string(fixture(t, "mlnx_qos-output-1.txt"))
	tests := []struct {
		name, out, want string
	}{
		{"empty", "", "printed nothing"},
		{"not installed", "sh: 1: mlnx_qos: not found\n@@failed", "mlnx_qos is not installed"},
		{"no interface", "Priority trust state is not supported on your system\nBuffers commands are not supported on your system\n" +
			"Rate limit is not supported on your system!\nETS features are not supported on your system\n@@failed",
			"ETS features are not supported on your system: the interface does not exist"},
		{"eperm", "Netlink error: Operation not permitted (1)\n@@failed", "set sudo = true"},
		{"netlink", "Netlink error: Bad value. see dmesg.\n@@failed", "kernel refused the DCB netlink request: Netlink error: Bad value"},
		{"traceback", "Traceback (most recent call last):\n  File \"/usr/bin/mlnx_qos\", line 3\nOSError: boom\n@@failed", "failed: OSError: boom"},
		{"failed after report", ok + "\n@@failed", "failed: DCBX mode"},
		{"no pfc row", strings.Replace(ok, "enabled     0   0   0   1   0   0   0   0", "", 1), "lacks the PFC enabled row"},
		{"pfc row short", strings.Replace(ok, "enabled     0   0   0   1   0   0   0   0", "enabled     0   0   0   1", 1), "lacks the PFC enabled row"},
		{"pfc value 2", strings.Replace(ok, "enabled     0   0   0   1", "enabled     0   0   0   2", 1), "PFC enabled row has 2"},
		{"missing priority", strings.Replace(ok, "priority:  7", "", 1), "lacks the TC of priority 7"},
		{"priority twice", strings.Replace(ok, "priority:  7", "priority:  6", 1), `unexpected line "priority:  6"`},
		{"dscp twice", strings.Replace(ok, "prio:1 dscp:15,", "prio:1 dscp:26,", 1), "DSCP 26 under priority 1 and priority 3"},
		{"bad tsa", strings.Replace(ok, "tsa: vendor\n", "tsa: wfq\n", 1), "unexpected TSA"},
		{"bw 101", strings.Replace(ok, "tsa: vendor\n", "tsa: ets, bw: 101%\n", 1), "bandwidth 101%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseReport(t, "eth4", []byte(tt.out))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "mlnx_qos -i eth4: ") {
				t.Errorf("error %q does not name the command", err)
			}
		})
	}
}

// Without the "tc: N ratelimit: R, " prefix (rate limit unreadable), TSA lines count up from TC 0.
func TestParseMlnxQoSBareTSA(t *testing.T) {
	ok := string(fixture(t, "mlnx_qos-output-1.txt"))
	var b strings.Builder
	for _, l := range strings.Split(ok, "\n") {
		if i := strings.Index(l, "tsa: "); strings.HasPrefix(l, "tc: ") && i > 0 {
			l = l[i+len("tsa: "):]
			if strings.HasPrefix(l, "vendor") && b.Len()%2 == 0 {
				l = "strict"
			}
		}
		b.WriteString(l + "\n")
	}
	s, err := parseReport(t, "eth4", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if s.PrioTC != [8]int{1, 0, 2, 3, 4, 5, 6, 7} || slices.Contains(s.TSA[:], "") {
		t.Errorf("prio_tc %v tsa %v", s.PrioTC, s.TSA)
	}
}
