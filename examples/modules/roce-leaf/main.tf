# A leaf switch: one RoCE QoS policy bound to the given ports, and PFC with headroom and a
# watchdog on each of them.
terraform {
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "device" {
  description = "The switch's name in the provider's devices map (platform sonic, eos or nxos)."
  type        = string
}

variable "ports" {
  description = "Ports carrying RoCE."
  type        = list(string)
}

variable "classes" {
  description = "Traffic classes, shaped like roce_qos_policy.classes (for example data.roce_profile.ai.switch_classes)."
  type        = any
}

variable "watchdog" {
  description = "PFC watchdog for every port."
  type = object({
    action              = optional(string, "drop")
    detection_time_ms   = number
    restoration_time_ms = number
  })
  default = { detection_time_ms = 200, restoration_time_ms = 400 }
}

resource "roce_qos_policy" "this" {
  device     = var.device
  classes    = var.classes
  interfaces = var.ports
}

resource "roce_pfc_interface" "port" {
  for_each = toset(var.ports)

  device    = var.device
  interface = each.key
  watchdog  = var.watchdog

  depends_on = [roce_qos_policy.this]
}

output "policy_id" {
  value = roce_qos_policy.this.id
}

output "pfc_ids" {
  value = [for p in roce_pfc_interface.port : p.id]
}
