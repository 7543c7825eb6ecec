package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

const res = "roce_qos_policy.leaf"

// policyHCL is the contract's example policy (minus lossless, which OpenConfig cannot model)
// with a few knobs for the lifecycle steps.
func policyHCL(name string, ecnMin, ecnMax int, extraClass string, ifs string) string {
	return fmt.Sprintf(`
resource "roce_qos_policy" "leaf" {
  device = "openconfig-1"
  name   = %q
  classes = {
    roce    = { traffic_class = 3, dscp = [26], bandwidth_percent = 50, ecn = { min_threshold_bytes = %d, max_threshold_bytes = %d } }
    cnp     = { traffic_class = 6, dscp = [48], strict_priority = true }
    default = { traffic_class = 0, dscp = [0], bandwidth_percent = %s }
    %s
  }
  interfaces = [%s]
}
`, name, ecnMin, ecnMax, map[bool]string{true: "30", false: "50"}[extraClass != ""], extraClass, ifs)
}

const storageClass = `storage = { traffic_class = 1, dscp = [10, 12], bandwidth_percent = 20 }`

func TestAccQoSPolicyLifecycle(t *testing.T) {
	l := startLab(t, lab.Options{})
	oob := l.oob(t, "openconfig-1")
	// Ethernet3 was bound to an operator's classifier before we arrived: destroy must put it back.
	oob.set("/qos/classifiers/classifier[name=LEGACY]", `{"name":"LEGACY","config":{"name":"LEGACY","type":"IPV4"}}`)
	oob.set("/qos/interfaces/interface[interface-id=Ethernet3]", `{"interface-id":"Ethernet3","config":{"interface-id":"Ethernet3"},
	  "input":{"classifiers":{"classifier":[{"type":"IPV4","config":{"type":"IPV4","name":"LEGACY"}}]}}}`)
	legacyBinding := oob.getString("/qos/interfaces/interface[interface-id=Ethernet3]/input")

	v1 := l.providerHCL() + policyHCL("ROCE", 153600, 1536000, "", `"Ethernet1", "Ethernet2"`)
	v2 := l.providerHCL() + policyHCL("AI", 204800, 3072000, storageClass, `"Ethernet1", "Ethernet3"`)

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			qos := oob.getString("/qos")
			for _, n := range []string{`"ROCE`, `"AI`} {
				if strings.Contains(qos, n) {
					return fmt.Errorf("destroy left objects named %s… on the device: %s", n, qos)
				}
			}
			if got := oob.getString("/qos/interfaces/interface[interface-id=Ethernet3]/input"); got != legacyBinding {
				return fmt.Errorf("Ethernet3's binding was not restored: %s, want %s", got, legacyBinding)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{ // create; the harness then checks that the next plan is empty
				Config: v1,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(res, tfjsonpath.New("id"), knownvalue.StringExact("openconfig-1/ROCE")),
					statecheck.ExpectKnownValue(res, tfjsonpath.New("trust"), knownvalue.StringExact("dscp")),
					statecheck.ExpectKnownValue(res, tfjsonpath.New("classes").AtMapKey("roce").AtMapKey("ecn").AtMapKey("mark_probability_percent"), knownvalue.Int64Exact(100)),
				},
				Check: func(*terraform.State) error {
					// What an operator sees on the switch, through their own client.
					if got := oob.getString("/qos/queue-management-profiles/queue-management-profile[name=ROCE-roce]/wred/uniform/config/min-threshold"); got != `"153600"` {
						return fmt.Errorf("ECN min threshold on the device = %s", got)
					}
					if got := oob.getString("/qos/interfaces/interface[interface-id=Ethernet2]/output/scheduler-policy/config/name"); got != `"ROCE"` {
						return fmt.Errorf("Ethernet2 scheduler policy = %s", got)
					}
					return nil
				},
			},
			{ // import reads back everything the resource manages
				ResourceName:      res,
				ImportState:       true,
				ImportStateId:     "openconfig-1/ROCE",
				ImportStateVerify: true,
			},
			{ // ECN thresholds, an added class, a rename and a moved port: one in-place update
				Config:           v2,
				ConfigPlanChecks: expectUpdates(res),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(res, tfjsonpath.New("id"), knownvalue.StringExact("openconfig-1/AI")),
				},
				Check: func(*terraform.State) error {
					if oob.get("/qos/classifiers/classifier[name=ROCE]") != nil {
						return fmt.Errorf("the rename left the old classifier ROCE behind")
					}
					if got := oob.getString("/qos/interfaces/interface[interface-id=Ethernet3]/input/classifiers/classifier[type=IPV4]/config/name"); got != `"AI"` {
						return fmt.Errorf("Ethernet3 classifier = %s, want AI", got)
					}
					if got := oob.getString("/qos/interfaces/interface[interface-id=Ethernet2]/output/scheduler-policy/config/name"); got == `"ROCE"` || got == `"AI"` {
						return fmt.Errorf("Ethernet2 left the policy but is still bound: %s", got)
					}
					return nil
				},
			},
			{ // an operator edits the switch by hand: the plan shows the update, apply repairs it
				PreConfig: func() {
					oob.setLeaf("/qos/queue-management-profiles/queue-management-profile[name=AI-roce]/wred/uniform/config/min-threshold", `"100000"`)
				},
				Config: v2,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(res, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(res, tfjsonpath.New("classes").AtMapKey("roce").AtMapKey("ecn").AtMapKey("min_threshold_bytes"), knownvalue.Int64Exact(204800)),
				}},
				Check: func(*terraform.State) error {
					if got := oob.getString("/qos/queue-management-profiles/queue-management-profile[name=AI-roce]/wred/uniform/config/min-threshold"); got != `"204800"` {
						return fmt.Errorf("apply did not repair the threshold: %s", got)
					}
					return nil
				},
			},
			{ // a DSCP moved by hand to another class is drift too
				PreConfig: func() {
					oob.setLeaf("/qos/classifiers/classifier[name=AI]/terms/term[id=storage]/conditions/ipv4/config/dscp-set", `[10]`)
				},
				Config:             v2,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config:           v2,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// A provider whose devices come from another resource is configured with unknown values at
// the first plan: device checks wait, and apply (with known values) creates the policy.
func TestAccQoSPolicyProviderConfigUnknownAtPlan(t *testing.T) {
	l := startLab(t, lab.Options{})
	cfg := strings.Replace(l.providerHCL(), "devices = jsondecode(", "devices = terraform_data.inventory.output\n}\n\nresource \"terraform_data\" \"inventory\" {\n  input = jsondecode(", 1)
	cfg += policyHCL("ROCE", 153600, 1536000, "", `"Ethernet1"`)
	applyChecking(t, cfg, statecheck.ExpectKnownValue(res, tfjsonpath.New("id"), knownvalue.StringExact("openconfig-1/ROCE")))
}
