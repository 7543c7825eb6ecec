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

// classesHCL wraps class definitions into a policy on device.
func classesHCL(device, extra, classes string) string {
	return fmt.Sprintf(`
resource "roce_qos_policy" "leaf" {
  device = %q
  %s
  classes = {
    %s
  }
}
`, device, extra, classes)
}

func TestAccQoSPolicyPlanTimeErrors(t *testing.T) {
	l := startLab(t, lab.Options{})
	ok := `a = { traffic_class = 3, dscp = [26], bandwidth_percent = 100 }`
	cases := []struct {
		name, device, extra, classes string
		want                         string
	}{
		{"duplicate traffic class", "openconfig-1", "", `a = { traffic_class = 3, dscp = [26], bandwidth_percent = 50 }
		   b = { traffic_class = 3, dscp = [27], bandwidth_percent = 50 }`, `(?s)Traffic class 3 used by two classes.*Class "b".*class "a"`},
		{"overlapping DSCP", "openconfig-1", "", `a = { traffic_class = 3, dscp = [26], bandwidth_percent = 50 }
		   b = { traffic_class = 4, dscp = [26, 27], bandwidth_percent = 50 }`, `(?s)DSCP 26 in two classes.*"a".*"b"`},
		{"DSCP out of range", "openconfig-1", "", `a = { traffic_class = 3, dscp = [64], bandwidth_percent = 100 }`, `DSCP 64 out of range 0-63`},
		{"traffic class out of range", "openconfig-1", "", `a = { traffic_class = 8, dscp = [26], bandwidth_percent = 100 }`, `traffic_class 8 out of range 0-7`},
		{"both share and strict", "openconfig-1", "", `a = { traffic_class = 3, dscp = [26], bandwidth_percent = 100, strict_priority = true }`, `bandwidth_percent set on a strict-priority class`},
		{"neither share nor strict", "openconfig-1", "", `a = { traffic_class = 3, dscp = [26] }`, `Class has neither bandwidth_percent nor strict_priority`},
		{"shares do not sum to 100", "openconfig-1", "", `a = { traffic_class = 3, dscp = [26], bandwidth_percent = 60 }
		   b = { traffic_class = 0, dscp = [0], bandwidth_percent = 30 }`, `(?s)Bandwidth shares sum to 90%.*a 60% \+ b 30%`},
		{"three lossless classes", "openconfig-1", "", `a = { traffic_class = 3, dscp = [26], bandwidth_percent = 40, lossless = true }
		   b = { traffic_class = 4, dscp = [27], bandwidth_percent = 30, lossless = true }
		   c = { traffic_class = 5, dscp = [28], bandwidth_percent = 30, lossless = true }`, `(?s)More than 2 lossless classes.*lossless = false on class "c"`},
		{"ECN min above max", "openconfig-1", "", `a = { traffic_class = 3, dscp = [26], bandwidth_percent = 100,
		   ecn = { min_threshold_bytes = 2000000, max_threshold_bytes = 1000000 } }`, `ECN max_threshold_bytes 1000000 is below min_threshold_bytes 2000000`},
		{"mark probability out of range", "openconfig-1", "", `a = { traffic_class = 3, dscp = [26], bandwidth_percent = 100,
		   ecn = { min_threshold_bytes = 1000, max_threshold_bytes = 2000, mark_probability_percent = 0 } }`, `mark_probability_percent 0 out of range 1-100`},
		{"default traffic class out of range", "openconfig-1", "default_traffic_class = 9", ok, `default_traffic_class 9 out of range 0-7`},
		{"bad trust", "openconfig-1", `trust = "cos"`, ok, `(?s)Invalid trust "cos".*dscp, pcp or dscp_pcp`},
		{"bad policy name", "openconfig-1", `name = "RO CE;"`, ok, `(?s)Policy name has invalid characters.*"RO CE;"`},
		{"unknown device", "spine-9", "", ok, `(?s)Unknown device.*"spine-9".*configured:\s+openconfig-1`},
		{"lossless on openconfig", "openconfig-1", "", `a = { traffic_class = 3, dscp = [26], bandwidth_percent = 100, lossless = true }`,
			`(?s)Not supported on platform openconfig.*"openconfig-1".*no PFC.*lossless.*sonic, eos and nxos`},
		{"pcp on openconfig", "openconfig-1", "", `a = { traffic_class = 3, dscp = [26], pcp = [3], bandwidth_percent = 100 }`, `(?s)Not supported on platform openconfig.*PCP.*pcp classification.*sonic, eos and nxos`},
		{"trust pcp on openconfig", "openconfig-1", `trust = "pcp"`, ok, `(?s)Not supported on platform openconfig.*trust pcp and dscp_pcp.*sonic, eos and nxos`},
		{"mtu on openconfig", "openconfig-1", "", `a = { traffic_class = 3, dscp = [26], bandwidth_percent = 100, mtu = 9216 }`, `(?s)Not supported on platform openconfig.*per-class MTU.*nxos`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: protoV6Factories, Steps: []resource.TestStep{{
				Config:      l.providerHCL() + classesHCL(c.device, c.extra, c.classes),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(c.want),
			}}})
		})
	}
	if n := l.Switch("openconfig-1").Counters().Set; n != 0 {
		t.Errorf("plan-time errors must not touch the device, but it received %d Set RPCs", n)
	}
}

