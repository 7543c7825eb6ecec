package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// aiProfileHCL is data.roce_profile.ai, the ai-training profile the examples feed their
// resources and modules from.
const aiProfileHCL = `
data "roce_profile" "ai" {
  workload = "ai-training"
}
`

// fabricLocals is one fabric described once, in locals that feed both the resources and the
// check, as the docs tell users to do.
const fabricLocals = aiProfileHCL + `

locals {
  leaf = {
    device     = "leaf-1"
    classes    = data.roce_profile.ai.switch_classes
    interfaces = ["Ethernet1"]
  }
  nic = {
    device           = "gpu-1"
    interface        = "eth0"
    pfc_priorities   = data.roce_profile.ai.pfc_priorities
    dscp_to_priority = data.roce_profile.ai.nic_dscp_to_priority
    roce_tos         = data.roce_profile.ai.roce_tos
  }
  dcqcn = {
    device         = "gpu-1"
    interface      = "eth0"
    priorities     = data.roce_profile.ai.pfc_priorities
    reaction_point = data.roce_profile.ai.reaction_point
  }
}
`

// fabricCheckGate fails the plan with roce_fabric_check.fabric's findings unless it is ok.
const fabricCheckGate = `
output "ok" {
  value = data.roce_fabric_check.fabric.ok
  precondition {
    condition     = data.roce_fabric_check.fabric.ok
    error_message = join("\n", [for f in data.roce_fabric_check.fabric.findings : "${f.rule} ${f.device}: ${f.message}"])
  }
}
`

func TestAccProfileAndFabricCheck(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"openconfig": 1}})
	consistent := l.providerHCL() + fabricLocals + `
data "roce_fabric_check" "fabric" {
  switch_policies = [local.leaf]
  pfc_interfaces  = [{ device = "leaf-1", interface = "Ethernet1", watchdog = { detection_time_ms = 200, restoration_time_ms = 400 } }]
  nic_qos         = [local.nic]
  dcqcn_profiles  = [local.dcqcn]
}
` + fabricCheckGate
	// The same fabric, but the host puts PFC on priority 4 while the switches' lossless class is 3.
	inconsistent := l.providerHCL() + fabricLocals + `
data "roce_fabric_check" "fabric" {
  switch_policies = [local.leaf]
  nic_qos         = [merge(local.nic, { pfc_priorities = [4] })]
  dcqcn_profiles  = [local.dcqcn]
}
` + fabricCheckGate
	// The lossy profile has no lossless class, so OpenConfig can apply its classes unchanged.
	plugIn := l.providerHCL() + `
data "roce_profile" "lossy" {
  workload = "lossy"
}

resource "roce_qos_policy" "leaf" {
  device     = "openconfig-1"
  classes    = data.roce_profile.lossy.switch_classes
  interfaces = ["Ethernet1"]
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				Config: consistent,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.roce_profile.ai", tfjsonpath.New("roce_tos"), knownvalue.Int64Exact(106)),
					statecheck.ExpectKnownValue("data.roce_profile.ai", tfjsonpath.New("switch_classes").AtMapKey("roce").AtMapKey("lossless"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.roce_profile.ai", tfjsonpath.New("switch_classes").AtMapKey("roce").AtMapKey("ecn").AtMapKey("min_threshold_bytes"), knownvalue.Int64Exact(262144)),
					// 400G by default: Kmax bounded by the 2.5 MiB per-port budget, Kmin in proportion.
					statecheck.ExpectKnownValue("data.roce_profile.ai", tfjsonpath.New("switch_classes").AtMapKey("roce").AtMapKey("ecn").AtMapKey("max_threshold_bytes"), knownvalue.Int64Exact(2621440)),
					statecheck.ExpectKnownValue("data.roce_profile.ai", tfjsonpath.New("link_speed_gbps"), knownvalue.Int64Exact(400)),
					statecheck.ExpectKnownValue("data.roce_profile.ai", tfjsonpath.New("port_buffer_bytes"), knownvalue.Int64Exact(2621440)),
					statecheck.ExpectKnownValue("data.roce_profile.ai", tfjsonpath.New("nic_dscp_to_priority"), knownvalue.MapExact(map[string]knownvalue.Check{
						"26": knownvalue.Int64Exact(3), "48": knownvalue.Int64Exact(6)})),
					statecheck.ExpectKnownValue("data.roce_fabric_check.fabric", tfjsonpath.New("findings"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownOutputValue("ok", knownvalue.Bool(true)),
				},
			},
			{
				Config:      inconsistent,
				ExpectError: regexp.MustCompile(`(?s)precondition failed.*R1 gpu-1: NIC eth0 on gpu-1 has pfc_priorities \[4\].*lossless traffic classes are \[3\]`),
			},
			{
				Config: plugIn,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("roce_qos_policy.leaf", tfjsonpath.New("id"), knownvalue.StringExact("openconfig-1/ROCE")),
				},
			},
			{
				Config:      l.providerHCL() + `data "roce_profile" "x" { workload = "hpc" }`,
				ExpectError: regexp.MustCompile(`(?s)Invalid workload "hpc"`),
			},
			{
				Config:      l.providerHCL() + "data \"roce_profile\" \"x\" {\n  workload  = \"storage\"\n  roce_dscp = 48\n}\n",
				ExpectError: regexp.MustCompile(`(?s)roce_dscp|cnp_dscp`),
			},
		},
	})
}
