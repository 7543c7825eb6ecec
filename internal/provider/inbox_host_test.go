package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// inboxLab is a host with the distribution's mlx5 driver: no MLNX_OFED (no mlnx_qos, no ecn
// tree, no traffic_class), iproute2's dcb and mstflint's mstconfig.
func inboxLab(t *testing.T) *accLab {
	return startLab(t, lab.Options{Switches: map[string]int{}, Hosts: map[string]int{"mlx5": 1},
		Models: map[string]string{"mlx5": lab.MLX5Inbox}})
}

// TestAccDCQCNInboxHost: on an upstream driver the DCQCN priorities are the firmware's
// ROCE_CC_PRIO_MASK. A profile whose priorities the firmware does not have is a plan-time error
// naming the roce_nic_firmware value; once the firmware has it (set, then a cold reboot), the
// profile writes its cc_params, reads the priorities from the firmware, and a hand change of
// a parameter is drift.
func TestAccDCQCNInboxHost(t *testing.T) {
	l := inboxLab(t)
	h := l.Host("mlx5-1")
	o := l.openSSH(t, "mlx5-1")
	aiRate := "sudo -n cat /sys/kernel/debug/mlx5/0000:08:00.0/cc_params/rp_ai_rate"
	fw := firmwareHCL(`ROCE_CC_PRIO_MASK_P1 = "8"`)
	cfg := l.providerHCL() + fw + dcqcnHCL("3", 10)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				Config:      l.providerHCL() + dcqcnHCL("3", 10),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)/sys/class/net/eth0/ecn/roce_rp/enable.*current mask is 255.*ROCE_CC_PRIO_MASK_P1 = "8"`),
			},
			{Config: l.providerHCL() + fw}, // Next Boot only: the profile still cannot work
			{
				Config:      cfg,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)current mask is 255`),
			},
			{
				PreConfig: h.Reboot,
				Config:    cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(dcqcnRes, "priorities.#", "1"),
					resource.TestCheckResourceAttr(dcqcnRes, "priorities.0", "3"),
					resource.TestCheckResourceAttr(fwRes, "pending_reboot", "false"),
					func(*terraform.State) error {
						if got := o.run(t, aiRate); got != "10\n" {
							return fmt.Errorf("rp_ai_rate = %q after apply, want 10", got)
						}
						return nil
					},
				),
			},
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ // a hand change of a parameter is drift, repaired by apply
				PreConfig: func() {
					o.run(t, "echo 30 | sudo -n tee /sys/kernel/debug/mlx5/0000:08:00.0/cc_params/rp_ai_rate >/dev/null")
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(dcqcnRes, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if got := o.run(t, aiRate); strings.TrimSpace(got) != "10" {
						return fmt.Errorf("rp_ai_rate = %q after the repair, want 10", got)
					}
					return nil
				},
			},
		},
	})
}
