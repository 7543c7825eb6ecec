package openconfig

import (
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// examplePolicy is the contract's roce_qos_policy example without its openconfig-unsupported
// attributes (lossless, pcp, mtu), bound to Ethernet1 and Ethernet2.
func examplePolicy() *fabric.QoSPolicy {
	return fabrictest.WithClass(fabrictest.WithoutMTU(fabrictest.ExamplePolicy("Ethernet1", "Ethernet2")), "roce",
		func(c *fabric.Class) { c.PCP, c.Lossless = nil, false })
}

// updatedPolicy renames examplePolicy, changes the roce ECN, adds a class and unbinds
// Ethernet2 in favour of Ethernet3.
func updatedPolicy() *fabric.QoSPolicy {
	p := fabrictest.Updated(examplePolicy(),
		fabric.ECN{MinThresholdBytes: 307200, MaxThresholdBytes: 3072000, MarkProbabilityPercent: 20}, "Ethernet1", "Ethernet3")
	p.Name = "AI"
	return fabrictest.WithClass(p, "storage", func(c *fabric.Class) { c.Lossless = false })
}

// renderSet renders a SetRequest with each value indented below its path.
func renderSet(t *testing.T, req *gpb.SetRequest) string {
	t.Helper()
	return platformtest.RenderSet(t, req, pathKey, true)
}

// golden compares got with testdata/name, rewriting it under -update.
var golden = goldenfile.Testdata
