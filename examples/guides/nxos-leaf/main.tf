# A Cisco Nexus 9000 leaf (platform "nxos", SSH CLI): one lossless RoCE QoS policy bound to
# the GPU-facing ports, and PFC with headroom and the PFC watchdog on each of them.
#
# Against the lab, from the repository root (the lab's nxos-1 has ports Ethernet1/1..Ethernet1/8):
#
#   go run ./internal/lab/cmd/rocelab up --dir .lab --switches nxos=1    # in a shell of its own
#   terraform -chdir=examples/guides/nxos-leaf plan
#
# Against a real switch, write an inventory file of the same shape without secrets, e.g.
#
#   { "devices": { "leaf-1": { "address": "10.0.0.21:22", "platform": "nxos",
#                              "host_key": "ssh-rsa AAAA..." } } }
#
# and run with -var inventory=/path/to/it -var switch=leaf-1 -var 'ports=["Ethernet1/1"]', the
# credentials in ROCE_USERNAME and ROCE_PASSWORD (or ROCE_PRIVATE_KEY).
#
# NX-OS applies each configuration line as it is typed, so each apply is one checkpoint
# transaction per resource: `checkpoint roce-<8 hex digits>`, `configure terminal`, the lines,
# `end`. A line the switch refuses rolls the running-config back to the checkpoint
# (`rollback running-config checkpoint roce-... atomic`) and nothing changes. NX-OS has no
# configuration lock: run one Terraform at a time per switch.
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
  default     = "nxos-1"
}

variable "ports" {
  description = "Ports carrying RoCE: each is bound to the policy and gets PFC."
  type        = list(string)
  default = ["Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4",
  "Ethernet1/5", "Ethernet1/6", "Ethernet1/7", "Ethernet1/8"]
}

variable "save_config" {
  description = "Run `copy running-config startup-config` after each change, so the configuration survives a reload."
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
      platform = "nxos"
      # Credentials from the inventory when it has them (the lab's does), else from
      # ROCE_USERNAME / ROCE_PASSWORD / ROCE_PRIVATE_KEY. The login must land in privileged
      # exec (role network-admin), where `checkpoint` and `configure terminal` work.
      username = try(local.sw.username, null)
      password = try(local.sw.password, null)
      # The switch's SSH host key, pinned: any other key fails the run, naming the key the
      # switch presented. Without host_key, known_hosts_file (default ~/.ssh/known_hosts) is used.
      host_key = local.sw.host_key
      # Without it a change lives in the running-config only: a reload loses it, and the next
      # plan shows it missing. A save that fails is a warning: the change is on the switch and
      # Terraform records it.
      save_config = var.save_config
    }
  }
}

# NX-OS has one system network-qos policy (`system qos`), so keep one roce_qos_policy per
# switch. Creating it is refused while `system qos` binds a network-qos policy other than
# default-8q-nq-policy (someone else's): import that policy instead.
resource "roce_qos_policy" "leaf" {
  device                = var.switch
  name                  = "ROCE" # policy-maps ROCE (qos), ROCE-out (queuing), ROCE-nq (network-qos)
  trust                 = "dscp" # the class-maps `match dscp`
  default_traffic_class = 0      # policy-map type qos ROCE, class class-default: set qos-group 0

  classes = {
    # class-map type qos match-any ROCE-roce: match dscp 26; in ROCE: class ROCE-roce,
    # set qos-group 3. ROCE-out, class c-out-8q-q3: bandwidth remaining percent 50,
    # random-detect minimum-threshold 150 kbytes maximum-threshold 1500 kbytes
    # drop-probability 100 weight 0 ecn. ROCE-nq, class c-8q-nq3: pause pfc-cos 3, mtu 9216.
    roce = {
      traffic_class     = 3
      dscp              = [26]
      bandwidth_percent = 50
      lossless          = true
      # Always on a lossless class on NX-OS: a network-qos class without mtu keeps 1500 bytes
      # and drops RoCE's jumbo frames.
      mtu = 9216
      ecn = {
        min_threshold_bytes      = 153600  # whole kbytes on nxos: 150 kbytes
        max_threshold_bytes      = 1536000 # 1500 kbytes
        mark_probability_percent = 100
      }
    }
    # CNPs: class-map ROCE-cnp, match dscp 48; set qos-group 6; ROCE-out, class c-out-8q-q6:
    # priority level 2 (strict classes get levels from the highest traffic class down, after the
    # control queue 7's level 1, which the policy leaves as default-8q-out-policy has it).
    cnp = { traffic_class = 6, dscp = [48], strict_priority = true }
    # class-map ROCE-default, match dscp 0; set qos-group 0; ROCE-out, class
    # c-out-8q-q-default: bandwidth remaining percent 50. The queuing classes of the other
    # traffic classes get bandwidth remaining percent 0: all 8 are written.
    default = { traffic_class = 0, dscp = [0], bandwidth_percent = 50 }
  }

  # On each: service-policy type qos input ROCE; system qos binds ROCE-out (queuing) and ROCE-nq.
  # And system qos: service-policy type network-qos ROCE-nq.
  interfaces = var.ports
}

# PFC on every RoCE port. The no-drop priorities (3) come from the policy's lossless class
# (ROCE-nq, bound in system qos).
resource "roce_pfc_interface" "port" {
  for_each = toset(var.ports)

  device     = var.switch
  interface  = each.key
  mode       = "on"  # priority-flow-control mode on
  link_pause = false # flowcontrol send off, flowcontrol receive off

  # policy-map type queuing roce-in-Ethernet1_1 (one per port), class c-in-q3 (each lossless
  # traffic class): pause buffer-size 184320 pause-threshold 122880 resume-threshold 61440, in
  # bytes; attached as service-policy type queuing input.
  buffer = {
    xoff_bytes = 122880
    xon_bytes  = 61440
  }

  # priority-flow-control watch-dog-interval on. The watchdog drops the stuck priority's
  # traffic; its timers are system-wide on NX-OS, so detection_time_ms and
  # restoration_time_ms stay unset (setting them is a plan-time error).
  watchdog = {
    action = "drop"
  }

  # The headroom goes into the ingress class of each lossless traffic class: the policy's
  # lossless class must be on the switch first.
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