// A Set the device rejects leaves the device and the state as they were, on create and on
// update.
func TestAccQoSPolicyDeviceRejects(t *testing.T) {
	l := startLab(t, lab.Options{})
	sw := l.Switch("openconfig-1")
	oob := l.oob(t, "openconfig-1")
	v1 := l.providerHCL() + policyHCL("ROCE", 153600, 1536000, "", `"Ethernet1"`)
	v2 := l.providerHCL() + policyHCL("ROCE", 204800, 1536000, storageClass, `"Ethernet1", "Ethernet2"`)
	var before string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { sw.FailNextSet("commit refused: TCAM exhausted") },
				Config:      v1,
				ExpectError: regexp.MustCompile(`(?s)Cannot create QoS policy "ROCE" on device "openconfig-1".*set.*TCAM exhausted`),
			},
			{
				PreConfig: func() {
					if q := oob.getString("/qos"); strings.Contains(q, `"ROCE`) {
						t.Errorf("the refused create left objects on the device: %s", q)
					}
				},
				Config: v1,
				Check: func(*terraform.State) error {
					before = oob.getString("/qos")
					return nil
				},
			},
			{
				PreConfig:   func() { sw.FailNextSet("commit refused: TCAM exhausted") },
				Config:      v2,
				ExpectError: regexp.MustCompile(`(?s)Cannot update QoS policy "ROCE".*TCAM exhausted`),
			},
			{ // state and device still hold v1: planning v1 again shows nothing to do
				PreConfig: func() {
					if after := oob.getString("/qos"); after != before {
						t.Errorf("the refused update changed the device:\nbefore %s\nafter  %s", before, after)
					}
				},
				Config:   v1,
				PlanOnly: true,
			},
			{ // and once the device accepts, the update converges
				Config:           v2,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// Destroying a resource whose device left `devices` fails at plan time, telling the user to
// keep the device until its resources are gone; nothing on the device changes.
func TestAccQoSPolicyDeviceRemovedBeforeDestroy(t *testing.T) {
	l := startLab(t, lab.Options{})
	oob := l.oob(t, "openconfig-1")
	withPolicy := l.providerHCL() + policyHCL("ROCE", 153600, 1536000, "", `"Ethernet1"`)
	withoutDevice := strings.Replace(l.providerHCL(), "devices = jsondecode(",
		`devices = { for k, v in jsondecode(`, 1)
	withoutDevice = strings.Replace(withoutDevice, ").devices\n", `).devices : k => v if k != "openconfig-1" }`+"\n", 1)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{Config: withPolicy},
			{
				Config:      withoutDevice,
				ExpectError: regexp.MustCompile(`(?s)Device removed while its resources remain.*Keep the device in\s+.devices. until its resources are\s+destroyed`),
			},
			{
				PreConfig: func() {
					if oob.get("/qos/classifiers/classifier[name=ROCE]") == nil {
						t.Error("the refused destroy removed the policy from the device")
					}
				},
				Config:   withPolicy,
				PlanOnly: true,
			},
		},
	})
}

func TestAccPFCInterfaceOnOpenConfig(t *testing.T) {
	l := startLab(t, lab.Options{})
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: protoV6Factories, Steps: []resource.TestStep{{
		Config: l.providerHCL() + `
resource "roce_pfc_interface" "x" {
  device    = "openconfig-1"
  interface = "Ethernet1"
}`,
		PlanOnly:    true,
		ExpectError: regexp.MustCompile(`(?s)Platform does not support roce_pfc_interface.*openconfig-1.*OpenConfig has no PFC\s+model.*supported\s+on\s+cumulus,\s+eos,\s+nxos,\s+sonic`),
	}}})
}

// Importing with a device name the provider does not know says so, naming the configured
// devices (it used to report a device removed while its resources remain).
func TestAccImportUnknownDevice(t *testing.T) {
	l := startLab(t, lab.Options{})
	config := l.providerHCL() + policyHCL("ROCE", 153600, 1536000, "", `"Ethernet1"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{Config: config},
			{ResourceName: "roce_qos_policy.leaf", ImportState: true, ImportStateId: "openconfig-9/ROCE",
				ExpectError: regexp.MustCompile(`(?s)Unknown device in the import ID.*"openconfig-9" is not in the\s+provider's\s+.devices. map\s+\(configured:\s+openconfig-1\)`)},
		},
	})
}
