package provider

import (
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// Two Terraform runs writing the same NIC: each write holds the netdev's flock lock
// (/run/lock/roce-<netdev>.lock), so they take turns instead of interleaving.

// TestAccHostWriteWaitsForAnotherRun: every write to a NIC holds the netdev's flock lock, so a
// second Terraform run writing the same NIC waits for the first instead of interleaving with
// it. Here the other run holds the lock past this run's wait: the apply fails saying so and
// the host is untouched; once the lock is free the apply goes through.
func TestAccHostWriteWaitsForAnotherRun(t *testing.T) {
	l := hostLab(t)
	h := l.Host("mlx5-1")
	before, _, _ := h.Run("mlnx_qos -i eth0 -a")
	var release func()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { release = h.HoldLock("/run/lock/roce-eth0.lock") },
				// providerHCL's timeout is 10s: the write waits 5s for the lock.
				Config:      l.providerHCL() + nicHCL("eth0", "3", ets5050),
				ExpectError: regexp.MustCompile(`(?s)Cannot create NIC QoS of "eth0" on device "mlx5-1".*another run is\s+changing eth0.*/run/lock/roce-eth0.lock.*nothing was\s+changed`),
			},
			{
				PreConfig: func() {
					if after, _, _ := h.Run("mlnx_qos -i eth0 -a"); after != before {
						t.Fatalf("the write that found the lock held changed the NIC:\n%s", after)
					}
					release()
				},
				Config: l.providerHCL() + nicHCL("eth0", "3", ets5050),
			},
		},
	})
}

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
		runs[name] = initCLI(t, dir)
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
