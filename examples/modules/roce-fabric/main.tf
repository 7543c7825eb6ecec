# A whole RoCE fabric from an inventory: every leaf switch gets the workload's QoS policy and PFC
# on its RoCE ports (module ../roce-leaf), every GPU host the matching NIC QoS and DCQCN profile
# on its RoCE NICs (module ../roce-gpu-host). All the numbers come from one data.roce_profile, and
# data.roce_fabric_check checks the same values the devices get: an inconsistent fabric fails
# the plan, naming the rule (R1..R11) and the device, before anything is written.
#
#   module "fabric" {
#     source    = "./modules/roce-fabric"
#     inventory = jsondecode(file("fabric.json")) # a CMDB export; attributes it has beyond
#                                                 # ports / interfaces (rack, serial...) are ignored
#   }
#
# with fabric.json like
#
#   {
#     "switches": { "leaf-1": { "ports": ["Ethernet0", "Ethernet4"], "rack": "r1" } },
#     "hosts":    { "gpu-1":  { "interfaces": ["eth0", "eth1"] } }
#   }
#
# The names are keys of the provider's devices map. Switches must support lossless classes
# (platform sonic today; eos and nxos are planned): an openconfig switch has no PFC model.
# Devices of the fabric managed elsewhere go in var.external: checked, never written.
#
# Copy roce-fabric, roce-leaf and roce-gpu-host side by side into your repository (modules/...)
# and call roce-fabric by a local path: it calls the other two as ../roce-leaf and
# ../roce-gpu-host, which Terraform resolves only within one local directory tree.
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "inventory" {
  description = "The fabric: switches (device name -> RoCE ports) and GPU hosts (device name -> RoCE netdevs). Extra attributes, as a CMDB export carries, are ignored."
  type = object({
    switches = optional(map(object({
      ports = list(string)
    })), {})
    hosts = optional(map(object({
      interfaces = list(string)
    })), {})
  })
  nullable = false
}

variable "workload" {
  description = "data.roce_profile workload: ai-training or storage (both lossless)."
  type        = string
  default     = "ai-training"
  nullable    = false

  validation {
    # roce-leaf puts PFC on every port it binds, which is only right for a lossless policy: a
    # lossy fabric uses roce_qos_policy on the switches without roce_pfc_interface, and
    # roce-gpu-host with lossless = false.
    condition     = contains(["ai-training", "storage"], var.workload)
    error_message = "workload must be \"ai-training\" or \"storage\": this module builds lossless fabrics (PFC on every RoCE port). For a lossy fabric use roce_qos_policy on the switches and examples/modules/roce-gpu-host with lossless = false."
  }
}

variable "link_speed_gbps" {
  description = "Port speed the ECN thresholds are sized for (data.roce_profile). Null: the profile's default, 400 (and its per-port buffer bound)."
  type        = number
  default     = null
}

variable "roce_dscp" {
  description = "DSCP of RoCE data. Null: the profile's default, 26."
  type        = number
  default     = null
}

variable "roce_priority" {
  description = "Priority and traffic class of RoCE data. Null: the profile's default, 3."
  type        = number
  default     = null
}

variable "cnp_dscp" {
  description = "DSCP of congestion notification packets. Null: the profile's default, 48."
  type        = number
  default     = null
}

variable "cnp_priority" {
  description = "Priority and traffic class of CNPs. Null: the profile's default, 6."
  type        = number
  default     = null
}

variable "watchdog" {
  description = "PFC watchdog on every switch port."
  type = object({
    action              = optional(string, "drop")
    detection_time_ms   = number
    restoration_time_ms = number
  })
  default  = { detection_time_ms = 200, restoration_time_ms = 400 }
  nullable = false
}

variable "external" {
  description = <<-EOT
    Devices of the same fabric that this module does not configure (spines in another
    configuration, hosts another team manages), as lists shaped like roce_fabric_check's
    switch_policies, pfc_interfaces, nic_qos and dcqcn_profiles. They are checked together with
    the module's own devices and never written.
  EOT
  type = object({
    switch_policies = optional(any, [])
    pfc_interfaces  = optional(any, [])
    nic_qos         = optional(any, [])
    dcqcn_profiles  = optional(any, [])
  })
  default  = {}
  nullable = false
}

data "roce_profile" "this" {
  workload        = var.workload
  link_speed_gbps = var.link_speed_gbps
  roce_dscp       = var.roce_dscp
  roce_priority   = var.roce_priority
  cnp_dscp        = var.cnp_dscp
  cnp_priority    = var.cnp_priority
}

