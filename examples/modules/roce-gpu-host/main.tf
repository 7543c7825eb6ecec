# One GPU host with N RoCE NICs: the same NIC QoS and DCQCN profile on every NIC.
terraform {
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "device" {
  description = "The host's name in the provider's devices map (platform mlx5)."
  type        = string
}

variable "interfaces" {
  description = "The host's RoCE netdevs, e.g. [\"eth0\", \"eth1\"]."
  type        = list(string)
}

variable "roce_dscp" {
  type    = number
  default = 26
}

variable "roce_priority" {
  type    = number
  default = 3
}

variable "cnp_dscp" {
  type    = number
  default = 48
}

variable "cnp_priority" {
  type    = number
  default = 6
}

resource "roce_nic_qos" "nic" {
  for_each = toset(var.interfaces)

  device         = var.device
  interface      = each.key
  trust          = "dscp"
  pfc_priorities = [var.roce_priority]
  dscp_to_priority = {
    (tostring(var.roce_dscp)) = var.roce_priority
    (tostring(var.cnp_dscp))  = var.cnp_priority
  }
  priority_to_tc = {
    (tostring(var.roce_priority)) = var.roce_priority
    (tostring(var.cnp_priority))  = var.cnp_priority
  }
  ets = {
    "0"                           = { bandwidth_percent = 50 }
    (tostring(var.roce_priority)) = { bandwidth_percent = 50 }
    (tostring(var.cnp_priority))  = { strict_priority = true }
  }
}

resource "roce_dcqcn_profile" "nic" {
  for_each = toset(var.interfaces)

  device       = var.device
  interface    = each.key
  priorities   = [var.roce_priority]
  cnp_dscp     = var.cnp_dscp
  cnp_priority = var.cnp_priority
}

output "ids" {
  value = [for n in roce_nic_qos.nic : n.id]
}
