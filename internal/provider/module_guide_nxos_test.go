package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// The NX-OS leaf of the transports guide (examples/guides/nxos-leaf), run as the guide says with
// the real CLI against a lab with one nxos switch (`rocelab up --switches nxos=1`): apply, an
// empty plan, the running-config lines the example's comments name, the startup-config saved
// (save_config), a change typed at the switch's CLI detected (exit 2) and repaired, and destroy
// giving back the running-config as it was, with no checkpoint left on the switch.
func TestAccModuleGuideNXOSLeaf(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"nxos": 1}})
	sw := l.NXOS("nxos-1")
	before := sw.RunningConfig()
	tf := applyGuide(t, l, "nxos-leaf")

	running := sw.RunningConfig()
	want := [][2]string{
		{"class-map type qos match-any ROCE-roce", "match dscp 26"},
		{"class-map type qos match-any ROCE-cnp", "match dscp 48"},
		{"class-map type qos match-any ROCE-default", "match dscp 0"},
		{"policy-map type qos ROCE", "class ROCE-roce\n    set qos-group 3"},
		{"policy-map type qos ROCE", "class ROCE-cnp\n    set qos-group 6"},
		{"policy-map type qos ROCE", "class class-default\n    set qos-group 0"},
		{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q3\n    bandwidth remaining percent 50\n" +
			"    random-detect minimum-threshold 150 kbytes maximum-threshold 1500 kbytes drop-probability 100 weight 0 ecn"},
		// Queue 7 stays the control queue (default-8q-out-policy's level 1); CNPs take level 2.
		{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q7\n    priority level 1"},
		{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q6\n    priority level 2"},
		{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q5\n    bandwidth remaining percent 0"},
		{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q-default\n    bandwidth remaining percent 50"},
		{"policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3\n    pause pfc-cos 3\n    mtu 9216"},
		{"system qos", "service-policy type network-qos ROCE-nq"},
		// Egress queuing is system-wide, as every reference configuration binds it: uplinks too.
		{"system qos", "service-policy type queuing output ROCE-out"},
	}
	for _, port := range sw.Interfaces() {
		header := "interface " + port
		ingress := "policy-map type queuing roce-in-" + strings.ReplaceAll(port, "/", "_")
		want = append(want,
			[2]string{header, "priority-flow-control mode on"},
			[2]string{header, "priority-flow-control watch-dog-interval on"},
			[2]string{header, "service-policy type qos input ROCE"},
			[2]string{header, "service-policy type queuing input roce-in-" + strings.ReplaceAll(port, "/", "_")},
			[2]string{ingress, "class type queuing c-in-q3\n    pause buffer-size 184320 pause-threshold 122880 resume-threshold 61440"})
	}
	for _, port := range sw.Interfaces() {
		if strings.Contains(nxosBlock(running, "interface "+port), "queuing output") {
			t.Errorf("interface %s binds a queuing output of its own, hiding system qos's", port)
		}
	}
	wantBlockLines(t, running, nxosBlock, want)
	wantSaved(t, sw, running)
	if c := sw.Checkpoints(); len(c) != 0 {
		t.Errorf("checkpoints left after apply: %v", c)
	}

	// An operator turns PFC off on one port, and drops the jumbo MTU of the lossless class, in
	// their own SSH session.
	l.terminal(t, "nxos-1").configure(
		"interface Ethernet1/3", "priority-flow-control mode off", "exit",
		"policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3", "no mtu")
	tf.driftRepaired("changes typed by hand",
		`# roce_pfc_interface.port["Ethernet1/3"] will be updated in-place`, `"off" -> "on"`,
		"# roce_qos_policy.leaf will be updated in-place", "+ mtu ", "= 9216",
		"Plan: 0 to add, 2 to change, 0 to destroy.")
	if got := sw.RunningConfig(); got != running {
		t.Errorf("the repair must give back the running-config of the first apply.\nwant:\n%s\ngot:\n%s", running, got)
	}

	tf.destroy()
	wantRestored(t, sw, before)
	if c := sw.Checkpoints(); len(c) != 0 {
		t.Errorf("checkpoints left on the switch: %v", c)
	}
}

// examples/guides/nxos-seed-template: the seeds' Nexus RoCE template and the Azure Local
// reference as resources, run as its comments say against a lab with two nxos switches of 17
// ports (the reference configures Ethernet1/17). It validates. nxos-1 is fresh; nxos-2 already
// runs the reference, typed by hand, so creating the Azure policy there is refused (its
// policy-map exists) until it is imported, as the comments say. After the import the apply
// writes the lines the comments name, the plan is empty, and destroy gives nxos-1 its
// running-config back and leaves nxos-2 as the import guide says (the network-qos default in
// system qos, the port's PFC line as before).
func TestAccModuleGuideNXOSSeedTemplate(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"nxos": 2}, Ports: 17})
	seed, azure := l.NXOS("nxos-1"), l.NXOS("nxos-2")
	// The reference (internal/platform/nxos/testdata/nxos-running-config-ipqos-1.txt, a public
	// capture whose source its header names), its QoS and PFC lines.
	l.terminal(t, "nxos-2").configure(
		"policy-map type network-qos QOS_NETWORK",
		"class type network-qos c-8q-nq3", "mtu 9216", "pause pfc-cos 3", "exit",
		"class type network-qos c-8q-nq-default", "mtu 9216", "exit",
		"class type network-qos c-8q-nq7", "mtu 9216", "exit", "exit",
		"class-map type qos match-all RDMA", "match cos 3", "exit",
		"class-map type qos match-all CLUSTER", "match cos 7", "exit",
		"policy-map type qos AZLocal_SERVICES", "class RDMA", "set qos-group 3", "exit", "class CLUSTER", "set qos-group 7", "exit", "exit",
		"policy-map type queuing QOS_EGRESS_PORT",
		"class type queuing c-out-8q-q3", "bandwidth remaining percent 50",
		"random-detect minimum-threshold 300 kbytes maximum-threshold 300 kbytes drop-probability 100 weight 0 ecn", "exit",
		"class type queuing c-out-8q-q-default", "bandwidth remaining percent 48", "exit",
		"class type queuing c-out-8q-q7", "bandwidth percent 1", "exit", "exit",
		"system qos", "service-policy type queuing output QOS_EGRESS_PORT", "service-policy type network-qos QOS_NETWORK", "exit",
		"interface Ethernet1/17", "priority-flow-control mode on send-tlv", "service-policy type qos input AZLocal_SERVICES")
	seedBefore := seed.RunningConfig()
	dir := t.TempDir()
	copyTF(t, guideExample(t, "nxos-seed-template"), dir)
	inventory := "inventory=" + filepath.Join(l.dir, lab.InventoryFile)
	tf := newTFCLI(t, dir)
	tf.must("init", "-input=false", "-no-color")
	tf.must("validate", "-no-color")

	out, code := tf.run("apply", "-auto-approve", "-input=false", "-no-color", "-var", inventory)
	if flat := strings.Join(strings.Fields(out), " "); code != 1 || !strings.Contains(flat, `already has a QoS policy named "AZLocal_SERVICES". Import it`) {
		t.Fatalf("creating the reference's policy over the one typed by hand must fail, saying to import it (exit 1), got %d:\n%s", code, out)
	}
	if !strings.Contains(azure.RunningConfig(), "service-policy type network-qos QOS_NETWORK") {
		t.Fatalf("the refused create changed nxos-2:\n%s", azure.RunningConfig())
	}
	writeFile(t, filepath.Join(dir, "imports.tf"), `
import {
  to = roce_qos_policy.azure
  id = "nxos-2/AZLocal_SERVICES"
}
`)
	tf.must("apply", "-auto-approve", "-input=false", "-no-color", "-var", inventory)
	if out, code := tf.run("plan", "-detailed-exitcode", "-input=false", "-no-color", "-var", inventory); code != 0 {
		t.Fatalf("the plan after apply must be empty (exit 0), got %d:\n%s", code, out)
	}
	for _, c := range []struct {
		sw            *lab.NXOSSwitch
		header, lines string
	}{
		{seed, "class-map type qos match-any ROCE_POLICY-ROCE", "match dscp 26"},
		{seed, "policy-map type qos ROCE_POLICY", "class ROCE_POLICY-ROCE\n    set qos-group 3"},
		{seed, "policy-map type network-qos ROCE_POLICY-nq", "class type network-qos c-8q-nq3\n    pause pfc-cos 3\n    mtu 9216"},
		{seed, "policy-map type queuing ROCE_POLICY-out", "class type queuing c-out-8q-q3\n    bandwidth remaining percent 50"},
		{seed, "system qos", "service-policy type network-qos ROCE_POLICY-nq"},
		{seed, "interface Ethernet1/1", "priority-flow-control mode on"},
		{seed, "interface Ethernet1/1", "service-policy type qos input ROCE_POLICY"},
		{azure, "class-map type qos match-any AZLocal_SERVICES-RDMA", "match cos 3"},
		{azure, "class-map type qos match-any AZLocal_SERVICES-CLUSTER", "match cos 7"},
		{azure, "policy-map type qos AZLocal_SERVICES", "class AZLocal_SERVICES-RDMA\n    set qos-group 3"},
		{azure, "policy-map type queuing AZLocal_SERVICES-out", "class type queuing c-out-8q-q3\n    bandwidth remaining percent 50\n" +
			"    random-detect minimum-threshold 300 kbytes maximum-threshold 300 kbytes drop-probability 100 weight 0 ecn"},
		{azure, "policy-map type queuing AZLocal_SERVICES-out", "class type queuing c-out-8q-q7\n    bandwidth remaining percent 1"},
		{azure, "policy-map type queuing AZLocal_SERVICES-out", "class type queuing c-out-8q-q-default\n    bandwidth remaining percent 49"},
		{azure, "policy-map type network-qos AZLocal_SERVICES-nq", "class type network-qos c-8q-nq3\n    pause pfc-cos 3\n    mtu 9216"},
		{azure, "policy-map type network-qos AZLocal_SERVICES-nq", "class type network-qos c-8q-nq7\n    mtu 9216"},
		{azure, "policy-map type network-qos AZLocal_SERVICES-nq", "class type network-qos c-8q-nq-default\n    mtu 9216"},
		{azure, "system qos", "service-policy type queuing output AZLocal_SERVICES-out\n  service-policy type network-qos AZLocal_SERVICES-nq"},
		// send-tlv kept while the mode stays on
		{azure, "interface Ethernet1/17", "priority-flow-control mode on send-tlv\n  service-policy type qos input AZLocal_SERVICES"},
	} {
		if block := nxosBlock(c.sw.RunningConfig(), c.header); !strings.Contains(block, c.lines) {
			t.Errorf("%s: %q is not in %s:\n%s", c.sw.Name(), c.lines, c.header, block)
		}
	}
	if cm := nxosBlock(azure.RunningConfig(), "class-map type qos match-all RDMA"); cm != "" {
		t.Errorf("the reference's class-map RDMA, replaced by AZLocal_SERVICES-RDMA, is still there:\n%s", cm)
	}

	tf.must("destroy", "-auto-approve", "-input=false", "-no-color", "-var", inventory)
	if after := seed.RunningConfig(); after != seedBefore {
		t.Errorf("destroy did not give back nxos-1's running-config:\n%s", after)
	}
	// Imported: nothing was recorded about the policy, so system qos gets the default network-qos
	// policy (not printed) and the port loses its qos input; the PFC port was created, so its
	// line comes back as it was.
	after := azure.RunningConfig()
	for _, gone := range []string{"AZLocal_SERVICES", "service-policy type network-qos"} {
		if strings.Contains(after, gone) {
			t.Errorf("after destroy nxos-2 still has %q:\n%s", gone, after)
		}
	}
	for _, kept := range [][2]string{
		{"system qos", "service-policy type queuing output QOS_EGRESS_PORT"},
		{"policy-map type network-qos QOS_NETWORK", "pause pfc-cos 3"},
		{"interface Ethernet1/17", "priority-flow-control mode on send-tlv"},
	} {
		if !strings.Contains(nxosBlock(after, kept[0]), kept[1]) {
			t.Errorf("after destroy nxos-2 lacks %q in %s:\n%s", kept[1], kept[0], after)
		}
	}
	for _, sw := range []*lab.NXOSSwitch{seed, azure} {
		if c := sw.Checkpoints(); len(c) != 0 {
			t.Errorf("%s: checkpoints left: %v", sw.Name(), c)
		}
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
