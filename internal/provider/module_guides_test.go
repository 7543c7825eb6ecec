package provider

import (
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// The guides' configurations (examples/guides, included in templates/guides) run as the guides
// tell users to run them, with the real CLI against the lab.

// guideExample is the directory of examples/guides/<name>.
func guideExample(t *testing.T, name string) string { return examplePath(t, "guides", name) }

// guideRun is a guide's example in a directory of its own, run with the real CLI and the lab's
// inventory, as the guide says.
type guideRun struct {
	*tfCLI
	inventory string
}

// applyGuide copies the example, inits and applies it; the plan after the apply must be empty.
func applyGuide(t *testing.T, l *accLab, example string) *guideRun {
	t.Helper()
	dir := t.TempDir()
	copyTF(t, guideExample(t, example), dir)
	g := &guideRun{tfCLI: initCLI(t, dir), inventory: "inventory=" + filepath.Join(l.dir, lab.InventoryFile)}
	g.apply()
	g.emptyPlan(t.Fatalf, "after apply", "-var", g.inventory)
	return g
}

func (g *guideRun) apply() {
	g.must("apply", "-auto-approve", "-input=false", "-no-color", "-var", g.inventory)
}
func (g *guideRun) destroy() {
	g.must("destroy", "-auto-approve", "-input=false", "-no-color", "-var", g.inventory)
}

// plan runs a plan with -detailed-exitcode: 0 nothing to do, 2 changes, 1 an error.
func (g *guideRun) plan() (string, int) {
	return g.run("plan", "-detailed-exitcode", "-input=false", "-no-color", "-var", g.inventory)
}

// driftRepaired: after a change made by hand (what names it), the plan shows drift (exit 2)
// with each of expect, an apply repairs it and the plan after the repair is empty.
func (g *guideRun) driftRepaired(what string, expect ...string) {
	g.t.Helper()
	out, code := g.plan()
	if code != 2 {
		g.t.Errorf("%s must show as drift (exit 2), got %d:\n%s", what, code, out)
	}
	for _, s := range expect {
		if !strings.Contains(out, s) {
			g.t.Errorf("%s: the drift plan lacks %q:\n%s", what, s, out)
		}
	}
	g.apply()
	g.emptyPlan(g.t.Errorf, what+", after the repair", "-var", g.inventory)
}

// cliConfigs are a CLI switch's running and startup configurations (EOS, NX-OS).
type cliConfigs interface {
	RunningConfig() string
	StartupConfig() string
}

// wantBlockLines: each want[1] stands in the block of running headed want[0], as block (the
// platform's: section, nxosBlock) cuts it out.
func wantBlockLines(t *testing.T, running string, block func(running, header string) string, want [][2]string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(block(running, w[0]), w[1]) {
			t.Errorf("%q is not in %s:\n%s", w[1], w[0], block(running, w[0]))
		}
	}
}

// wantSaved: with save_config = true, the startup-config is the running-config after an apply.
func wantSaved(t *testing.T, sw cliConfigs, running string) {
	t.Helper()
	if got := sw.StartupConfig(); got != running {
		t.Errorf("save_config = true: the startup-config must be the running-config after apply.\nstartup:\n%s\nrunning:\n%s", got, running)
	}
}

