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

func nxosLab(t *testing.T) *accLab {
	return startLab(t, lab.Options{Switches: map[string]int{"nxos": 1}})
}

func nxosLeaf(sw *lab.NXOSSwitch) cliLeaf {
	return cliLeaf{device: "nxos-1", running: sw.RunningConfig, blockOf: nxosBlock, leftover: "checkpoints",
		leftovers: sw.Checkpoints, connections: func() int64 { return sw.Counters().Connections },
		policy: nxosPolicyHCL, port: "Ethernet1/1", platform: "nxos"}
}

// nxosPolicyHCL is the contract's example policy on a Nexus: the roce class lossless with a
// jumbo MTU (NX-OS network-qos classes default to 1500).
func nxosPolicyHCL(ecnMin int, ports string) string {
	return leafPolicyHCL("nxos-1", ecnMin, ports, "mtu = 9216")
}

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

func TestAccNXOSPolicyAndPFC(t *testing.T) {
	l := nxosLab(t)
	v1 := l.providerHCL() + nxosPolicyHCL(153600, `"Ethernet1/1", "Ethernet1/2"`) + nxosPFCHCL("Ethernet1/1", 122880)
	v2 := l.providerHCL() + nxosPolicyHCL(204800, `"Ethernet1/2", "Ethernet1/3"`) + nxosPFCHCL("Ethernet1/1", 143360)
	l.policyAndPFC(t, nxosLeaf(l.NXOS("nxos-1")), v1, v2, [][3]string{
		{"roce class-map", "class-map type qos match-any ROCE-roce", "match dscp 26"},
		{"qos-group", "policy-map type qos ROCE", "class ROCE-roce\n    set qos-group 3"},
		{"unlisted DSCPs to the default TC", "policy-map type qos ROCE", "class class-default\n    set qos-group 0"},
		{"ECN in kbytes", "policy-map type queuing ROCE-out", "random-detect minimum-threshold 150 kbytes maximum-threshold 1500 kbytes drop-probability 100 weight 0 ecn"},
		{"cnp strict", "policy-map type queuing ROCE-out", "class type queuing c-out-8q-q6\n    priority level 2"},
		{"control queue kept", "policy-map type queuing ROCE-out", "class type queuing c-out-8q-q7\n    priority level 1"},
		{"unused queue owned whole", "policy-map type queuing ROCE-out", "class type queuing c-out-8q-q5\n    bandwidth remaining percent 0"},
		{"no-drop", "policy-map type network-qos ROCE-nq", "pause pfc-cos 3"},
		{"jumbo", "policy-map type network-qos ROCE-nq", "mtu 9216"},
		{"jumbo default class", "policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq-default\n    mtu 9216"},
		{"system qos", "system qos", "service-policy type network-qos ROCE-nq"},
		{"Ethernet1/2 bound", "interface Ethernet1/2", "service-policy type qos input ROCE"},
		{"PFC on", "interface Ethernet1/1", "priority-flow-control mode on"},
		{"watchdog", "interface Ethernet1/1", "priority-flow-control watch-dog-interval on"},
		{"headroom", "policy-map type queuing roce-in-Ethernet1_1", "pause buffer-size 184320 pause-threshold 122880 resume-threshold 61440"},
	}, []resource.TestStep{
		{ResourceName: "roce_qos_policy.leaf", ImportState: true, ImportStateId: "nxos-1/ROCE", ImportStateVerify: true},
		{ResourceName: "roce_pfc_interface.e1", ImportState: true, ImportStateId: "nxos-1/Ethernet1/1", ImportStateVerify: true},
	}, policyMove{
		unbound: "interface Ethernet1/1", bound: "service-policy type qos input",
		updated: [][3]string{
			{"Ethernet1/3 bound", "interface Ethernet1/3", "service-policy type qos input ROCE"},
			{"queuing system-wide", "system qos", "service-policy type queuing output ROCE-out"},
			{"ECN updated", "policy-map type queuing ROCE-out", "minimum-threshold 200 kbytes"},
		},
		operator: []string{"policy-map type queuing ROCE-out", "class type queuing c-out-8q-q3",
			"random-detect minimum-threshold 100 kbytes maximum-threshold 1500 kbytes drop-probability 100 weight 0 ecn",
			"interface Ethernet1/1", "priority-flow-control mode off"},
		repaired: [][3]string{
			{"ECN repaired", "policy-map type queuing ROCE-out", "minimum-threshold 200 kbytes"},
			{"PFC repaired", "interface Ethernet1/1", "priority-flow-control mode on"},
		},
	})
}

