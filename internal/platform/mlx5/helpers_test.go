package mlx5

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

// fixture reads testdata/name without its leading "#" header lines (source notes): a test's
// input or a fuzz target's seed.
func fixture(tb testing.TB, name string) []byte {
	tb.Helper()
	lines := strings.SplitAfter(goldenfile.Read(tb, "testdata/"+name), "\n")
	for len(lines) > 0 && strings.HasPrefix(lines[0], "#") {
		lines = lines[1:]
	}
	return []byte(strings.Join(lines, ""))
}

// golden compares got with testdata/golden/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", "golden", name), got)
}

// parseReport parses a bare mlnx_qos report (no markers) for ifname.
func parseReport(t *testing.T, ifname string, report []byte) (*HostState, error) {
	t.Helper()
	s := &HostState{Interface: ifname}
	err := parseMlnxQoS(s, strings.Split(string(report), "\n"))
	return s, err
}

// readFixture parses a read-script fixture.
func readFixture(t *testing.T, name string) *HostState {
	t.Helper()
	s, err := ParseRead("eth0", fixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// contractOnFullHost is the MLNX_OFED host of read-full.txt with the contract's NIC QoS and
// DCQCN for its eth0: what the script, boot unit and snapshot tests write on it.
func contractOnFullHost(t *testing.T) (*HostState, fabric.NICQoS, fabric.DCQCN) {
	t.Helper()
	return readFixture(t, "read-full.txt"), contractNIC(), contractDCQCN()
}

// contractNIC and contractDCQCN are the contract's examples for eth0.
func contractNIC() fabric.NICQoS {
	return fabric.NICQoS{
		Interface: "eth0", Trust: fabric.TrustDSCP, PFCPriorities: []int{3},
		DSCPToPriority: map[int]int{26: 3, 48: 6},
		PriorityToTC:   map[int]int{3: 3, 6: 6},
		ETS: map[int]fabric.ETSClass{
			0: {BandwidthPercent: fabric.Ptr(50)}, 3: {BandwidthPercent: fabric.Ptr(50)}, 6: {StrictPriority: true},
		},
		RoCEToS: fabric.Ptr(106),
	}
}

func contractDCQCN() fabric.DCQCN {
	return fabric.DCQCN{
		Interface: "eth0", Priorities: []int{3}, CNPDSCP: 48, CNPPriority: 6,
		ReactionPoint: map[string]int64{
			"time_reset_us": 300, "byte_reset": 32767, "threshold": 1, "ai_rate_mbps": 5, "hai_rate_mbps": 50,
			"min_rate_mbps": 1, "max_rate_mbps": 0, "dce_tcp_g": 1019, "dce_tcp_rtt_us": 1, "initial_alpha": 1023,
			"rate_reduce_monitor_period_us": 4, "min_dec_factor_percent": 50, "gd": 11,
			"rate_to_set_on_first_cnp_mbps": 0, "clamp_target_rate": 0, "clamp_target_rate_after_time_inc": 1,
		},
		NotificationPoint: map[string]int64{"min_time_between_cnps_us": 4},
	}
}

// defaultDSCP is mlx5's stock map, dscp>>3.
func defaultDSCP() [64]int {
	var a [64]int
	for d := range a {
		a[d] = d >> 3
	}
	return a
}

// checkDocExample asserts that doc.go shows script under the comment line intro, then an empty
// comment line, as tab-indented comment lines that join (with spaces) into script.
func checkDocExample(t *testing.T, intro, script string) {
	t.Helper()
	doc := goldenfile.Read(t, "doc.go")
	start := strings.Index(doc, "// "+intro+"\n//\n")
	if start < 0 {
		t.Fatalf("doc.go lost the example under %q", intro)
	}
	var parts []string
	for _, l := range strings.Split(doc[start:], "\n")[2:] {
		p, ok := strings.CutPrefix(l, "//\t")
		if !ok {
			break
		}
		parts = append(parts, p)
	}
	if got := strings.Join(parts, " "); got != script {
		t.Errorf("doc.go shows:\n%s\nthe script is:\n%s", got, script)
	}
}
