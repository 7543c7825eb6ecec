package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

const dcqcnRes = "roce_dcqcn_profile.gpu"

func dcqcnHCL(prios string, aiRate int) string {
	return fmt.Sprintf(`
resource "roce_dcqcn_profile" "gpu" {
  device       = "mlx5-1"
  interface    = "eth0"
  priorities   = [%s]
  cnp_dscp     = 48
  cnp_priority = 6
  reaction_point = {
    ai_rate_mbps      = %d
    hai_rate_mbps     = 100
    clamp_target_rate = true
  }
  notification_point = { min_time_between_cnps_us = 4 }
}
`, prios, aiRate)
}

// the parameters the configuration leaves unmanaged: an import reads them all.
var unmanagedRP = func() []string {
	var out []string
	for _, p := range []string{"time_reset_us", "byte_reset", "threshold", "min_rate_mbps", "max_rate_mbps", "dce_tcp_g",
		"dce_tcp_rtt_us", "initial_alpha", "rate_reduce_monitor_period_us", "min_dec_factor_percent", "gd",
		"rate_to_set_on_first_cnp_mbps", "clamp_target_rate_after_time_inc"} {
		out = append(out, "reaction_point."+p)
	}
	return out
}()

func TestAccDCQCNProfileLifecycle(t *testing.T) {
	l := hostLab(t)
	sh := l.shell(t, "mlx5-1")
	state := func() string {
		return sh.run("sudo -n sh -c 'grep -H . /sys/class/net/eth0/ecn/roce_rp/enable/* /sys/class/net/eth0/ecn/roce_np/enable/* /sys/kernel/debug/mlx5/*/cc_params/*'")
	}
	before := state()
	v1 := l.providerHCL() + dcqcnHCL("3", 10)
	v2 := l.providerHCL() + dcqcnHCL("3, 4", 20)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			if after := state(); after != before {
				return fmt.Errorf("destroy did not restore the DCQCN settings:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: v1,
				Check: func(*terraform.State) error {
					out := state()
					for _, want := range []string{"/ecn/roce_np/enable/3:1", "/ecn/roce_rp/enable/3:1", "/ecn/roce_rp/enable/0:0", "cc_params/rp_ai_rate:10", "cc_params/rp_clamp_tgt_rate:1"} {
						if !strings.Contains(out, want) {
							return fmt.Errorf("host lacks %q:\n%s", want, out)
						}
					}
					return nil
				},
			},
			{ResourceName: dcqcnRes, ImportState: true, ImportStateId: "mlx5-1/eth0", ImportStateVerify: true,
				ImportStateVerifyIgnore: unmanagedRP},
			{
				Config:           v2,
				ConfigPlanChecks: expectUpdates(dcqcnRes),
				Check: func(*terraform.State) error {
					if out := state(); !strings.Contains(out, "cc_params/rp_ai_rate:20") || !strings.Contains(out, "/ecn/roce_np/enable/4:1") {
						return fmt.Errorf("update not applied:\n%s", out)
					}
					return nil
				},
			},
			{ // the reboot loses the settings; the boot unit (after debugfs) writes them again
				PreConfig: func() {
					l.Host("mlx5-1").Reboot()
					if out := state(); !strings.Contains(out, "cc_params/rp_ai_rate:20") || !strings.Contains(out, "/ecn/roce_np/enable/4:1") {
						t.Errorf("after the reboot the persisted DCQCN settings are not back:\n%s", out)
					}
				},
				Config:           v2,
				ConfigPlanChecks: expectEmptyPlan,
			},
			{ // without persist, a reboot is drift
				Config: strings.Replace(v2, "cnp_dscp", "persist = false\n  cnp_dscp", 1),
			},
			{
				PreConfig:        func() { l.Host("mlx5-1").Reboot() },
				Config:           strings.Replace(v2, "cnp_dscp", "persist = false\n  cnp_dscp", 1),
				ConfigPlanChecks: expectUpdates(dcqcnRes),
			},
		},
	})
}

func TestAccDCQCNProfileErrors(t *testing.T) {
	l := hostLab(t)
	host := l.Host("mlx5-1")
	l.expectPlanErrors(t, []planError{
		{"CNP DSCP 64", strings.Replace(dcqcnHCL("3", 10), "cnp_dscp     = 48", "cnp_dscp = 64", 1), `(?s)cnp_dscp.*64`, nil},
		{"priority 8", dcqcnHCL("8", 10), `(?s)priorities.*8`, nil},
		{"no ecn tree (upstream kernel)", dcqcnHCL("3", 10), `(?s)/sys/class/net/eth0/ecn.*roce_nic_firmware, parameters =.*ROCE_CC_PRIO_MASK_P1 = "8"`, func() { host.RemoveECNTree() }},
	}, nil)
}

// A write the host refuses half way leaves nothing half-applied: the values read before the
// apply are written back, the error says so, and no resource is recorded. Once the host
// accepts, the next apply converges.
func TestAccDCQCNProfileRefusedWriteIsRolledBack(t *testing.T) {
	l := hostLab(t)
	host := l.Host("mlx5-1")
	sh := l.shell(t, "mlx5-1")
	state := func() string {
		return sh.run("sudo -n sh -c 'grep -H . /sys/class/net/eth0/ecn/roce_rp/enable/* /sys/class/net/eth0/ecn/roce_np/enable/* /sys/kernel/debug/mlx5/*/cc_params/*'")
	}
	before := state()
	cfg := l.providerHCL() + dcqcnHCL("3", 10)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { host.FailWrites("cc_params/rp_ai_rate") },
				Config:      cfg,
				ExpectError: regexp.MustCompile(`(?s)Cannot create DCQCN profile of "eth0" on device "mlx5-1".*rp_ai_rate.*values read before the change were\s+restored`),
			},
			{
				PreConfig: func() {
					if after := state(); after != before {
						t.Errorf("the refused apply left the host changed:\nbefore:\n%s\nafter:\n%s", before, after)
					}
					host.FailWrites("")
				},
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