// wantRestored: destroy gave back the running-config as it was before, and with save_config =
// true saved it.
func wantRestored(t *testing.T, sw cliConfigs, before string) {
	t.Helper()
	if after := sw.RunningConfig(); after != before {
		t.Errorf("destroy did not give back the running-config.\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if got := sw.StartupConfig(); got != before {
		t.Errorf("destroy with save_config = true must save the restored configuration; startup-config:\n%s", got)
	}
}

// guideLab is the part of `make lab` the guides use: sonic-1 and mlx5-1.
func guideLab(t *testing.T) *accLab {
	return startLab(t, lab.Options{Switches: map[string]int{"sonic": 1}, Hosts: map[string]int{"mlx5": 1}})
}

// Getting started: apply, an empty plan, a switch changed by hand and the host's boot unit
// disabled by hand each detected (exit 2, naming the resource and the value) and repaired, a
// host reboot survived (exit 0), then destroy.
func TestAccModuleGuideGettingStarted(t *testing.T) {
	l := guideLab(t)
	sw, h := l.SONiC("sonic-1"), l.Host("mlx5-1")
	dbBefore, hostBefore := sw.DB(), hostSettings(t, h)
	if dbBefore["PORT_QOS_MAP"]["Ethernet0"]["dscp_to_tc_map"] != "AZURE" || dbBefore["DSCP_TO_TC_MAP"]["AZURE"]["26"] != "1" {
		t.Fatalf("the guide says Ethernet0 starts on the AZURE map, which sends DSCP 26 to traffic class 1: %v, %q",
			dbBefore["PORT_QOS_MAP"]["Ethernet0"], dbBefore["DSCP_TO_TC_MAP"]["AZURE"]["26"])
	}
	tf := applyGuide(t, l, "getting-started")
	// What the guide shows rocelab get print.
	want := map[string]string{"dscp_to_tc_map": "ROCE", "pfc_enable": "3", "pfc_to_pg_map": "ROCE", "pfc_to_queue_map": "ROCE", "pfcwd_sw_enable": "3", "tc_to_pg_map": "ROCE", "tc_to_queue_map": "ROCE"}
	if got := sw.DB()["PORT_QOS_MAP"]["Ethernet0"]; !maps.Equal(got, want) {
		t.Errorf("PORT_QOS_MAP|Ethernet0 = %v, the guide shows %v", got, want)
	}
	for _, drift := range []struct {
		name   string
		make   func()
		expect []string
	}{
		{
			name: "a watchdog time changed by hand",
			make: func() {
				l.oob(t, "sonic-1").setSONiC("/CONFIG_DB/localhost/PFC_WD/Ethernet0/detection_time", `"800"`)
			},
			expect: []string{"# roce_pfc_interface.leaf_e0 will be updated in-place", "detection_time_ms   = 800 -> 200", "Plan: 0 to add, 1 to change, 0 to destroy."},
		},
		{
			name: "the host's boot unit disabled by hand",
			make: func() {
				if _, errOut, st := h.Run("sudo -n systemctl disable roce-nic-qos-eth0.service"); st != 0 {
					t.Fatalf("systemctl disable: %s", errOut)
				}
			},
			expect: []string{"# roce_nic_qos.gpu_eth0 will be updated in-place", "persist", "false -> true",
				"Plan: 0 to add, 1 to change, 0 to destroy."},
		},
	} {
		drift.make()
		tf.driftRepaired(drift.name, drift.expect...)
	}
	// A reboot resets the NIC to the driver's defaults; the boot units (persist) write the
	// settings again: the plan is empty.
	applied := hostSettings(t, h)
	h.Reboot()
	tf.emptyPlan(t.Errorf, "after a reboot (the persisted host must need nothing)", "-var", tf.inventory)
	if after := hostSettings(t, h); after != applied {
		t.Errorf("after a reboot mlx5-1 is not as applied:\napplied:\n%s\nafter:\n%s", applied, after)
	}
	tf.destroy()
	if got, want := sw.DB()["PORT_QOS_MAP"]["Ethernet0"], dbBefore["PORT_QOS_MAP"]["Ethernet0"]; !maps.Equal(got, want) {
		t.Errorf("destroy left PORT_QOS_MAP|Ethernet0 = %v, want %v as before", got, want)
	}
	if after := hostSettings(t, h); after != hostBefore {
		t.Errorf("destroy did not restore mlx5-1:\nbefore:\n%s\nafter:\n%s", hostBefore, after)
	}
}

// The import guide: settings made before Terraform (the switch's objects by an earlier run whose
// state is gone, the NIC by hand with mlnx_qos) are adopted with examples/guides/import's import
// blocks and -generate-config-out, with the edits the guide describes; destroy then removes the
// policy's objects and the port's binding fields, and leaves the NIC as it is.
func TestAccModuleGuideImport(t *testing.T) {
	l := guideLab(t)
	inventory := "inventory=" + filepath.Join(l.dir, lab.InventoryFile)

	// The switch: the getting-started policy and PFC port, applied, then the state thrown away.
	earlier := t.TempDir()
	src, err := os.ReadFile(filepath.Join(guideExample(t, "getting-started"), "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	writeMain(t, earlier, string(src))
	old := initCLI(t, earlier)
	old.must("apply", "-auto-approve", "-input=false", "-no-color", "-var", inventory)
	if err := os.Remove(filepath.Join(earlier, "terraform.tfstate")); err != nil {
		t.Fatal(err)
	}
	// The host, by hand.
	h := l.Host("mlx5-1")
	for _, cmd := range []string{
		"sudo -n mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,1,0,0,0,0",
		"sudo -n mlnx_qos -i eth0 --dscp2prio set,26,3",
	} {
		if out, errOut, status := h.Run(cmd); status != 0 {
			t.Fatalf("%s: %s%s", cmd, out, errOut)
		}
	}

	dir := t.TempDir()
	copyTF(t, guideExample(t, "import"), dir)
	tf := initCLI(t, dir)
	out, code := tf.run("plan", "-input=false", "-no-color", "-var", inventory, "-generate-config-out=generated.tf")
	generated, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
	if err != nil {
		t.Fatalf("plan -generate-config-out wrote no generated.tf (exit %d): %v\n%s", code, err, out)
	}
	// A NIC whose TCs nobody set (tsa vendor) imports as ets = {}, which does not validate: the
	// guide says to delete the line.
	emptyETS := regexp.MustCompile(`(?m)^  ets = \{\n  \}\n`)
	if code != 0 {
		for _, e := range regexp.MustCompile(`(?m)^Error: .*$`).FindAllString(out, -1) {
			if e != "Error: ETS bandwidth shares sum to 0%, not 100%" && e != "Error: cnp_priority -1 out of range 0-7" {
				t.Fatalf("plan -generate-config-out failed (exit %d) other than on the values the guide describes:\n%s", code, out)
			}
		}
	}
	generated = emptyETS.ReplaceAll(generated, nil)
	// A NIC whose CNP priority nobody set (np_cnp_prio_mode 1) imports cnp_priority = -1, which
	// does not validate either: the guide says to write the priority the switches expect.
	generated = []byte(strings.Replace(string(generated), "cnp_priority = -1\n", "cnp_priority = 6\n", 1))
	// SONiC keeps a whole DSCP map: the class that receives unlisted DSCPs lists them all.
	if !strings.Contains(string(generated), "dscp              = [0, 1, 2, 3, 4, 5, 6, 7, 8,") {
		t.Errorf("the generated default class does not list every unlisted DSCP:\n%s", generated)
	}
	if err := os.WriteFile(filepath.Join(dir, "generated.tf"), generated, 0o600); err != nil {
		t.Fatal(err)
	}
	out = tf.must("plan", "-input=false", "-no-color", "-var", inventory)
	if !strings.Contains(out, "Plan: 4 to import, 0 to add, ") {
		t.Errorf("the plan must import the four resources:\n%s", out)
	}
	found := hostSettings(t, h)
	tf.must("apply", "-auto-approve", "-input=false", "-no-color", "-var", inventory)
	tf.emptyPlan(t.Errorf, "after the import", "-var", inventory)
	// The apply that imported also wrote cnp_priority = 6, which puts np_cnp_prio_mode to 0.
	if !strings.Contains(hostSettings(t, h), "0000:08:00.0/cc_params/np_cnp_prio_mode:0") {
		t.Error("the apply after the import did not write cnp_priority")
	}

	// Import records nothing, but the first apply after it records what it replaces: destroy
	// leaves the NIC as the import found it.
	tf.must("destroy", "-auto-approve", "-input=false", "-no-color", "-var", inventory)
	if after := hostSettings(t, h); after != found {
		t.Errorf("destroy of imported NIC resources did not leave the host as the import found it:\nbefore:\n%s\nafter:\n%s", found, after)
	}
	db := l.SONiC("sonic-1").DB()
	if _, ok := db["DSCP_TO_TC_MAP"]["ROCE"]; ok {
		t.Error("destroy left DSCP_TO_TC_MAP|ROCE")
	}
	if m, ok := db["PORT_QOS_MAP"]["Ethernet0"]; ok && m["dscp_to_tc_map"] != "" {
		t.Errorf("after import (no prior recorded) destroy must remove Ethernet0's binding fields, got %v", m)
	}
}

// The CI guide's provider block: devices from an inventory without secrets, credentials from
// ROCE_USERNAME and ROCE_PASSWORD, the switches' CA and the hosts' keys from committed files.
// With the host's key in known_hosts the NIC is configured; with an empty known_hosts the plan
// fails (exit 1), naming the key the host presented.
func TestAccModuleGuideCIProvider(t *testing.T) {
	l := guideLab(t)
	inv := l.Inventory()
	dir := t.TempDir()
	copyTF(t, guideExample(t, "ci-drift-checks"), dir)
	devices := map[string]map[string]any{}
	for name, d := range inv.Devices {
		devices[name] = map[string]any{"address": d.Address, "platform": d.Platform, "sudo": d.Sudo}
	}
	host := inv.Devices["mlx5-1"]
	hostname, port, err := net.SplitHostPort(host.Address)
	if err != nil {
		t.Fatal(err)
	}
	knownHosts := fmt.Sprintf("[%s]:%s %s\n", hostname, port, host.HostKey)
	files := map[string]string{
		"fabric-ca.pem": string(l.CAPEM()),
		"known_hosts":   knownHosts,
		"nic.tf": `
resource "roce_nic_qos" "gpu_eth0" {
  device           = "mlx5-1"
  interface        = "eth0"
  pfc_priorities   = [3]
  dscp_to_priority = { "26" = 3, "48" = 6 }
}
`,
	}
	b, err := json.Marshal(map[string]any{"devices": devices})
	if err != nil {
		t.Fatal(err)
	}
	files["inventory.json"] = string(b)
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("ROCE_USERNAME", host.Username)
	t.Setenv("ROCE_PASSWORD", host.Password)
	t.Setenv("ROCE_PRIVATE_KEY", "")
	tf := initCLI(t, dir)
	tf.must("apply", "-auto-approve", "-input=false", "-no-color")
	tf.emptyPlan(t.Errorf, "after apply")
	tf.must("destroy", "-auto-approve", "-input=false", "-no-color")

	if err := os.WriteFile(filepath.Join(dir, "known_hosts"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	out, code := tf.run("plan", "-detailed-exitcode", "-input=false", "-no-color")
	if code != 1 || !strings.Contains(out, "unknown host") || !strings.Contains(out, "ssh-keyscan") {
		t.Errorf("an unknown host key must fail the plan (exit 1) saying so, got %d:\n%s", code, out)
	}
}
