# Two well-known Cisco Nexus RoCE configurations written as roce_qos_policy (and
# roce_pfc_interface) resources, each line of the original mapped to the attribute that
# expresses it, and what the provider writes differently said where it does.
#
#   1. The "golden template" that RoCE articles give for a Nexus switch:
#
#        class-map type qos match-any ROCE
#          match dscp 26
#        policy-map type qos ROCE_POLICY
#          class ROCE
#            pause no-drop
#        system qos
#          service-policy type qos input ROCE_POLICY
#
#   2. Microsoft's reference TOR configuration for Azure Local (Nexus 93180YC-FX): RDMA on CoS 3,
#      lossless with ECN, the cluster heartbeat on CoS 7, jumbo MTU on every class. Its lines are
#      quoted below, next to the attributes.
#
# NX-OS has one system network-qos policy, so each policy has a switch of its own ("nxos-1" and
# "nxos-2" by default). Against the lab, from the repository root:
#
#   go run ./internal/lab/cmd/rocelab up --dir .lab --switches nxos=2 --ports 17   # own shell
#   terraform -chdir=examples/guides/nxos-seed-template plan
#
# On a switch that already runs one of these configurations by hand, creating the policy is
# refused: its policy-map type qos exists, or (under another name) `system qos` binds the
# switch's own network-qos policy (QOS_NETWORK in the Azure reference). Import it instead:
#
#   import {
#     to = roce_qos_policy.azure
#     id = "nxos-2/AZLocal_SERVICES"
#   }
#
# The import reads the classes with their traffic classes and CoS values, but not the shares,
# ECN, lossless classes and MTUs, which the reference keeps in policy-maps of other names
# (QOS_EGRESS_PORT, QOS_NETWORK): the plan shows them as changes. The apply then writes
# AZLocal_SERVICES-out and AZLocal_SERVICES-nq, binds the latter in system qos in place of
# QOS_NETWORK (left on the switch, unbound), binds AZLocal_SERVICES-out in system qos in place of
# QOS_EGRESS_PORT (given back on destroy), and replaces the class-maps RDMA and CLUSTER with
# AZLocal_SERVICES-RDMA and -CLUSTER.
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "inventory" {
  description = "Inventory file whose devices member holds both switches (rocelab writes .lab/inventory.json)."
  type        = string
  default     = "../../../.lab/inventory.json"
}

variable "seed_switch" {
  description = "The switch that gets the articles' template (its key in the inventory)."
  type        = string
  default     = "nxos-1"
}

variable "azure_switch" {
  description = "The switch that gets the Azure Local reference (its key in the inventory)."
  type        = string
  default     = "nxos-2"
}

variable "seed_ports" {
  description = "Ports of the template's switch that carry RoCE."
  type        = list(string)
  default     = ["Ethernet1/1"]
}

variable "azure_ports" {
  description = "Storage-intent ports of the Azure Local switch (the reference configures Ethernet1/17)."
  type        = list(string)
  default     = ["Ethernet1/17"]
}

locals {
  inventory = jsondecode(file(startswith(var.inventory, "/") ? var.inventory : "${path.module}/${var.inventory}"))
  switches  = toset([var.seed_switch, var.azure_switch])
}

provider "roce" {
  devices = {
    for name in local.switches : name => {
      address  = local.inventory.devices[name].address
      platform = "nxos"
      username = try(local.inventory.devices[name].username, null)
      password = try(local.inventory.devices[name].password, null)
      host_key = local.inventory.devices[name].host_key
    }
  }
}

# 1. The articles' template.
resource "roce_qos_policy" "seed" {
  device = var.seed_switch
  # `policy-map type qos ROCE_POLICY`. The provider also names its queuing and network-qos
  # policy-maps after it: ROCE_POLICY-out and ROCE_POLICY-nq.
  name = "ROCE_POLICY"
  # `match dscp 26`: the class-maps match DSCP.
  trust = "dscp"
  # Not in the template: what class-default does with every other DSCP. The provider writes it
  # (`class class-default`, `set qos-group 0`), so no DSCP falls through to a stock mapping.
  default_traffic_class = 0

  classes = {
    # `class-map type qos match-any ROCE` + `class ROCE` in ROCE_POLICY. Written as
    # class-map ROCE_POLICY-ROCE (the provider names class-maps <policy>-<class>).
    ROCE = {
      dscp = [26] # `match dscp 26`
      # The template sets no qos-group, so the class never leaves the default queue; the
      # provider needs the traffic class: `set qos-group 3`, queue c-out-8q-q3, PFC priority 3.
      traffic_class = 3
      # `pause no-drop` in a qos policy-map is not how a Nexus 9000 makes a class lossless:
      # there it is the network-qos policy. lossless = true writes policy-map type
      # network-qos ROCE_POLICY-nq, class c-8q-nq3, `pause pfc-cos 3`, bound in system qos.
      lossless = true
      # Not in the template, and needed: a network-qos class without mtu keeps 1500 bytes and
      # drops RoCE's jumbo frames. `mtu 9216` in class c-8q-nq3.
      mtu = 9216
      # Not in the template: the queuing policy ROCE_POLICY-out owns all 8 egress queues, so
      # each class states its share. c-out-8q-q3: `bandwidth remaining percent 50`.
      bandwidth_percent = 50
      # The template marks no ECN. The DSCP variant of public RoCE guides adds
      # `random-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes
      # drop-probability 7 weight 0 ecn`, which would be:
      # ecn = { min_threshold_bytes = 153600, max_threshold_bytes = 3072000, mark_probability_percent = 7 }
    }
    # Everything else: class-map ROCE_POLICY-default (`match dscp 0`), `set qos-group 0`,
    # c-out-8q-q-default `bandwidth remaining percent 50`. Unlisted DSCPs reach traffic class 0
    # through class-default anyway.
    default = { traffic_class = 0, dscp = [0], bandwidth_percent = 50 }
  }

  # `system qos` + `service-policy type qos input ROCE_POLICY` classifies on every port. The
  # provider binds classification per port instead: `service-policy type qos input ROCE_POLICY`
  # on each of these; system qos gets `service-policy type queuing output ROCE_POLICY-out` and
  # `service-policy type network-qos ROCE_POLICY-nq`.
  interfaces = var.seed_ports
}

