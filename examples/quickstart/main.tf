# Quickstart: one RoCE QoS policy on one switch of the simulated fabric.
#
#   make demo                      # does all of this for you, drift included
#
# or by hand, from the repository root:
#
#   make lab          # the fabric, in the foreground; writes .lab/inventory.json
#   # in another shell; .demo/terraformrc (written by make demo) maps "rocefabric/roce" to bin/
#   # with dev_overrides, so there is no `terraform init`:
#   export TF_CLI_CONFIG_FILE=$PWD/.demo/terraformrc
#   terraform -chdir=examples/quickstart apply
#   go run ./internal/lab/cmd/rocelab get --dir .lab openconfig-1 /qos/queue-management-profiles
#
# Against real switches, point var.inventory at your own inventory file (same shape) or write
# the devices map out as in examples/provider/provider.tf.

terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = {
      source = "rocefabric/roce"
    }
  }
}

variable "inventory" {
  description = "Inventory written by `rocelab up --dir .lab` (address, platform, credentials and CA of every device)."
  type        = string
  # Relative to this directory: the repository's .lab/ from examples/quickstart (and from the
  # copy `make demo` runs in, .demo/quickstart).
  default = "../../.lab/inventory.json"
}

provider "roce" {
  # inventory.json's "devices" member has exactly the shape of the provider's devices map.
  devices = jsondecode(file(startswith(var.inventory, "/") ? var.inventory : "${path.module}/${var.inventory}")).devices
}

# RoCE data on DSCP 26 -> traffic class 3 with ECN marking, CNPs on DSCP 48 -> strict-priority
# class 6, everything else in class 0; the two WRR classes share the remaining bandwidth.
# No `lossless` on the roce class: OpenConfig cannot model PFC (use a sonic, eos or nxos
# switch for that).
resource "roce_qos_policy" "leaf1" {
  device                = "openconfig-1" # a key of the provider's devices map
  name                  = "ROCE"         # device objects are named ROCE, ROCE-<class>, ...
  trust                 = "dscp"
  default_traffic_class = 0 # where DSCPs that no class lists go

  classes = {
    roce = {
      traffic_class     = 3
      dscp              = [26]
      bandwidth_percent = 50
      # ECN marking starts at 150 KiB of queue depth and reaches 100% at 1.5 MiB.
      # On the device: queue-management profile ROCE-roce.
      ecn = {
        min_threshold_bytes      = 153600
        max_threshold_bytes      = 1536000
        mark_probability_percent = 100
      }
    }
    cnp     = { traffic_class = 6, dscp = [48], strict_priority = true }
    default = { traffic_class = 0, dscp = [0], bandwidth_percent = 50 }
  }

  # The classifier and scheduler are bound to these ports (names from inventory.json's
  # "interfaces").
  interfaces = ["Ethernet1", "Ethernet2"]
}

output "policy_id" {
  description = "The policy's id, <device>/<name>: the import ID too."
  value       = roce_qos_policy.leaf1.id
}