locals {
  profile = data.roce_profile.this

  # The host-side numbers, read back from the profile's switch classes so hosts and switches
  # cannot disagree.
  roce_dscp     = one(local.profile.switch_classes["roce"].dscp)
  roce_priority = local.profile.switch_classes["roce"].traffic_class
  cnp_dscp      = one(local.profile.switch_classes["cnp"].dscp)
  cnp_priority  = local.profile.switch_classes["cnp"].traffic_class

  # What each resource gets, in roce_fabric_check's shapes. The modules below are fed from these
  # same values; nics mirrors what roce-gpu-host builds from its inputs.
  policies = [for sw, s in var.inventory.switches : {
    device     = sw
    classes    = local.profile.switch_classes
    interfaces = s.ports
  }]
  pfc_interfaces = flatten([for sw, s in var.inventory.switches : [for port in s.ports : {
    device    = sw
    interface = port
    watchdog  = var.watchdog
  }]])
  nics = flatten([for host, h in var.inventory.hosts : [for nic in h.interfaces : {
    device         = host
    interface      = nic
    trust          = "dscp"
    pfc_priorities = local.profile.pfc_priorities
    dscp_to_priority = {
      (tostring(local.roce_dscp)) = local.roce_priority
      (tostring(local.cnp_dscp))  = local.cnp_priority
    }
    priority_to_tc = {
      (tostring(local.roce_priority)) = local.roce_priority
      (tostring(local.cnp_priority))  = local.cnp_priority
    }
    ets = {
      "0"                             = { bandwidth_percent = 50 }
      (tostring(local.roce_priority)) = { bandwidth_percent = 50 }
      (tostring(local.cnp_priority))  = { strict_priority = true }
    }
    roce_tos = local.profile.roce_tos
  }]])
  dcqcn = flatten([for host, h in var.inventory.hosts : [for nic in h.interfaces : {
    device             = host
    interface          = nic
    priorities         = [local.roce_priority]
    cnp_dscp           = local.cnp_dscp
    cnp_priority       = local.cnp_priority
    reaction_point     = local.profile.reaction_point
    notification_point = local.profile.notification_point
  }]])
}

data "roce_fabric_check" "fabric" {
  switch_policies = concat(local.policies, var.external.switch_policies)
  pfc_interfaces  = concat(local.pfc_interfaces, var.external.pfc_interfaces)
  nic_qos         = concat(local.nics, var.external.nic_qos)
  dcqcn_profiles  = concat(local.dcqcn, var.external.dcqcn_profiles)
}

locals {
  errors   = [for f in data.roce_fabric_check.fabric.findings : f if f.severity == "error"]
  warnings = [for f in data.roce_fabric_check.fabric.findings : f if f.severity != "error"]
}

# The gate: an inconsistent fabric fails the plan here. The switches and hosts depend on it, so
# even when the check can only run at apply time (an inventory computed by another resource),
# it runs before any device is touched.
resource "terraform_data" "fabric_check" {
  lifecycle {
    precondition {
      condition     = data.roce_fabric_check.fabric.ok
      error_message = "The RoCE fabric is inconsistent (roce_fabric_check):\n${join("\n", [for f in local.errors : "- ${f.rule} ${coalesce(f.device, "fabric")}: ${f.message}"])}"
    }
  }
}

# Warnings (a port without PFC watchdog, a roce_tos that is not ECN-capable...) do not fail the
# plan; this check shows them.
check "fabric_warnings" {
  assert {
    condition     = length(local.warnings) == 0
    error_message = "roce_fabric_check warnings:\n${join("\n", [for f in local.warnings : "- ${f.rule} ${coalesce(f.device, "fabric")}: ${f.message}"])}"
  }
}

module "leaf" {
  source   = "../roce-leaf"
  for_each = { for p in local.policies : p.device => p }

  device   = each.key
  ports    = each.value.interfaces
  classes  = each.value.classes
  watchdog = var.watchdog

  depends_on = [terraform_data.fabric_check]
}

module "host" {
  source   = "../roce-gpu-host"
  for_each = var.inventory.hosts

  device             = each.key
  interfaces         = each.value.interfaces
  roce_dscp          = local.roce_dscp
  roce_priority      = local.roce_priority
  cnp_dscp           = local.cnp_dscp
  cnp_priority       = local.cnp_priority
  lossless           = length(local.profile.pfc_priorities) > 0
  roce_tos           = local.profile.roce_tos
  reaction_point     = local.profile.reaction_point
  notification_point = local.profile.notification_point

  depends_on = [terraform_data.fabric_check]
}

output "policy_ids" {
  description = "roce_qos_policy ids (<device>/<name>) by switch."
  value       = { for sw, m in module.leaf : sw => m.policy_id }
}

output "pfc_ids" {
  description = "roce_pfc_interface ids (<device>/<port>) by switch."
  value       = { for sw, m in module.leaf : sw => m.pfc_ids }
}

output "nic_ids" {
  description = "roce_nic_qos ids (<device>/<interface>) by host."
  value       = { for host, m in module.host : host => m.ids }
}

output "dcqcn_ids" {
  description = "roce_dcqcn_profile ids (<device>/<interface>) by host."
  value       = { for host, m in module.host : host => m.dcqcn_ids }
}

output "findings" {
  description = "Every roce_fabric_check finding (severity, rule, device, message); empty for a consistent fabric."
  value       = data.roce_fabric_check.fabric.findings
}
