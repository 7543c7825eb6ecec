package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

const fwRes = "roce_nic_firmware.gpu"

func firmwareHCL(params string) string {
	return fmt.Sprintf(`
resource "roce_nic_firmware" "gpu" {
  device    = "mlx5-1"
  interface = "eth0"
  parameters = {
    %s
  }
}
`, params)
}

// TestAccNICFirmware: the NV parameters are set as Next Boot, pending_reboot holds until a cold
// reboot (not a warm one), then current shows them and the driver's defaults follow (the ECN
// priority mask); a hand change is drift; an unknown name is a plan-time error; destroy
// writes back the values read before create.
func TestAccNICFirmware(t *testing.T) {
	l := hostLab(t)
	h := l.Host("mlx5-1")
	o := l.openSSH(t, "mlx5-1")
	query := "sudo -n mstconfig -d 0000:08:00.0 -e q ROCE_CC_PRIO_MASK_P1 CNP_DSCP_P1 LINK_TYPE_P1"
	before := o.run(t, query)
	cfg := l.providerHCL() + firmwareHCL(`ROCE_CC_PRIO_MASK_P1 = "8"
    CNP_DSCP_P1          = "48"
    LINK_TYPE_P1         = "ETH(2)"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			// Next Boot is back as before create (Current stays what the last cold boot loaded).
			after := o.run(t, query)
			if !strings.Contains(after, "ROCE_CC_PRIO_MASK_P1                255             8               255") {
				return fmt.Errorf("destroy did not restore Next Boot:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{ // the tool refuses (a rule it checks when applying): nothing is written, nothing recorded
				Config:      l.providerHCL() + firmwareHCL(`RPG_MIN_DEC_FAC_P1 = "150"`),
				ExpectError: regexp.MustCompile(`(?s)mstconfig refused the change \(exit 3\): Parameter RPG_MIN_DEC_FAC_P1' value is\s+larger than maximum allowed 100; the firmware configuration is as it was`),
			},
			{
				Config:      l.providerHCL() + firmwareHCL(`LINK_TYPE_P3 = "ETH"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Unknown firmware parameter LINK_TYPE_P3.*mstconfig -d mlx5_0 q on device "mlx5-1" lists no parameter.*LINK_TYPE_P3.*LINK_TYPE_P1, LINK_TYPE_P2`),
			},
			{
				Config:      l.providerHCL() + firmwareHCL(`CNP_DSCP_P1 = "48; reboot"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)parameters\["CNP_DSCP_P1"\] must be a value as mlxconfig prints`),
			},
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(fwRes, "pending_reboot", "true"),
					resource.TestCheckResourceAttr(fwRes, "current.ROCE_CC_PRIO_MASK_P1", "255"),
					resource.TestCheckResourceAttr(fwRes, "current.LINK_TYPE_P1", "ETH(2)"),
					resource.TestCheckResourceAttr(fwRes, "tool", "mstconfig"),
					func(*terraform.State) error {
						if out := o.run(t, query); !strings.Contains(out, "*        ROCE_CC_PRIO_MASK_P1                255             255             8") {
							return fmt.Errorf("Next Boot not set on the adapter:\n%s", out)
						}
						return nil
					},
				),
			},
			{ // import lists every parameter with its Next Boot value
				ResourceName: fwRes, ImportState: true, ImportStateId: "mlx5-1/eth0",
				ImportStateCheck: importedAttrs(map[string]string{"parameters.ROCE_CC_PRIO_MASK_P1": "8", "parameters.CNP_DSCP_P2": "48", "parameters.%": "52",
					"current.ROCE_CC_PRIO_MASK_P1": "255", "pending_reboot": "true", "tool": "mstconfig"}),
			},
			{ // a warm reboot does not load the firmware configuration
				PreConfig:        h.WarmReboot,
				Config:           cfg,
				ConfigPlanChecks: expectEmptyPlan,
				Check:            resource.TestCheckResourceAttr(fwRes, "pending_reboot", "true"),
			},
			{ // a cold one does; the driver's ECN enables follow ROCE_CC_PRIO_MASK
				PreConfig:        h.Reboot,
				Config:           cfg,
				ConfigPlanChecks: expectEmptyPlan,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(fwRes, "pending_reboot", "false"),
					resource.TestCheckResourceAttr(fwRes, "current.ROCE_CC_PRIO_MASK_P1", "8"),
					func(*terraform.State) error {
						if got := o.run(t, "cat /sys/class/net/eth0/ecn/roce_np/enable/3 /sys/class/net/eth0/ecn/roce_np/enable/0"); got != "1\n0\n" {
							return fmt.Errorf("ECN enables after the cold reboot: %q, want priority 3 only", got)
						}
						return nil
					},
				),
			},
			{ // changed by hand: drift, repaired by apply
				PreConfig:        func() { o.run(t, "sudo -n mstconfig -d mlx5_0 -y set CNP_DSCP_P1=26 >/dev/null") },
				Config:           cfg,
				ConfigPlanChecks: expectUpdates(fwRes),
				Check: func(*terraform.State) error {
					if out := o.run(t, query); !strings.Contains(out, "CNP_DSCP_P1                         48              48              48") {
						return fmt.Errorf("the drift was not repaired:\n%s", out)
					}
					return nil
				},
			},
		},
	})
}

// A host with NVIDIA MFT instead of mstflint: the same resource through mlxconfig.
func TestAccNICFirmwareMFT(t *testing.T) {
	l := hostLab(t)
	l.Host("mlx5-1").UseMFT()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{{
			Config: l.providerHCL() + firmwareHCL(`CNP_802P_PRIO_P1 = "5"`),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(fwRes, "tool", "mlxconfig"),
				resource.TestCheckResourceAttr(fwRes, "pending_reboot", "true"),
				resource.TestCheckResourceAttr(fwRes, "current.CNP_802P_PRIO_P1", "6"),
			),
		}},
	})
}

// Adopting values set by hand: import, then the configuration's parameters; the parameters it
// leaves out only leave the state, and nothing is written to the adapter.
func TestAccNICFirmwareImportAdopts(t *testing.T) {
	l := hostLab(t)
	o := l.openSSH(t, "mlx5-1")
	o.run(t, "sudo -n mstconfig -d mlx5_0 -y set CNP_DSCP_P1=40 >/dev/null")
	query := "sudo -n mstconfig -d mlx5_0 -e q"
	cfg := l.providerHCL() + firmwareHCL(`CNP_DSCP_P1 = "40"`)
	var before string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{Config: cfg, ResourceName: fwRes, ImportState: true, ImportStateId: "mlx5-1/eth0", ImportStatePersist: true,
				ImportStateCheck: func([]*terraform.InstanceState) error { before = o.run(t, query); return nil }},
			{
				Config:           cfg,
				ConfigPlanChecks: expectUpdates(fwRes),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(fwRes, "parameters.%", "1"),
					resource.TestCheckResourceAttr(fwRes, "pending_reboot", "true"),
					func(*terraform.State) error {
						if after := o.run(t, query); after != before {
							return fmt.Errorf("adopting wrote to the adapter:\nbefore:\n%s\nafter:\n%s", before, after)
						}
						return nil
					},
				),
			},
			{Config: cfg, ConfigPlanChecks: expectEmptyPlan},
		},
	})
}
