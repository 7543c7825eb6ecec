# An Arista EOS leaf (platform "eos", SSH CLI): one lossless RoCE QoS policy bound to the
# GPU-facing ports, and PFC with a watchdog on each of them.
#
# Against the lab, from the repository root (the lab's eos-1 has ports Ethernet1..Ethernet8):
#
#   go run ./internal/lab/cmd/rocelab up --dir .lab --switches eos=1    # in a shell of its own
#   terraform -chdir=examples/guides/eos-leaf plan
#
# Against a real switch, write an inventory file of the same shape without secrets, e.g.
#
#   { "devices": { "leaf-1": { "address": "10.0.0.11:22", "platform": "eos",
#                              "host_key": "ssh-ed25519 AAAA..." } } }
#
# and run with -var inventory=/path/to/it -var switch=leaf-1 -var 'ports=["Ethernet1/1"]', the
# credentials in ROCE_USERNAME and ROCE_PASSWORD (or ROCE_PRIVATE_KEY).
#
# Each apply is one EOS configuration session per resource (roce-<8 hex digits>): the lines,
# then `commit`; a line the switch refuses aborts the session and nothing changes.
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
  default     = "eos-1"
}

variable "ports" {
  description = "Ports carrying RoCE: each is bound to the policy and gets PFC."
  type        = list(string)
  default     = ["Ethernet1", "Ethernet2", "Ethernet3", "Ethernet4", "Ethernet5", "Ethernet6", "Ethernet7", "Ethernet8"]
}

variable "save_config" {
  description = "Run `write memory` after each committed change, so the configuration survives a reload."
  type        = bool
  default     = true
}

locals {
  inventory = jsondecode(file(startswith(var.inventory, "/") ? var.inventory : "${path.module}/${var.inventory}"))
  sw        = local.inventory.devices[var.switch]
}

provider "roce" {
  devices = {
    (var.switch) = {
      address  = local.sw.address # host:port of the switch's SSH server
      platform = "eos"
      # Credentials from the inventory when it has them (the lab's does), else from
      # ROCE_USERNAME / ROCE_PASSWORD / ROCE_PRIVATE_KEY. The login must reach privileged exec
      # (`enable` without a password).
      username = try(local.sw.username, null)
      password = try(local.sw.password, null)
      # The switch's SSH host key, pinned: any other key fails the run, naming the key the
      # switch presented. Without host_key, known_hosts_file (default ~/.ssh/known_hosts) is used.
      host_key = local.sw.host_key
      # Without it a change lives in the running-config only: a reload loses it, and the next
      # plan shows it missing.
      save_config = var.save_config
    }
  }
}

# EOS keeps one set of global qos maps, so keep one roce_qos_policy per EOS switch.
resource "roce_qos_policy" "leaf" {
  device                = var.switch
  name                  = "ROCE" # qos profile ROCE (at most 32 characters on eos)
  trust                 = "dscp" # qos trust dscp, in the profile
  default_traffic_class = 0      # every DSCP no class lists: qos map dscp ... to traffic-class 0

  # The DSCP map is written whole, all 64 DSCPs. The running-config shows only the entries that
  # differ from EOS's defaults (0-7 -> TC 1, 24-31 -> TC 3, 48-55 -> TC 6, ...): here one line,
  # qos map dscp 0 1 2 3 4 5 6 7 16 ... 25 27 ... 47 49 ... 63 to traffic-class 0.
  classes = {
    # qos map dscp 26 to traffic-class 3; tx-queue 3: bandwidth percent 50, no priority,
    # random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes
    # max-mark-probability 100; priority-flow-control priority 3 no-drop.
    roce = {
      traffic_class     = 3
      dscp              = [26]
      bandwidth_percent = 50
      lossless          = true
      ecn = {
        min_threshold_bytes      = 153600  # whole kbytes on eos: 150 kbytes
        max_threshold_bytes      = 1536000 # 1500 kbytes
        mark_probability_percent = 100
      }
    }
    # CNPs: qos map dscp 48 to traffic-class 6; tx-queue 6: priority strict.
    cnp = { traffic_class = 6, dscp = [48], strict_priority = true }
    # tx-queue 0: bandwidth percent 50. The queues of the other TCs get no bandwidth and
    # no priority (EOS queues are strict by default).
    default = { traffic_class = 0, dscp = [0], bandwidth_percent = 50 }
  }

  interfaces = var.ports # service-profile ROCE on each
}

# PFC on every RoCE port. The no-drop priorities (3) come from the policy's lossless class.
resource "roce_pfc_interface" "port" {
  for_each = toset(var.ports)

  device     = var.switch
  interface  = each.key
  mode       = "on"  # priority-flow-control on
  link_pause = false # flowcontrol send off, flowcontrol receive off

  # priority-flow-control pause watchdog, ... port action drop,
  # ... port timer timeout 0.20 polling-interval auto recovery-time 0.40 (10 ms steps on eos)
  watchdog = {
    action              = "drop"
    detection_time_ms   = 200
    restoration_time_ms = 400
  }

  depends_on = [roce_qos_policy.leaf]
}

output "policy_id" {
  description = "<device>/<name>: the import ID too."
  value       = roce_qos_policy.leaf.id
}

output "pfc_ids" {
  description = "<device>/<interface> of each PFC port."
  value       = [for p in roce_pfc_interface.port : p.id]
}
