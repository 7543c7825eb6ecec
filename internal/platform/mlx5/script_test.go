package mlx5

import (
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

func TestScriptGoldens(t *testing.T) {
	s, nic, d := contractOnFullHost(t)
	// The prior state for restore: stock NIC (trust pcp, stock prio_tc, vendor TSA, no global
	// traffic class) with cc defaults and DCQCN on every priority.
	prior := readFixture(t, "read-upstream.txt")
	prior.PCIAddress, prior.RDMADev, prior.CCParams, prior.RP, prior.NP = s.PCIAddress, s.RDMADev, s.CCParams, [8]int{1, 1, 1, 1, 1, 1, 1, 1}, [8]int{1, 1, 1, 1, 1, 1, 1, 1}
	pcp := fabric.NICQoS{Interface: "eth0", Trust: fabric.TrustPCP, PFCPriorities: []int{3, 4}}
	for _, sudo := range []bool{true, false} {
		suffix := map[bool]string{true: "-sudo", false: "-nosudo"}[sudo]
		for name, got := range map[string]string{
			"read":          ReadScript("eth0", sudo),
			"apply-nic":     ApplyScript("eth0", s, &nic, nil, sudo),
			"apply-dcqcn":   ApplyScript("eth0", s, nil, &d, sudo),
			"apply-both":    ApplyScript("eth0", s, &nic, &d, sudo),
			"apply-pcp":     ApplyScript("eth0", s, &pcp, nil, sudo),
			"restore-both":  RestoreScript("eth0", prior, &nic, &d, sudo),
			"restore-dscp":  RestoreScript("eth0", s, &pcp, nil, sudo),
			"apply-nothing": ApplyScript("eth0", s, nil, nil, sudo),
		} {
			if strings.Contains(got, "\n") {
				t.Errorf("%s%s spans lines", name, suffix)
			}
			golden(t, name+suffix+".sh", got+"\n")
		}
	}
}

func TestScriptShapes(t *testing.T) {
	s, nic, d := contractOnFullHost(t)
	got := ApplyScript("eth0", s, &nic, &d, true)
	for _, want := range []string{
		"sudo -n mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,1,0,0,0,0 -p 0,0,0,3,0,0,6,0 -s ets,ets,ets,ets,ets,ets,strict,ets -t 50,0,0,50,0,0,0,0 && ",
		" --dscp2prio set,0,0 ", " --dscp2prio set,26,3 ", " --dscp2prio set,63,0 && ",
		"echo 106 | sudo -n tee /sys/class/net/eth0/device/infiniband/mlx5_0/tc/1/traffic_class > /dev/null && ",
		"echo 1 | sudo -n tee /sys/class/net/eth0/ecn/roce_np/enable/3 > /dev/null",
		"echo 6 | sudo -n tee /sys/kernel/debug/mlx5/0000:3b:00.0/cc_params/np_cnp_prio > /dev/null'",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("apply script lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "--dscp2prio"); n != 64 {
		t.Errorf("%d dscp2prio entries", n)
	}
	if strings.Contains(got, "np_cnp_prio_mode") {
		t.Error("apply writes np_cnp_prio_mode")
	}
	restore := RestoreScript("eth0", s, &nic, &d, false)
	if i, j := strings.Index(restore, "/np_cnp_prio && "), strings.Index(restore, "/np_cnp_prio_mode"); i < 0 || j < i {
		t.Errorf("restore writes np_cnp_prio_mode before np_cnp_prio:\n%s", restore)
	}
}

func TestShQuote(t *testing.T) {
	for in, want := range map[string]string{
		"eth0": "eth0", "0000:3b:00.0": "0000:3b:00.0", "set,26,3": "set,26,3", "": "''",
		"a b": "'a b'", "it's": `'it'\''s'`, "$(reboot)": "'$(reboot)'", "a*": "'a*'", "x;y": "'x;y'",
	} {
		if got := shQuote(in); got != want {
			t.Errorf("shQuote(%q) = %s, want %s", in, got, want)
		}
	}
	if !ValidNetdev("eth0") || ValidNetdev("eth0;reboot") {
		t.Error("ValidNetdev")
	}
}

// The read script quoted in the package documentation (for the lab author) is the real one.
func TestDocShowsReadScript(t *testing.T) {
	checkDocExample(t, `ReadScript("eth0", true) is (one line):`, ReadScript("eth0", true))
}
