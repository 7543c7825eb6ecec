package fabric_test

import (
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
)

// A CLI platform refuses, in one error naming it and the policy, what it does not support and
// ECN thresholds that are not whole kilobytes; a policy it can write passes.
func TestCheckKilobyteCLI(t *testing.T) {
	p := fabrictest.WithoutMTU(fabrictest.ExamplePolicy("Ethernet1"))
	if err := fabric.CheckKilobyteCLI("eos", *p, nil); err != nil {
		t.Fatalf("the example: %v", err)
	}
	fabrictest.WithClass(p, "roce", func(c *fabric.Class) { c.ECN.MinThresholdBytes = 150000 })
	err := fabric.CheckKilobyteCLI("nxos", *p, []fabric.Unsupported{{Attr: []string{"classes", "roce", "mtu"}, Reason: "no mtu here"}})
	want := `nxos: policy "ROCE": classes["roce"].mtu: no mtu here; ` + fabric.ECNWholeKilobytes(*p)[0].Error()
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
