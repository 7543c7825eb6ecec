# One pod of a large fabric: its leaves' policies and PFC, its hosts' NIC QoS and DCQCN, each
# device one resource that gives all its RoCE ports (NICs) one set of settings. Every pod's
# root module calls this module; only the pod's devices differ.
terraform {
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "leaves" {
  description = "The pod's leaf switches and their RoCE ports: { \"leaf-1\" = [\"Ethernet0\", ...] }."
  type        = map(list(string))
}

variable "hosts" {
  description = "The pod's GPU hosts and their RoCE netdevs: { \"gpu-1\" = [\"eth0\", ... \"eth7\"] }."
  type        = map(list(string))
}

# The same profile in every pod: the cross-pod check compares what the pods were given.
data "roce_profile" "ai" {
  workload = "ai-training"
}

locals {
  watchdog = { action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }
  nic = {
    trust            = "dscp"
    pfc_priorities   = data.roce_profile.ai.pfc_priorities
    dscp_to_priority = data.roce_profile.ai.nic_dscp_to_priority
    roce_tos         = data.roce_profile.ai.roce_tos
  }
}

resource "roce_qos_policy" "leaf" {
  for_each   = var.leaves
  device     = each.key
  classes    = data.roce_profile.ai.switch_classes
  interfaces = each.value
}

# A switch's RoCE ports in one resource, the settings once: adding a port is an in-place
# update of this resource, and a port drifted on the device shows as the port leaving
# `interfaces` in the plan.
resource "roce_pfc_interface_group" "leaf" {
  for_each   = var.leaves
  device     = each.key
  interfaces = each.value
  watchdog   = local.watchdog

  depends_on = [roce_qos_policy.leaf]
}

resource "roce_nic_qos_group" "host" {
  for_each         = var.hosts
  device           = each.key
  interfaces       = each.value
  trust            = local.nic.trust
  pfc_priorities   = local.nic.pfc_priorities
  dscp_to_priority = local.nic.dscp_to_priority
  roce_tos         = local.nic.roce_tos
}

resource "roce_dcqcn_group" "host" {
  for_each       = var.hosts
  device         = each.key
  interfaces     = each.value
  priorities     = data.roce_profile.ai.pfc_priorities
  reaction_point = data.roce_profile.ai.reaction_point
}

# What the pod configures, per port and per NIC, in the shape roce_fabric_check takes: the
# cross-pod check reads it from the pod's state.
output "fabric_check_inputs" {
  value = {
    switch_policies = [for leaf, ports in var.leaves : {
      device = leaf, classes = data.roce_profile.ai.switch_classes, interfaces = ports
    }]
    pfc_interfaces = flatten([for leaf, ports in var.leaves : [for p in ports : {
      device = leaf, interface = p, watchdog = local.watchdog
    }]])
    nic_qos = flatten([for host, nics in var.hosts : [for n in nics : merge(local.nic, {
      device = host, interface = n
    })]])
    dcqcn_profiles = flatten([for host, nics in var.hosts : [for n in nics : {
      device = host, interface = n, priorities = data.roce_profile.ai.pfc_priorities
    }]])
  }
}