# The articles turn PFC on on the RoCE ports: `priority-flow-control mode on`.
resource "roce_pfc_interface" "seed" {
  for_each = toset(var.seed_ports)

  device     = var.seed_switch
  interface  = each.key
  mode       = "on"  # priority-flow-control mode on
  link_pause = false # flowcontrol send off, flowcontrol receive off

  depends_on = [roce_qos_policy.seed]
}

# 2. The Azure Local reference TOR configuration.
resource "roce_qos_policy" "azure" {
  device = var.azure_switch
  # `policy-map type qos AZLocal_SERVICES`. The reference's queuing and network-qos
  # policy-maps QOS_EGRESS_PORT and QOS_NETWORK become AZLocal_SERVICES-out and
  # AZLocal_SERVICES-nq.
  name = "AZLocal_SERVICES"
  # `match cos 3`, `match cos 7`: the class-maps match CoS.
  trust = "pcp"
  # Frames no class matches stay in class-default, qos-group 0 (`set qos-group 0`).
  default_traffic_class = 0

  classes = {
    # `class-map type qos match-all RDMA` (one match line: match-any, as the provider writes
    # it, means the same), written as AZLocal_SERVICES-RDMA.
    RDMA = {
      pcp           = [3]  # `match cos 3`
      traffic_class = 3    # `set qos-group 3`
      lossless      = true # QOS_NETWORK, c-8q-nq3: `pause pfc-cos 3`
      mtu           = 9216 # QOS_NETWORK, c-8q-nq3: `mtu 9216`
      # QOS_EGRESS_PORT, c-out-8q-q3: `bandwidth remaining percent 50`
      bandwidth_percent = 50
      # c-out-8q-q3: `random-detect minimum-threshold 300 kbytes maximum-threshold 300 kbytes
      # drop-probability 100 weight 0 ecn`
      ecn = {
        min_threshold_bytes      = 307200 # 300 kbytes
        max_threshold_bytes      = 307200
        mark_probability_percent = 100
      }
    }
    # `class-map type qos match-all CLUSTER`, `match cos 7`, `set qos-group 7`; QOS_NETWORK
    # c-8q-nq7 `mtu 9216`.
    CLUSTER = {
      pcp           = [7]
      traffic_class = 7
      mtu           = 9216
      # The reference reserves `bandwidth percent 1` of the link for c-out-8q-q7; the provider
      # writes `bandwidth remaining percent`, shares of what strict classes leave that sum to
      # 100, so the heartbeat gets 1 and the default class 49 instead of 48.
      bandwidth_percent = 1
    }
    # The rest: c-8q-nq-default `mtu 9216`, c-out-8q-q-default `bandwidth remaining percent
    # 48` (49 here, see above). The provider writes a class-map AZLocal_SERVICES-default
    # (`match cos 0`) for it; the other queues get `bandwidth remaining percent 0`, as in the
    # reference.
    default = {
      pcp               = [0]
      traffic_class     = 0
      mtu               = 9216
      bandwidth_percent = 49
    }
  }

  # interface Ethernet1/17: `service-policy type qos input AZLocal_SERVICES`. As the reference
  # does, the queuing policy is bound in system qos: AZLocal_SERVICES-out in place of
  # QOS_EGRESS_PORT, with AZLocal_SERVICES-nq (`service-policy type network-qos`).
  interfaces = var.azure_ports
}

# interface Ethernet1/17: `priority-flow-control mode on send-tlv`. mode = "on" writes
# `priority-flow-control mode on` and keeps a `send-tlv` the port already has. The other lines
# of that interface (description, switchport, spanning-tree, the port's own `mtu 9216`, `no
# shutdown`) are not QoS: the provider neither writes nor reads them, so keep the port MTU
# at 9216 yourself.
resource "roce_pfc_interface" "azure" {
  for_each = toset(var.azure_ports)

  device     = var.azure_switch
  interface  = each.key
  mode       = "on"
  link_pause = false

  depends_on = [roce_qos_policy.azure]
}
