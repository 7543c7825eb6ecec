package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
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
				ConfigPlanChecks: expectEmptyPlan,
			},
			{ // a hand change of a parameter is drift, repaired by apply
				PreConfig: func() {
					o.run(t, "echo 30 | sudo -n tee /sys/kernel/debug/mlx5/0000:08:00.0/cc_params/rp_ai_rate >/dev/null")
				},
				Config:           cfg,
				ConfigPlanChecks: expectUpdates(dcqcnRes),
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

// inboxNIC is nicHCL without roce_tos (the traffic_class file is MLNX_OFED's).
func inboxNIC(pfc, ets string) string {
	return strings.Replace(nicHCL("eth0", pfc, ets), "  roce_tos = 106\n", "", 1)
}

// TestAccNICQoSInboxHost: on a host without mlnx_qos, roce_nic_qos is applied and read with
// iproute2's dcb (recorded as tool = "dcb"), which an operator's dcb over OpenSSH confirms;
// a hand change is drift; import reads the host through dcb; a reboot is undone by the boot
// unit, which runs dcb too; destroy puts the stock settings back; roce_tos is refused at plan.
func TestAccNICQoSInboxHost(t *testing.T) {
	l := inboxLab(t)
	o := l.openSSH(t, "mlx5-1")
	show := func() string {
		return o.run(t, "dcb -N app show dev eth0; dcb pfc show dev eth0 prio-pfc; dcb ets show dev eth0 tc-tsa tc-bw prio-tc")
	}
	before := show()
	cfg := l.providerHCL() + inboxNIC("3", ets5050)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			if after := show(); after != before {
				return fmt.Errorf("destroy did not restore the NIC:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if got := o.run(t, "ls /etc/systemd/system"); strings.Contains(got, "roce-nic-qos-eth0") {
				return fmt.Errorf("destroy left the boot unit: %s", got)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config:      l.providerHCL() + nicHCL("eth0", "3", ets5050),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)roce_tos: the host has no.*traffic_class.*MLNX_OFED`),
			},
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(nicRes, "tool", "dcb"),
					func(*terraform.State) error {
						got := show()
						for _, want := range []string{" 26:3 ", " 48:6 ", "prio-pfc 0:off 1:off 2:off 3:on 4:off",
							"tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets", "tc-bw 0:50 1:0 2:0 3:50",
							"prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0"} {
							if !strings.Contains(got, want) {
								return fmt.Errorf("dcb on the host lacks %q:\n%s", want, got)
							}
						}
						if unit := o.run(t, "cat /etc/systemd/system/roce-nic-qos-eth0.service"); !strings.Contains(unit, "dcb app add dev eth0 dscp-prio") {
							return fmt.Errorf("the boot unit does not use dcb:\n%s", unit)
						}
						return nil
					},
				),
			},
			{
				Config:           cfg,
				ConfigPlanChecks: expectEmptyPlan,
			},
			{ // PFC turned on by hand on priority 5: drift, repaired
				PreConfig:        func() { o.run(t, "sudo -n dcb pfc set dev eth0 prio-pfc 5:on") },
				Config:           cfg,
				ConfigPlanChecks: expectUpdates(nicRes),
				Check: func(*terraform.State) error {
					if got := o.run(t, "dcb pfc show dev eth0 prio-pfc"); !strings.Contains(got, "4:off 5:off") {
						return fmt.Errorf("the drift was not repaired: %s", got)
					}
					return nil
				},
			},
			{ // a reboot: the boot unit writes the settings again with dcb
				PreConfig:        l.Host("mlx5-1").Reboot,
				Config:           cfg,
				ConfigPlanChecks: expectEmptyPlan,
			},
			{
				ResourceName: nicRes, ImportState: true, ImportStateId: "mlx5-1/eth0",
				ImportStateCheck: importedAttrs(map[string]string{"tool": "dcb", "trust": "dscp", "dscp_to_priority.26": "3", "pfc_priorities.#": "1",
					"ets.6.strict_priority": "true", "ets.0.bandwidth_percent": "50", "persist": "true"}),
			},
		},
	})
}
