package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

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
	tf := initCLI(t, dir)
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
	tf.emptyPlan(t.Fatalf, "after apply", "-var", inventory)
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
