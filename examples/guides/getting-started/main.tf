# Getting started: a lossless RoCE class on the lab's SONiC switch, with PFC on its port.
# Run in place from the repository root, with the lab running (make lab):
#
#   terraform -chdir=examples/guides/getting-started plan
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "inventory" {
  description = "The inventory `make lab` writes: every device's address, platform, credentials and CA or host key."
  type        = string
  default     = "../../../.lab/inventory.json"
}

provider "roce" {
  # inventory.json's "devices" member has the shape of the provider's devices map.
  devices = jsondecode(file(startswith(var.inventory, "/") ? var.inventory : "${path.module}/${var.inventory}")).devices
}

# Consistent numbers for an AI-training fabric: RoCE on DSCP 26 -> traffic class 3 (lossless,
# ECN-marked), CNPs on DSCP 48 -> traffic class 6 (strict priority), the rest in class 0.
data "roce_profile" "ai" {
  workload = "ai-training"
}

# The QoS policy: DSCP map, scheduler, ECN profile and the lossless class, bound to Ethernet0.
resource "roce_qos_policy" "leaf" {
  device     = "sonic-1" # a key of the inventory's devices
  classes    = data.roce_profile.ai.switch_classes
  interfaces = ["Ethernet0"]
}

# PFC on the same port, with a watchdog against pause storms.
resource "roce_pfc_interface" "leaf_e0" {
  device    = "sonic-1"
  interface = "Ethernet0"
  watchdog  = { detection_time_ms = 200, restoration_time_ms = 400 }

  # The port's lossless priorities come from the policy: bind it first.
  depends_on = [roce_qos_policy.leaf]
}

output "policy_id" {
  description = "<device>/<name>: the import ID too."
  value       = roce_qos_policy.leaf.id
}
