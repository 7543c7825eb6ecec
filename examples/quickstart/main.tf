# Quickstart: RoCE QoS policies on four switches of the simulated fabric (openconfig-1; sonic-1,
# nxos-1 and cumulus-1 lossless with PFC), and the matching NIC QoS and DCQCN profile on one GPU
# host's NIC.
#
#   make demo                      # does all of this for you, drift and a host reboot included
#
# or by hand, from the repository root:
#
#   # the fabric (switches openconfig-1, sonic-1, eos-1, nxos-1, cumulus-1 and host mlx5-1), in
#   # the foreground; writes
#   # .lab/inventory.json
#   make lab
#   # in another shell; .demo/terraformrc (written by make demo) maps "rocefabric/roce" to bin/
#   # with dev_overrides, so there is no `terraform init`:
#   export TF_CLI_CONFIG_FILE=$PWD/.demo/terraformrc
#   terraform -chdir=examples/quickstart apply
#   go run ./internal/lab/cmd/rocelab get --dir .lab openconfig-1 /qos/queue-management-profiles
#   go run ./internal/lab/cmd/rocelab reboot --dir .lab mlx5-1   # the boot units restore the host: plan is empty
#
# Against real switches and hosts, point var.inventory at your own inventory file (same shape)
# or write the devices map out as in examples/provider/provider.tf.

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

locals {
  # RoCE data on DSCP 26 -> traffic class 3 with ECN marking, CNPs on DSCP 48 -> strict-priority
  # class 6, everything else in class 0; the two WRR classes share the remaining bandwidth.
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

  # The same classes with the roce class lossless (PFC no-drop on its traffic class), for the
  # switches that can say so: sonic, nxos and cumulus.
  lossless_classes = merge(local.classes, { roce = merge(local.classes.roce, { lossless = true }) })
}

# The classes on the lab's OpenConfig switch. No `lossless` on the roce class: OpenConfig cannot
# model PFC (use a sonic, eos, nxos or cumulus switch for that).
resource "roce_qos_policy" "leaf1" {
  device                = "openconfig-1" # a key of the provider's devices map
  name                  = "ROCE"         # device objects are named ROCE, ROCE-<class>, ...
  trust                 = "dscp"
  default_traffic_class = 0 # where DSCPs that no class lists go
  classes               = local.classes

  # The classifier and scheduler are bound to these ports (names from inventory.json's
  # "interfaces").
  interfaces = ["Ethernet1", "Ethernet2"]
}

# The same classes on the lab's SONiC leaf (device "sonic-1", gNMI with CONFIG_DB writes), where
# the roce class is lossless: SONiC carries the PFC no-drop set (pfc_enable "3" on the bound
# port). Without this policy the switch's stock map would send DSCP 26 to traffic class 1.
resource "roce_qos_policy" "leaf2" {
  device     = "sonic-1"
  classes    = local.lossless_classes
  interfaces = ["Ethernet0"]
}

# PFC on that port: headroom for the lossless priority group and a PFC watchdog against pause
# storms and deadlocks.
resource "roce_pfc_interface" "leaf2_e0" {
  device    = "sonic-1"
  interface = "Ethernet0"
  buffer    = { xoff_bytes = 122880, xon_bytes = 61440, cable_length_m = 5 }
  watchdog  = { detection_time_ms = 200, restoration_time_ms = 400 }

  depends_on = [roce_qos_policy.leaf2]
}

# The same classes on the lab's Cisco Nexus leaf (device "nxos-1", its CLI over SSH). Each apply
# is one checkpoint transaction: class-maps ROCE-<class>, policy-maps ROCE (qos), ROCE-out
# (queuing: all 8 classes) and ROCE-nq (network-qos: `pause pfc-cos 3`, jumbo MTU), then
# `system qos` and the port bindings; a refused line rolls the switch back to the checkpoint.
resource "roce_qos_policy" "leaf3" {
  device = "nxos-1"
  # mtu on the roce class: a network-qos class without mtu keeps 1500 and drops RoCE jumbo frames.
  classes    = merge(local.lossless_classes, { roce = merge(local.lossless_classes.roce, { mtu = 9216 }) })
  interfaces = ["Ethernet1/1"]
}

