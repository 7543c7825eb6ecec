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

func nxosLeaf(sw *lab.NXOSSwitch) cliLeaf {
	return cliLeaf{sw: sw, device: "nxos-1", running: sw.RunningConfig, blockOf: nxosBlock, leftover: "checkpoints",
		leftovers: sw.Checkpoints, policy: nxosPolicyHCL, pfc: nxosPFCHCL, port: "Ethernet1/1", platform: "nxos"}
}

// nxosPolicyHCL is the contract's example policy on a Nexus: the roce class lossless with a
// jumbo MTU (NX-OS network-qos classes default to 1500).
func nxosPolicyHCL(ecnMin int, ports string) string {
	return leafPolicyHCL("nxos-1", ecnMin, ports, "mtu = 9216")
}

// nxosPFCHCL is the port's PFC with a headroom whose pause threshold is xoff bytes.
func nxosPFCHCL(port string, xoff int) string {
	return fmt.Sprintf(`
resource "roce_pfc_interface" "e1" {
  device     = "nxos-1"
  interface  = %q
  buffer     = { xoff_bytes = %d, xon_bytes = 61440 }
  watchdog   = { action = "drop" }
  depends_on = [roce_qos_policy.leaf]
}
`, port, xoff)
}

// nxosBlock returns the block of an NX-OS running-config that starts with header: the header
// line and the indented lines under it.
func nxosBlock(running, header string) string {
	lines := strings.Split(running, "\n")
	for i, l := range lines {
		if l != header {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.HasPrefix(lines[j], " ") {
			j++
		}
		return strings.Join(lines[i:j], "\n")
	}
	return ""
}

func TestAccNXOSForeignNetworkQoS(t *testing.T) {
	l := switchLab(t, "nxos")
	l.terminal(t, "nxos-1").configure(
		"policy-map type network-qos OPS-nq", "class type network-qos c-8q-nq4", "pause pfc-cos 4", "exit", "exit",
		"system qos", "service-policy type network-qos OPS-nq")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{{
			Config:      l.providerHCL() + nxosPolicyHCL(153600, `"Ethernet1/1"`),
			ExpectError: regexp.MustCompile(`(?s)Cannot create QoS policy "ROCE".*OPS-nq.*import`),
		}},
	})
	if s := l.NXOS("nxos-1").RunningConfig(); strings.Contains(s, "ROCE") {
		t.Errorf("the refused create left objects on the switch:\n%s", s)
	}
}

// A lossless class added to the policy after the PFC interface was applied: the policy moves
// the port's headroom onto the new no-drop classes in the same apply, so the plan after it is
// empty (the PFC interface would otherwise read its headroom as changed).
func TestAccNXOSLosslessClassAddedUnderPFC(t *testing.T) {
	l := switchLab(t, "nxos")
	sw := l.NXOS("nxos-1")
	v1 := l.providerHCL() + nxosPolicyHCL(153600, `"Ethernet1/1"`) + nxosPFCHCL("Ethernet1/1", 122880)
	storage := replaced(t, nxosPolicyHCL(153600, `"Ethernet1/1"`), "    cnp     =",
		"    storage = { traffic_class = 4, dscp = [10], bandwidth_percent = 10, lossless = true, mtu = 9216 }\n    cnp     =")
	storage = replaced(t, storage, "bandwidth_percent = 50, lossless", "bandwidth_percent = 40, lossless")
	v2 := l.providerHCL() + storage + nxosPFCHCL("Ethernet1/1", 122880)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{Config: v1},
			{Config: v2, Check: func(*terraform.State) error {
				in := nxosBlock(sw.RunningConfig(), "policy-map type queuing roce-in-Ethernet1_1")
				if !strings.Contains(in, "class type queuing c-in-q4\n    pause buffer-size 184320 pause-threshold 122880 resume-threshold 61440") {
					return fmt.Errorf("the headroom is not on the new lossless class 4:\n%s", in)
				}
				return nil
			}},
		},
	})
}

// A policy and a PFC interface with a headroom, nothing ordering them: Terraform may run the
// interface first, which needs the policy's lossless class; it waits for the policy's write
// beside it, so one apply converges whichever goes first, and destroy in any order restores
// the switch.
func TestAccNXOSAnyOrder(t *testing.T) {
	l := switchLab(t, "nxos")
	sw := nxosLeaf(l.NXOS("nxos-1"))
	before := sw.running()
	pfc, policy := unordered(nxosPFCHCL("Ethernet1/1", 122880)), nxosPolicyHCL(153600, `"Ethernet1/1"`)
	headroom := func(*terraform.State) error {
		in := nxosBlock(sw.running(), "policy-map type queuing roce-in-Ethernet1_1")
		if !strings.Contains(in, "class type queuing c-in-q3\n    pause buffer-size 184320 pause-threshold 122880 resume-threshold 61440") {
			return fmt.Errorf("the headroom is not on lossless class 3:\n%s", in)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy:             sw.restored(before),
		// Every apply is followed by a plan that must be empty.
		Steps: []resource.TestStep{
			{Config: l.providerHCL() + pfc + policy, Check: headroom},
			{Config: l.providerHCL()}, // both destroyed at once
			{Config: l.providerHCL() + policy + pfc, Check: headroom},
			{Config: l.providerHCL() + policy}, // the PFC interface destroyed first
		},
	})
}
