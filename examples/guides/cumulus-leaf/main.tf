# An NVIDIA Cumulus Linux leaf (platform "cumulus", NVUE REST API over HTTPS): one lossless
# RoCE QoS policy bound to the GPU-facing ports, and the PFC watchdog on each of them.
#
# Against the lab, from the repository root (the lab's cumulus-1 has ports swp1..swp8 and
# RoCE lossless buffers, as after `nv set qos roce`):
#
#   go run ./internal/lab/cmd/rocelab up --dir .lab --switches cumulus=1    # in a shell of its own
#   terraform -chdir=examples/guides/cumulus-leaf plan
#
# Against a real switch (Cumulus Linux 5.x, NVUE API on port 8765), write an inventory file of
# the same shape without secrets, e.g.
#
#   { "devices": { "leaf-1": { "address": "10.0.0.11:8765", "platform": "cumulus",
#                              "ca_certificate": "-----BEGIN CERTIFICATE-----..." } } }
#
# and run with -var inventory=/path/to/it -var switch=leaf-1 -var 'ports=["swp1"]', the
# credentials in ROCE_USERNAME and ROCE_PASSWORD. The switch must have lossless buffers first
# (`nv set qos roce`, NVIDIA's RoCE guide): NVUE refuses a PFC profile without them.
#
# Each apply is one NVUE revision per resource: created, the changes staged into it, applied
# with NVUE's prompt answered, and polled until it is applied; a revision the switch finds
# invalid is never applied and its reason is the error.
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "inventory" {
  description = "Inventory file whose devices member holds the switch (rocelab writes .lab/inventory.json)."
  type        = string
  default     = "../../../.lab/inventory.json"
}

variable "switch" {
  description = "The switch's key in the inventory, and its name in the provider's devices map."
  type        = string
  default     = "cumulus-1"
}

variable "ports" {
  description = "Ports carrying RoCE: each is bound to the policy and gets the PFC watchdog."
  type        = list(string)
  default     = ["swp1", "swp2", "swp3", "swp4", "swp5", "swp6", "swp7", "swp8"]
}

locals {
  inventory = jsondecode(file(startswith(var.inventory, "/") ? var.inventory : "${path.module}/${var.inventory}"))
  sw        = local.inventory.devices[var.switch]
}

provider "roce" {
  devices = {
    (var.switch) = {
      address  = local.sw.address # host:port of the switch's NVUE API (8765 by default)
      platform = "cumulus"
      # Credentials from the inventory when it has them (the lab's does), else from
      # ROCE_USERNAME / ROCE_PASSWORD. The user must be allowed to apply (group nvapply).
      username = try(local.sw.username, null)
      password = try(local.sw.password, null)
      # The CA that signed the switch's certificate (Cumulus Linux makes a self-signed one at
      # first boot; import your own with `nv set system api certificate`). Without it the
      # system roots are used; `insecure = true` skips the check, with a warning on every run.
      ca_certificate = local.sw.ca_certificate
    }
  }
}

# NVUE profiles named ROCE: qos mapping (trust l3, all 64 DSCPs), egress-scheduler,
# congestion-control and pfc, bound on every port; egress-queue-mapping switch priority N ->
# traffic class N for the classes' priorities (restored on destroy).
resource "roce_qos_policy" "leaf" {
  device                = var.switch
  name                  = "ROCE"
  trust                 = "dscp" # qos mapping ROCE trust l3
  default_traffic_class = 0      # every DSCP no class lists: switch priority 0

  classes = {
    # dscp 26 -> switch priority 3; egress-scheduler traffic-class 3 dwrr bw-percent 50;
    # congestion-control traffic-class 3 ecn enable, min-threshold 150000, max-threshold
    # 1500000, probability 100 (NVIDIA's RoCE values); pfc switch-priority 3.
    roce = {
      traffic_class     = 3
      dscp              = [26]
      bandwidth_percent = 50
      lossless          = true
      ecn = {
        min_threshold_bytes      = 150000
        max_threshold_bytes      = 1500000
        mark_probability_percent = 100
      }
    }
    # dscp 48 -> switch priority 6; egress-scheduler traffic-class 6 strict.
    cnp = {
      traffic_class   = 6
      dscp            = [48]
      strict_priority = true
    }
    # Everything else, traffic class 0 with the other half of the bandwidth.
    default = {
      traffic_class     = 0
      bandwidth_percent = 50
    }
  }

  interfaces = var.ports
}

# The PFC watchdog on each port (interface swpN qos pfc-watchdog state enable). NVUE's watchdog
# drops (action "drop"); its timers are switch-wide (nv set qos pfc-watchdog polling-interval,
# robustness). Headroom and cable length live in the policy's PFC profile on Cumulus.
resource "roce_pfc_interface" "port" {
  for_each  = toset(var.ports)
  device    = var.switch
  interface = each.value
  watchdog  = { action = "drop" }

  # NVUE accepts a watchdog only on a port with PFC, which the policy binds.
  depends_on = [roce_qos_policy.leaf]
}

output "pfc_ports" {
  description = "Ports with the policy's PFC profile and the watchdog."
  value       = sort(keys(roce_pfc_interface.port))
}
