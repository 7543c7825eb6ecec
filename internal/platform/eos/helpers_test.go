package eos

import (
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// examplePolicy is the contract's roce_qos_policy example without its eos-unsupported mtu,
// bound to Ethernet1 and Ethernet2.
func examplePolicy() *fabric.QoSPolicy {
	return fabrictest.WithoutMTU(fabrictest.ExamplePolicy("Ethernet1", "Ethernet2"))
}

// updatedPolicy changes the roce ECN and share, adds a lossless storage class with ECN,
// unbinds Ethernet2 and binds Ethernet3.
func updatedPolicy() *fabric.QoSPolicy {
	return fabrictest.Updated(examplePolicy(),
		fabric.ECN{MinThresholdBytes: 76800, MaxThresholdBytes: 768000, MarkProbabilityPercent: 20}, "Ethernet1", "Ethernet3")
}

// golden compares got with testdata/name, rewriting it under -update.
var golden = goldenfile.Testdata

// running parses running-configs: running.File one under testdata, running.Text a text.
var running = platformtest.Parser[*Config](ParseRunningConfig)

// dialect is EOS's side of the tests both CLI platforms run alike (platformtest.Dialect).
var dialect = platformtest.Dialect[*Config]{Parse: running, Layout: "eos-switch-running-config.txt",
	Example: examplePolicy, Updated: updatedPolicy, PolicyLines: platformtest.WithPrior(PolicyLines, basePrior),
	Thresholds: queueThresholds, Unknown: Unknown, OwnUnits: [][2]string{{"320", "segments"}, {"5", "milliseconds"}}}

// sampleParts splits testdata/eos-running-config-qos-1.txt (the shared sample, source header
// kept) into its parts (A), (B) and (C) at their "# (X)" headers; other '#' lines are the
// sample's annotations, not EOS text, and are dropped.
func sampleParts(t *testing.T) map[string]string {
	t.Helper()
	parts := map[string]string{}
	part := ""
	for _, line := range strings.Split(goldenfile.Read(t, "testdata/eos-running-config-qos-1.txt"), "\n") {
		if h, ok := strings.CutPrefix(line, "# ("); ok && len(h) > 1 && h[1] == ')' {
			part = h[:1]
			continue
		}
		if strings.HasPrefix(line, "#") || part == "" {
			continue
		}
		parts[part] += line + "\n"
	}
	if len(parts) != 3 {
		t.Fatalf("sample: want parts A, B and C, found %d", len(parts))
	}
	return parts
}
