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

// TestAccEOSStrataQueues: on a Strata switch (DCS-7060CX-32S, which has no `tx-queue`) the
// policy's queues are `uc-tx-queue` blocks, read back without drift, imported, and removed.
func TestAccEOSStrataQueues(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"eos": 1}, Models: map[string]string{"eos": "DCS-7060CX-32S"}})
	sw := l.EOS("eos-1")
	cfg := l.providerHCL() + eosPolicyHCL(153600, `"Ethernet1"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			if got := sw.RunningConfig(); strings.Contains(got, "qos profile ROCE") || strings.Contains(got, "uc-tx-queue") {
				return fmt.Errorf("destroy left the profile:\n%s", got)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(*terraform.State) error {
					p := section(sw.RunningConfig(), "qos profile ROCE")
					for _, want := range []string{"   uc-tx-queue 0\n", "   uc-tx-queue 3\n", "   uc-tx-queue 6\n"} {
						if !strings.Contains(p+"\n", want) {
							return fmt.Errorf("profile lacks %q:\n%s", want, p)
						}
					}
					if strings.Contains(p, "uc-tx-queue 7") || strings.Contains(p, " tx-queue") {
						return fmt.Errorf("queue 7 or a tx-queue written:\n%s", p)
					}
					return nil
				},
			},
			{
				Config:           cfg,
				ConfigPlanChecks: expectEmptyPlan,
			},
			{
				ResourceName: "roce_qos_policy.leaf", ImportState: true, ImportStateId: "eos-1/ROCE",
				ImportStateCheck: importedAttrs(map[string]string{"classes.tc3.bandwidth_percent": "50", "classes.tc6.strict_priority": "true", "classes.tc3.lossless": "true"}),
			},
		},
	})
}

// TestAccEOSSandQueue7: a Sand switch before EOS 4.33.0F reserves queue 7; a class on traffic
// class 7 is refused before anything is written, and a configured model of the other family
// is an error too.
func TestAccEOSSandQueue7(t *testing.T) {
	l := switchLab(t, "eos") // DCS-7280SR3-48YC8, EOS 4.31.2F
	sw := l.EOS("eos-1")
	before := sw.RunningConfig()
	tc7 := replaced(t, eosPolicyHCL(153600, `"Ethernet1"`), "traffic_class = 6, dscp = [48]", "traffic_class = 7, dscp = [48]")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				Config:      l.providerHCL() + tc7,
				ExpectError: regexp.MustCompile(`(?s)class "cnp" uses traffic class 7.*before EOS 4.33.0F\s+\(this\s+switch\s+runs\s+4.31.2F\).*nothing\s+was\s+changed`),
			},
			{
				PreConfig: func() {
					if after := sw.RunningConfig(); after != before {
						t.Errorf("the refused apply changed the switch:\n%s", after)
					}
				},
				Config:      pinnedModel(l.providerHCL(), "eos-1", "DCS-7060CX-32S") + eosPolicyHCL(153600, `"Ethernet1"`),
				ExpectError: regexp.MustCompile(`(?s)model\s+"DCS-7060CX-32S"\s+\(strata\),\s+but\s+the\s+switch\s+reports\s+"DCS-7280SR3-48YC8"\s+\(sand\)`),
			},
		},
	})
}

// pinnedModel is providerHCL with device's model set to model in the devices map.
func pinnedModel(providerHCL, device, model string) string {
	re := regexp.MustCompile(`devices = (jsondecode\(file\("[^"]+"\)\)\.devices)`)
	return re.ReplaceAllString(providerHCL, fmt.Sprintf(`devices = merge($1, { %q = merge($1[%q], { model = %q }) })`, device, device, model))
}

// TestAccNXOSNexus3000Refused: a Nexus 3000 (its show version's chassis) is refused before
// anything is written, and a configured N3K model is refused at plan time.
func TestAccNXOSNexus3000Refused(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"nxos": 1}, Models: map[string]string{"nxos": "N3K-C3232C"}})
	sw := l.NXOS("nxos-1")
	before := sw.RunningConfig()
	policy := nxosPolicyHCL(153600, `"Ethernet1/1"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				Config:      pinnedModel(l.providerHCL(), "nxos-1", "N3K-C3232C") + policy,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Model not supported.*N3K-C3232C is a Nexus\s+3000`),
			},
			{
				Config:      l.providerHCL() + policy,
				ExpectError: regexp.MustCompile(`(?s)Nexus3000 C3232C is a Nexus\s+3000.*nothing\s+was\s+changed`),
			},
			{
				PreConfig: func() {
					if after := sw.RunningConfig(); after != before {
						t.Errorf("the refused apply changed the switch:\n%s", after)
					}
				},
				Config:   l.providerHCL(),
				PlanOnly: true,
			},
		},
	})
}
