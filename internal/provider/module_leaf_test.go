package provider

import (
	"fmt"
	"strings"
	"testing"
)

// examples/modules/roce-leaf, fed by roce_profile, applied to a lab SONiC switch with the real
// CLI: terraform init installs the local module and the provider (from a filesystem mirror),
// apply configures the leaf, the next plan is empty, destroy restores the switch.
func TestAccModuleRoCELeaf(t *testing.T) {
	l := switchLab(t, "sonic")
	sw := l.SONiC("sonic-1")
	before := sw.DB()
	tf := mainCLI(t, l.providerHCL()+aiProfileHCL+fmt.Sprintf(`
module "leaf" {
  source  = %q
  device  = "sonic-1"
  ports   = ["Ethernet0", "Ethernet4"]
  classes = data.roce_profile.ai.switch_classes
}
`, examplePath(t, "modules", "roce-leaf")))
	tf.must("apply", "-auto-approve", "-input=false", "-no-color")
	db := sw.DB()
	for _, port := range []string{"Ethernet0", "Ethernet4"} {
		if db["PORT_QOS_MAP"][port]["pfc_enable"] != "3" || db["PFC_WD"][port]["detection_time"] != "200" {
			t.Errorf("%s: PORT_QOS_MAP %v, PFC_WD %v", port, db["PORT_QOS_MAP"][port], db["PFC_WD"][port])
		}
	}
	tf.emptyPlan(t.Errorf, "after apply")
	tf.must("destroy", "-auto-approve", "-input=false", "-no-color")
	after := sw.DB()
	for _, port := range []string{"Ethernet0", "Ethernet4"} {
		if fmt.Sprint(after["PORT_QOS_MAP"][port]) != fmt.Sprint(before["PORT_QOS_MAP"][port]) {
			t.Errorf("destroy did not restore PORT_QOS_MAP|%s: %v", port, after["PORT_QOS_MAP"][port])
		}
	}
	for key := range after["SCHEDULER"] {
		if strings.HasPrefix(key, "ROCE") {
			t.Errorf("destroy left SCHEDULER|%s", key)
		}
	}
}