# PFC on that port: `priority-flow-control mode on` and the PFC watchdog (NX-OS's watchdog
# timers are system-wide, so no times here).
resource "roce_pfc_interface" "leaf3_e1_1" {
  device    = "nxos-1"
  interface = "Ethernet1/1"
  watchdog  = { action = "drop" }

  depends_on = [roce_qos_policy.leaf3]
}

# The same classes on the lab's NVIDIA Cumulus Linux leaf (device "cumulus-1", NVUE's REST API
# over HTTPS). Each apply is one NVUE revision: profiles named ROCE in qos mapping,
# egress-scheduler, congestion-control and pfc, bound on swp1; the switch refuses the whole
# revision, or applies all of it. The lab's switch has RoCE lossless buffers (`nv set qos roce`).
resource "roce_qos_policy" "leaf4" {
  device     = "cumulus-1"
  classes    = local.lossless_classes
  interfaces = ["swp1"]
}

# The PFC watchdog on swp1 (NVUE's watchdog drops; its timers are switch-wide).
resource "roce_pfc_interface" "leaf4_swp1" {
  device    = "cumulus-1"
  interface = "swp1"
  watchdog  = { action = "drop" }

  depends_on = [roce_qos_policy.leaf4]
}

# The host side of the same policy, on the lab's NVIDIA mlx5 host (device "mlx5-1", reached over
# SSH). RoCE only works end to end when the NIC and the switches agree on every number:
#   - the NIC trusts DSCP and maps DSCP 26 -> priority 3 and DSCP 48 -> priority 6, the same DSCPs
#     the switch classifies into traffic classes 3 (roce) and 6 (cnp) above;
#   - PFC is on priority 3 only: the RoCE class is the lossless one (lossless = true on sonic-1;
#     the openconfig switch cannot say so: no PFC model), and pfc_priorities must equal the
#     switches' lossless classes;
#   - ETS mirrors the switch's scheduler: 50/50 between TCs 0 and 3, TC 6 strict for CNPs;
#   - roce_tos 106 = DSCP 26 << 2 | ECT(0): the NIC sends RoCE with the DSCP the switch expects,
#     ECN-capable so the switch's ECN profile (ROCE-roce) can mark it.
# These settings (mlnx_qos and sysfs) do not survive a reboot of the host by themselves: persist
# (the default) installs a systemd unit on the host that writes them again whenever eth0 appears
# (boot, driver reload, firmware reset). `make demo` reboots the host and shows an empty plan.
resource "roce_nic_qos" "gpu1_eth0" {
  device           = "mlx5-1" # a host (platform mlx5) in the provider's devices map
  interface        = "eth0"
  trust            = "dscp"
  pfc_priorities   = [3]
  dscp_to_priority = { "26" = 3, "48" = 6 }
  priority_to_tc   = { "3" = 3, "6" = 6 }
  ets = {
    "0" = { bandwidth_percent = 50 }
    "3" = { bandwidth_percent = 50 }
    "6" = { strict_priority = true }
  }
  roce_tos = 106 # DSCP 26 << 2 | ECT(0)
}

# DCQCN on the same NIC: the rate control that reacts to the switch's ECN marks. It runs on the
# lossless RoCE priority 3, and the receiver answers marked packets with CNPs sent on DSCP 48,
# priority 6: the switch's strict-priority cnp class, so congestion feedback is never queued
# behind the traffic it is about.
resource "roce_dcqcn_profile" "gpu1_eth0" {
  device       = "mlx5-1"
  interface    = "eth0"
  priorities   = [3]
  cnp_dscp     = 48
  cnp_priority = 6
}

output "policy_id" {
  description = "The policy's id, <device>/<name>: the import ID too."
  value       = roce_qos_policy.leaf1.id
}

output "nic_id" {
  description = "The NIC QoS's id, <device>/<interface>: the import ID too."
  value       = roce_nic_qos.gpu1_eth0.id
}
