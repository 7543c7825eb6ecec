package provider

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Large fabrics: the guide's pod module (group resources: a leaf's ports and a host's NICs
// each in one resource with one set of settings), applied on the lab's sonic-1 and mlx5-1 from a root module as
// the guide's pod roots call it; the plan after it is empty; a port added to the pod is one
// in-place update of the leaf's group and nothing else; destroy leaves the devices
// without the pod's settings.
func TestAccModuleGuideLargeFabrics(t *testing.T) {
	l := guideLab(t)
	dir := t.TempDir()
	copyTF(t, filepath.Join(guideExample(t, "large-fabrics"), "modules", "pod"), filepath.Join(dir, "modules", "pod"))
	root := func(ports string) string {
		return l.providerHCL() + fmt.Sprintf(`
module "pod" {
  source = "./modules/pod"
  leaves = { "sonic-1" = [%s] }
  hosts  = { "mlx5-1" = ["eth0", "eth1"] }
}
`, ports)
	}
	writeMain(t, dir, root(`"Ethernet0", "Ethernet4"`))
	tf := initCLI(t, dir)
	tf.must("apply", "-auto-approve", "-input=false", "-no-color")
	sw := l.SONiC("sonic-1")
	for _, p := range []string{"Ethernet0", "Ethernet4"} {
		if got := sw.DB()["PFC_WD"][p]["detection_time"]; got != "200" {
			t.Errorf("after apply PFC_WD|%s detection_time = %q, want 200 (the module's watchdog)", p, got)
		}
	}
	tf.emptyPlan(t.Fatalf, "after apply")

	writeMain(t, dir, root(`"Ethernet0", "Ethernet4", "Ethernet8"`))
	out, code := tf.run("plan", "-detailed-exitcode", "-input=false", "-no-color")
	if code != 2 || !strings.Contains(out, `module.pod.roce_pfc_interface_group.leaf["sonic-1"] will be updated in-place`) ||
		!strings.Contains(out, "Plan: 0 to add, 2 to change, 0 to destroy") {
		// the policy's interfaces and the leaf's group: nothing else
		t.Fatalf("a port added to the pod: want the leaf's policy and PFC group updated in place, exit 2; got %d:\n%s", code, out)
	}
	tf.must("apply", "-auto-approve", "-input=false", "-no-color")
	if got := sw.DB()["PFC_WD"]["Ethernet8"]["detection_time"]; got != "200" {
		t.Errorf("after adding Ethernet8 PFC_WD|Ethernet8 detection_time = %q, want 200", got)
	}

	tf.must("destroy", "-auto-approve", "-input=false", "-no-color")
	for _, p := range []string{"Ethernet0", "Ethernet4", "Ethernet8"} {
		if got := sw.DB()["PFC_WD"][p]["detection_time"]; got == "200" {
			t.Errorf("after destroy PFC_WD|%s still has the module's watchdog", p)
		}
	}
}