func TestAccNXOSRejectedChange(t *testing.T) {
	l := nxosLab(t)
	sw := l.NXOS("nxos-1")
	v1 := l.providerHCL() + nxosPolicyHCL(153600, `"Ethernet1/1"`)
	v2 := l.providerHCL() + nxosPolicyHCL(204800, `"Ethernet1/1"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: append(rejectedChangeSteps(t, sw, v1, v2,
			// the switch refuses a line in the middle of the create with a module status (no `%`,
			// no `ERROR:`; a capture in nxos-switch.md, "Refusals"): rolled back to the checkpoint
			refusal{"random-detect", `Unable to perform the action due to incompatibility:  Module 1 returned status "ACLQOS_ERROR: Invalid Class id : Max class reached"`,
				regexp.MustCompile(`(?s)Cannot create QoS policy "ROCE" on device "nxos-1".*random-detect.*Module\s+1\s+returned\s+status.*Max\s+class\s+reached.*rolled\s+back`)},
			// the TCAM refusal of a switch whose qos region is not carved
			refusal{"minimum-threshold 200 kbytes", `Unable to perform the action due to incompatibility:  Module 1 returned status "TCAM region is not configured. Please configure TCAM region and retry"`,
				regexp.MustCompile(`(?s)Cannot update QoS policy "ROCE".*TCAM\s+region\s+is\s+not\s+configured`)},
			"checkpoints", sw.Checkpoints),
			resource.TestStep{ // a line taken with a warning: applied, recorded, and the warning shown
				PreConfig: func() {
					sw.WarnLines("minimum-threshold 200 kbytes", "Warning: privilege escalation support is deprecated and will be removed in future release.")
				},
				Config: v2,
				Check: func(*terraform.State) error {
					sw.WarnLines("", "")
					if !strings.Contains(sw.RunningConfig(), "minimum-threshold 200 kbytes") {
						return fmt.Errorf("the change answered with a warning was not applied")
					}
					return nil
				},
			},
			resource.TestStep{Config: v2, PlanOnly: true},
		),
	})
}

func TestAccNXOSForeignNetworkQoS(t *testing.T) {
	l := nxosLab(t)
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

func TestAccNXOSPlanTimeErrors(t *testing.T) {
	l := nxosLab(t)
	l.planErrors(t, nxosLeaf(l.NXOS("nxos-1")), "Ethernet1/1 ; reload",
		planError{"mtu out of range", `
resource "roce_qos_policy" "x" {
  device = "nxos-1"
  classes = { roce = { traffic_class = 3, dscp = [26], bandwidth_percent = 100, mtu = 9300 } }
}`, `(?s)mtu 9300 out of range 1500-9216`, nil},
		planError{"watchdog times", `
resource "roce_pfc_interface" "x" {
  device    = "nxos-1"
  interface = "Ethernet1/1"
  watchdog  = { detection_time_ms = 200, restoration_time_ms = 400 }
}`, `(?s)Not supported on platform nxos.*system-wide`, nil},
		planError{"cable length", `
resource "roce_pfc_interface" "x" {
  device    = "nxos-1"
  interface = "Ethernet1/1"
  buffer    = { cable_length_m = 5 }
}`, `(?s)Not supported on platform nxos`, nil})
}

// A lossless class added to the policy after the PFC interface was applied: the policy moves
// the port's headroom onto the new no-drop classes in the same apply, so the plan after it is
// empty (the PFC interface would otherwise read its headroom as changed).
func TestAccNXOSLosslessClassAddedUnderPFC(t *testing.T) {
	l := nxosLab(t)
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
	l := nxosLab(t)
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
