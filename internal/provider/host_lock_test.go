package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

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
