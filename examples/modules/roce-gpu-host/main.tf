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

variable "lossless" {
  description = "PFC on the RoCE priority. Set false for a lossy fabric (data.roce_profile with workload = \"lossy\"): PFC then stays off on every priority, and DCQCN still runs on the RoCE priority."
  type        = bool
  default     = true
  nullable    = false
}

variable "roce_tos" {
  description = "ToS byte of the NIC's RoCE traffic (roce_nic_qos.roce_tos), e.g. data.roce_profile.ai.roce_tos (106 = DSCP 26 << 2 | ECT(0)). Null leaves it unmanaged."
  type        = number
  default     = null
}

variable "reaction_point" {
  description = "DCQCN reaction-point parameters, shaped like roce_dcqcn_profile.reaction_point (e.g. data.roce_profile.ai.reaction_point). Null leaves them unmanaged."
  type        = any
  default     = null
}

variable "notification_point" {
  description = "DCQCN notification-point parameters, shaped like roce_dcqcn_profile.notification_point (e.g. data.roce_profile.ai.notification_point). Null leaves them unmanaged."
  type        = any
  default     = null
}

variable "persist" {
  description = "Keep the settings across reboots, driver reloads and firmware resets: each resource installs a systemd unit on the host that writes them again whenever the netdev appears (roce_nic_qos.persist). Set false on hosts without systemd 244 or later; a plan after a reboot then shows the drift."
  type        = bool
  default     = true
  nullable    = false
}

resource "roce_nic_qos" "nic" {
  for_each = toset(var.interfaces)

  device         = var.device
  interface      = each.key
  trust          = "dscp"
  pfc_priorities = var.lossless ? [var.roce_priority] : []
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
  roce_tos = var.roce_tos
  persist  = var.persist
}

resource "roce_dcqcn_profile" "nic" {
  for_each = toset(var.interfaces)

  device             = var.device
  interface          = each.key
  priorities         = [var.roce_priority]
  cnp_dscp           = var.cnp_dscp
  cnp_priority       = var.cnp_priority
  reaction_point     = var.reaction_point
  notification_point = var.notification_point
  persist            = var.persist
}

variable "firmware" {
  description = "Adapter NV parameters (roce_nic_firmware.parameters) by the netdev to reach each adapter through, e.g. { eth0 = { LINK_TYPE_P1 = \"ETH(2)\", ROCE_CC_PRIO_MASK_P1 = \"8\" } }: one netdev per adapter (a dual-port adapter's _P1 and _P2 parameters are both reached through either of its ports). They take effect at the next cold reboot; the firmware_pending_reboot output says when one is due."
  type        = map(map(string))
  default     = {}
  nullable    = false
}

resource "roce_nic_firmware" "adapter" {
  for_each = var.firmware

  device     = var.device
  interface  = each.key
  parameters = each.value
}

output "firmware_pending_reboot" {
  description = "Adapters (by the netdev given in var.firmware) whose new firmware values wait for a cold reboot."
  value       = [for k, f in roce_nic_firmware.adapter : k if f.pending_reboot]
}

output "ids" {
  description = "roce_nic_qos ids, <device>/<interface>."
  value       = [for n in roce_nic_qos.nic : n.id]
}

output "dcqcn_ids" {
  description = "roce_dcqcn_profile ids, <device>/<interface>."
  value       = [for n in roce_dcqcn_profile.nic : n.id]
}
