# Describe the fabric once in locals; feed the same values to the resources and to the check.
data "roce_profile" "ai" {
  workload = "ai-training"
}

locals {
  leaves = {
    "leaf-1" = ["Ethernet1", "Ethernet2"]
    "leaf-2" = ["Ethernet1", "Ethernet2"]
  }
  hosts = { "gpu-1" = ["eth0", "eth1"], "gpu-2" = ["eth0", "eth1"] }

  policies = [for leaf, ports in local.leaves : {
    device     = leaf
    classes    = data.roce_profile.ai.switch_classes
    interfaces = ports
  }]
  pfc = flatten([for leaf, ports in local.leaves : [for p in ports : {
    device    = leaf
    interface = p
    watchdog  = { action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }
  }]])
  nics = flatten([for host, ifs in local.hosts : [for i in ifs : {
    device           = host
    interface        = i
    pfc_priorities   = data.roce_profile.ai.pfc_priorities
    dscp_to_priority = data.roce_profile.ai.nic_dscp_to_priority
    roce_tos         = data.roce_profile.ai.roce_tos
  }]])
  dcqcn = [for n in local.nics : {
    device     = n.device
    interface  = n.interface
    priorities = data.roce_profile.ai.pfc_priorities
  }]
}

data "roce_fabric_check" "fabric" {
  switch_policies = local.policies
  pfc_interfaces  = local.pfc
  nic_qos         = local.nics
  dcqcn_profiles  = local.dcqcn
}

# Fail the plan of an inconsistent fabric, every error finding in the message.
resource "roce_qos_policy" "leaf" {
  for_each   = { for p in local.policies : p.device => p }
  device     = each.value.device
  classes    = each.value.classes
  interfaces = each.value.interfaces

  lifecycle {
    precondition {
      condition     = data.roce_fabric_check.fabric.ok
      error_message = join("\n", [for f in data.roce_fabric_check.fabric.findings : "${f.severity} ${f.rule} ${f.device}: ${f.message}" if f.severity == "error"])
    }
  }
}

# Or only warn: a check block reports findings without failing the run.
check "roce_fabric" {
  assert {
    condition     = length(data.roce_fabric_check.fabric.findings) == 0
    error_message = join("\n", [for f in data.roce_fabric_check.fabric.findings : "${f.severity} ${f.rule} ${f.device}: ${f.message}"])
  }
}
