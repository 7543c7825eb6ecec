# A cabling check for CI: the fabric's intent, applied by the resources, is checked cable by
# cable against what LLDP says is really cabled. `terraform plan` fails (exit 1) when a NIC is on
# a port without the RoCE policy, an uplink has no PFC, or the two ends of any cable disagree,
# naming both ends.
#
# Against the lab, from the repository root:
#
#   go run ./internal/lab/cmd/rocelab up --dir .lab --switches eos=2 --hosts mlx5=2    # a shell of its own
#   terraform -chdir=examples/guides/cabling-check apply
#   go run ./internal/lab/cmd/rocelab cable --dir .lab mlx5-2 eth0 eos-1 Ethernet5        # mis-cable a NIC
#   terraform -chdir=examples/guides/cabling-check plan -detailed-exitcode                # exit 1: R12
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "inventory" {
  description = "Inventory file whose devices member holds every device (rocelab writes .lab/inventory.json)."
  type        = string
  default     = "../../../.lab/inventory.json"
}

provider "roce" {
  devices = jsondecode(file(startswith(var.inventory, "/") ? var.inventory : "${path.module}/${var.inventory}")).devices
}

data "roce_profile" "ai" {
  workload = "ai-training"
}

locals {
  # Each leaf's RoCE ports: the host-facing ones and the uplink to the other leaf.
  leaves = {
    "eos-1" = ["Ethernet1", "Ethernet2", "Ethernet8"]
    "eos-2" = ["Ethernet1", "Ethernet2", "Ethernet8"]
  }
  hosts = { "mlx5-1" = ["eth0", "eth1"], "mlx5-2" = ["eth0", "eth1"] }

  policies = { for leaf, ports in local.leaves : leaf => {
    device     = leaf
    classes    = data.roce_profile.ai.switch_classes
    interfaces = ports
  } }
  pfc = { for p in flatten([for leaf, ports in local.leaves : [for port in ports : {
    device    = leaf
    interface = port
    watchdog  = { action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }
  }]]) : "${p.device}/${p.interface}" => p }
  nics = { for n in flatten([for host, ifs in local.hosts : [for i in ifs : {
    device           = host
    interface        = i
    pfc_priorities   = data.roce_profile.ai.pfc_priorities
    dscp_to_priority = data.roce_profile.ai.nic_dscp_to_priority
    roce_tos         = data.roce_profile.ai.roce_tos
  }]]) : "${n.device}/${n.interface}" => n }
}

resource "roce_qos_policy" "leaf" {
  for_each   = local.policies
  device     = each.value.device
  classes    = each.value.classes
  interfaces = each.value.interfaces
}

resource "roce_pfc_interface" "port" {
  for_each   = local.pfc
  device     = each.value.device
  interface  = each.value.interface
  watchdog   = each.value.watchdog
  depends_on = [roce_qos_policy.leaf]
}

resource "roce_nic_qos" "nic" {
  for_each         = local.nics
  device           = each.value.device
  interface        = each.value.interface
  pfc_priorities   = each.value.pfc_priorities
  dscp_to_priority = each.value.dscp_to_priority
  roce_tos         = each.value.roce_tos
}

# What is really cabled, from every device's LLDP neighbours.
data "roce_fabric_links" "cabled" {
  devices = concat(keys(local.leaves), keys(local.hosts))
}

# The same values the resources take, and the cables: a failing check fails the plan.
data "roce_fabric_check" "fabric" {
  switch_policies = values(local.policies)
  pfc_interfaces  = values(local.pfc)
  nic_qos         = values(local.nics)
  links           = data.roce_fabric_links.cabled.links

  lifecycle {
    postcondition {
      condition     = self.ok
      error_message = join("\n", [for f in self.findings : "${f.rule} ${f.device}: ${f.message}" if f.severity == "error"])
    }
  }
}

output "unresolved_neighbors" {
  description = "Neighbours that are not devices of this configuration (other systems, or devices left out)."
  value       = [for u in data.roce_fabric_links.cabled.unresolved : "${u.device} ${u.interface}: ${u.reason}"]
}
