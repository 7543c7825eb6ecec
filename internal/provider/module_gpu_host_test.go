package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// copyTF copies the .tf files of src (not its subdirectories) into dst.
func copyTF(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o750); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".tf") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// copyModules copies examples/modules/<name> for each name to dir/modules/<name>, the way users
// vendor them into their repository: roce-fabric calls ../roce-leaf and ../roce-gpu-host, which
// Terraform accepts only from a local path (an absolute source is a package of its own, out of
// which "../" may not reach).
func copyModules(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, name := range names {
		copyTF(t, examplePath(t, "modules", name), filepath.Join(dir, "modules", name))
	}
}

// moduleOutputsHCL passes each output of module on as a root output of the same name, for
// `terraform output` to show.
func moduleOutputsHCL(module string, outputs ...string) string {
	var b strings.Builder
	for _, o := range outputs {
		fmt.Fprintf(&b, "\noutput %q {\n  value = module.%s.%s\n}\n", o, module, o)
	}
	return b.String()
}

// writeMain writes cfg as dir/main.tf, replacing what was there.
func writeMain(t *testing.T, dir, cfg string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

// hostSettings is everything roce_nic_qos and roce_dcqcn_profile can change on the NICs of a
// lab host, read with the host's own tools: mlnx_qos (as the login user, like an operator), and
// the ecn enables, cc_params and RDMA traffic classes (root-only debugfs, through sudo -n).
func hostSettings(t *testing.T, h *lab.Host) string {
	t.Helper()
	var b strings.Builder
	for _, nic := range h.Interfaces() {
		out, errOut, status := h.Run("mlnx_qos -i " + nic + " -a")
		if status != 0 {
			t.Fatalf("%s: mlnx_qos -i %s -a exited %d: %s%s", h.Name(), nic, status, out, errOut)
		}
		b.WriteString(sortDSCPs(out))
	}
	out, errOut, status := h.Run(`sudo -n sh -c 'grep -H . /sys/class/net/eth*/ecn/roce_*/enable/* /sys/kernel/debug/mlx5/*/cc_params/* /sys/class/infiniband/*/tc/1/traffic_class'`)
	// grep exits 1 for the empty (unset) traffic_class files when nothing else matched; any
	// other failure is the test's.
	if status > 1 || !strings.Contains(out, "cc_params/rp_ai_rate:") {
		t.Fatalf("%s: reading sysfs and debugfs exited %d: %s%s", h.Name(), status, out, errOut)
	}
	b.WriteString(out)
	return b.String()
}

// sortDSCPs sorts the DSCPs of each "prio:P dscp:..." line of mlnx_qos's report: it prints them
// in the kernel's app-table order (newest first), which a rewrite of the same map changes.
func sortDSCPs(report string) string {
	lines := strings.Split(report, "\n")
	for i, line := range lines {
		head, list, ok := strings.Cut(line, " dscp:")
		if !ok || !strings.HasPrefix(strings.TrimSpace(head), "prio:") {
			continue
		}
		dscps := strings.Split(strings.TrimSuffix(list, ","), ",")
		slices.Sort(dscps)
		lines[i] = head + " dscp:" + strings.Join(dscps, ",") + ","
	}
	return strings.Join(lines, "\n")
}

// examples/modules/roce-gpu-host on a lab host with two NICs, fed by roce_profile (including the
// optional roce_tos and DCQCN parameters, and a firmware mask), applied with the real CLI: both
// NICs are configured, the next plan is empty, a cold reboot needs nothing and loads the
// firmware change, destroy puts back every setting the host had.
func TestAccModuleGPUHost(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{}, Hosts: map[string]int{"mlx5": 1}})
	h := l.Host("mlx5-1")
	if got := h.Interfaces(); len(got) != 2 {
		t.Fatalf("the lab host has NICs %v, want two", got)
	}
	before := hostSettings(t, h)
	tf := mainCLI(t, l.providerHCL()+aiProfileHCL+fmt.Sprintf(`
module "gpu" {
  source             = %q
  device             = "mlx5-1"
  interfaces         = ["eth0", "eth1"]
  roce_tos           = data.roce_profile.ai.roce_tos
  reaction_point     = data.roce_profile.ai.reaction_point
  notification_point = data.roce_profile.ai.notification_point
  firmware = {
    eth0 = { ROCE_CC_PRIO_MASK_P1 = "8", ROCE_CC_PRIO_MASK_P2 = "8" }
  }
}
`, examplePath(t, "modules", "roce-gpu-host"))+moduleOutputsHCL("gpu", "ids", "firmware_pending_reboot", "dcqcn_ids"))
	tf.must("apply", "-auto-approve", "-input=false", "-no-color")

	for i, nic := range []string{"eth0", "eth1"} {
		out, _, _ := h.Run("mlnx_qos -i " + nic)
		for _, want := range []string{"Priority trust state: dscp", "\tenabled     0   0   0   1   0   0   0   0   ", "prio:3 dscp:26,", "prio:6 dscp:48,", "tsa: strict"} {
			if !strings.Contains(out, want) {
				t.Errorf("mlnx_qos -i %s lacks %q:\n%s", nic, want, out)
			}
		}
		rdma := fmt.Sprintf("mlx5_%d", i)
		if tos, _, _ := h.Run("cat /sys/class/infiniband/" + rdma + "/tc/1/traffic_class"); !strings.Contains(tos, "Global tclass=106") {
			t.Errorf("%s (%s): traffic_class %q, want roce_tos 106", nic, rdma, tos)
		}
		// ai-training's reaction point: additive increase 20 Mbps (the firmware default is 5).
		pci := fmt.Sprintf("0000:08:00.%d", i)
		if ai, _, _ := h.Run("sudo -n cat /sys/kernel/debug/mlx5/" + pci + "/cc_params/rp_ai_rate"); strings.TrimSpace(ai) != "20" {
			t.Errorf("%s (%s): rp_ai_rate %q, want 20", nic, pci, ai)
		}
	}
	outputs := tf.must("output", "-json")
	for _, id := range []string{"mlx5-1/eth0", "mlx5-1/eth1"} {
		if strings.Count(outputs, `"`+id+`"`) != 2 {
			t.Errorf("outputs ids and dcqcn_ids must both list %s:\n%s", id, outputs)
		}
	}
	tf.emptyPlan(t.Errorf, "after apply")
	if out := tf.must("output", "-json", "firmware_pending_reboot"); strings.TrimSpace(out) != `["eth0"]` {
		t.Errorf("firmware_pending_reboot after apply = %s, want [\"eth0\"]", out)
	}
	// A cold reboot: the NIC firmware loads the new mask, the boot units put the runtime
	// settings back; nothing to change, and nothing pending any more.
	h.Reboot()
	// (The plan shows the output firmware_pending_reboot changing, from the refresh: only that.)
	if out, _ := tf.run("plan", "-input=false", "-no-color"); !strings.Contains(out, "Changes to Outputs") ||
		strings.Contains(out, "will be updated") || strings.Contains(out, "will be created") || strings.Contains(out, "must be replaced") {
		t.Errorf("after a reboot no resource may need a change, only the pending output:\n%s", out)
	}
	tf.must("apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color")
	if out := tf.must("output", "-json", "firmware_pending_reboot"); strings.TrimSpace(out) != `[]` {
		t.Errorf("firmware_pending_reboot after the reboot = %s, want []", out)
	}
	tf.emptyPlan(t.Errorf, "after the reboot and a refresh")
	tf.must("destroy", "-auto-approve", "-input=false", "-no-color")
	if after := hostSettings(t, h); after != before {
		t.Errorf("destroy did not restore the host:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
