package nxos

import (
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext/clitexttest"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// examplePolicy is the contract's roce_qos_policy example bound to Ethernet1/1 and
// Ethernet1/2. PCP is not written under trust dscp.
func examplePolicy() *fabric.QoSPolicy { return fabrictest.ExamplePolicy("Ethernet1/1", "Ethernet1/2") }

// updatedPolicy widens roce's DSCPs, changes its ECN and share and lets go of its mtu; adds a
// lossless storage class with an mtu; replaces cnp (strict, TC 6) by control (strict, TC 7);
// gives default an mtu; unbinds Ethernet1/2 and binds Ethernet1/3.
func updatedPolicy() *fabric.QoSPolicy {
	p := examplePolicy()
	fabrictest.WithClass(p, "roce", func(c *fabric.Class) {
		c.DSCP, c.MTU, c.BandwidthPercent = []int{24, 26}, nil, fabric.Ptr(40)
		c.ECN = &fabric.ECN{MinThresholdBytes: 76800, MaxThresholdBytes: 768000, MarkProbabilityPercent: 20}
	})
	fabrictest.WithClass(p, "default", func(c *fabric.Class) { c.MTU = fabric.Ptr(9216) })
	delete(p.Classes, "cnp")
	p.Classes["control"] = fabric.Class{TrafficClass: 7, DSCP: []int{48}, StrictPriority: true}
	p.Classes["storage"] = fabrictest.StorageClass()
	fabrictest.WithClass(p, "storage", func(c *fabric.Class) { c.MTU = fabric.Ptr(9216) })
	p.Interfaces = []string{"Ethernet1/1", "Ethernet1/3"}
	return p
}

// pcpPolicy is the example with trust pcp: roce PCP 3, cnp PCP 6, default none; unlisted
// CoS values go to TC 1, which has no class.
func pcpPolicy() *fabric.QoSPolicy {
	p := examplePolicy()
	p.Trust, p.DefaultTrafficClass, p.Interfaces = fabric.TrustPCP, 1, []string{"Ethernet1/4"}
	fabrictest.WithClass(p, "cnp", func(c *fabric.Class) { c.PCP = []int{6} })
	return p
}

// examplePFC is roce_pfc_interface on Ethernet1/3 with mode on, a buffer and the watchdog.
func examplePFC() *fabric.PFCInterface {
	return &fabric.PFCInterface{Interface: "Ethernet1/3", Mode: fabric.PFCModeOn,
		Buffer:   &fabric.PFCBuffer{XoffBytes: fabric.Ptr(int64(122880)), XonBytes: fabric.Ptr(int64(61440))},
		Watchdog: &fabric.PFCWatchdog{Action: fabric.WatchdogDrop}}
}

// golden compares got with testdata/name, rewriting it under -update.
var golden = goldenfile.Testdata

// running parses running-configs: running.File one under testdata, running.Text a text.
var running = platformtest.Parser[*Config](ParseRunningConfig)

// dialect is NX-OS's side of the tests both CLI platforms run alike (platformtest.Dialect).
var dialect = platformtest.Dialect[*Config]{Parse: running, Layout: "nxos-switch-running-config.txt",
	Example: examplePolicy, Updated: updatedPolicy, PolicyLines: platformtest.WithPrior(PolicyLines, basePrior),
	Thresholds: queueThresholds, Unknown: Unknown, OwnUnits: [][2]string{{"320", "packets"}, {"5", "us"}}}

// sample is testdata/nxos-running-config-ipqos-1.txt (the shared sample, source header kept)
// without its '#' annotation lines, which are not NX-OS text.
func sample(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(goldenfile.Read(t, "testdata/nxos-running-config-ipqos-1.txt"), "\n") {
		if !strings.HasPrefix(line, "#") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// enters reports whether a configuration line enters a sub-mode.
func enters(l string) bool {
	for _, p := range []string{"class-map ", "policy-map ", "class ", "interface "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return l == "system qos"
}

// indent renders configuration lines as running-config text, two spaces a sub-mode.
func indent(t *testing.T, ls []string) string {
	t.Helper()
	return clitexttest.Indent(t, ls, "  ", enters)
}
