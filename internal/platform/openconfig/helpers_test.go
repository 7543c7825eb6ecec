package openconfig

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
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
	p := fabrictest.WithClass(examplePolicy(), "roce", func(c *fabric.Class) {
		c.ECN = &fabric.ECN{MinThresholdBytes: 307200, MaxThresholdBytes: 3072000, MarkProbabilityPercent: 20}
		c.BandwidthPercent = fabric.Ptr(40)
	})
	p.Name = "AI"
	p.Classes["storage"] = fabrictest.StorageClass()
	fabrictest.WithClass(p, "storage", func(c *fabric.Class) { c.Lossless = false })
	p.Interfaces = []string{"Ethernet1", "Ethernet3"}
	return p
}

// renderSet renders a SetRequest stably (prototext output is deliberately unstable): one line
// per operation with its path, then the JSON_IETF value indented.
func renderSet(t *testing.T, req *gpb.SetRequest) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("prefix origin=" + req.GetPrefix().GetOrigin() + "\n")
	for _, p := range req.Delete {
		b.WriteString("delete  " + pathKey(p) + "\n")
	}
	for _, kind := range []struct {
		name string
		ups  []*gpb.Update
	}{{"replace", req.Replace}, {"update ", req.Update}} {
		for _, u := range kind.ups {
			b.WriteString(kind.name + " " + pathKey(u.Path) + "\n")
			var out bytes.Buffer
			if err := json.Indent(&out, u.GetVal().GetJsonIetfVal(), "    ", "  "); err != nil {
				t.Fatalf("value of %s is not JSON: %v", pathKey(u.Path), err)
			}
			b.WriteString("    " + out.String() + "\n")
		}
	}
	return b.String()
}

// golden compares got with testdata/name, rewriting it under -update.
var golden = goldenfile.Testdata
