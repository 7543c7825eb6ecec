package provider

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// TestAccTwoRunsOnOneNIC: two Terraform processes apply different NIC QoS to the same netdev at
// the same moment. Each write holds the netdev's lock, so they take turns: both applies
// succeed, and the NIC ends up exactly as one of the two configurations says (never a mix),
// which the other run's next plan reports as drift.
func TestAccTwoRunsOnOneNIC(t *testing.T) {
	l := hostLab(t)
	h := l.Host("mlx5-1")
	inventory := filepath.Join(l.dir, lab.InventoryFile)
	provider := requiredProvidersHCL + `
provider "roce" {
  timeout = "20s"
  devices = jsondecode(file("` + inventory + `")).devices
}
`
	configs := map[string]string{"a": ets5050, "b": ets4060}
	runs := map[string]*tfCLI{}
	for name, ets := range configs {
		dir := t.TempDir()
		writeMain(t, dir, provider+nicHCL("eth0", "3", ets))
		runs[name] = newTFCLI(t, dir)
		runs[name].must("init", "-input=false", "-no-color")
	}
	var wg sync.WaitGroup
	for name, tf := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, code := tf.run("apply", "-auto-approve", "-input=false", "-no-color"); code != 0 {
				t.Errorf("run %s: apply exited %d:\n%s", name, code, out)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	// Exactly one configuration is on the NIC: its run's plan is empty, the other's is not.
	empty := 0
	for name, tf := range runs {
		out, code := tf.run("plan", "-detailed-exitcode", "-input=false", "-no-color")
		switch code {
		case 0:
			empty++
		case 2:
		default:
			t.Fatalf("run %s: plan exited %d:\n%s", name, code, out)
		}
	}
	if empty != 1 {
		t.Fatalf("%d of the two runs see the NIC as they configured it, want exactly 1 (a mix of both, or neither):\n%s",
			empty, hostSettings(t, h))
	}
}
