# Golden RoCE metrics as Terraform checks: every plan (and `terraform plan -detailed-exitcode`
# in CI) samples the counters and warns when a port is in a PFC pause storm, marks too much or
# retransmits more than 0.001 % of what it sends.
# Against the lab: make lab, apply examples/quickstart (PFC on priority 3 of mlx5-1 eth0), then
# `rocelab storm --dir .lab mlx5-1 eth0` makes the port receive pauses and ECN marks and lose
# packets (its senders retransmit), and the next
# plan here warns (checks warn; they never fail the plan).
terraform {
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "inventory" {
  type    = string
  default = "../../.lab/inventory.json"
}

variable "max_pause_per_second" {
  description = "PFC pause frames per second per priority above which a port counts as storming."
  type        = number
  default     = 1000
}

variable "max_ecn_marks_per_second" {
  type    = number
  default = 50000
}

variable "max_retransmit_percent" {
  description = "Retransmissions per RDMA packet sent, in percent, above which the RoCE path is losing packets (the golden metric: 0.001 %)."
  type        = number
  default     = 0.001
}

provider "roce" {
  devices = jsondecode(file(var.inventory)).devices
}

check "gpu1_eth0_golden_metrics" {
  data "roce_interface_counters" "gpu1_eth0" {
    device         = "mlx5-1"
    interface      = "eth0"
    sample_seconds = 2
  }

  assert {
    condition = alltrue([
      for prio, rate in coalesce(data.roce_interface_counters.gpu1_eth0.pfc_rx_pause, {}) : rate <= var.max_pause_per_second
    ])
    error_message = "PFC pause storm on mlx5-1 eth0: received pauses per second by priority: ${jsonencode(data.roce_interface_counters.gpu1_eth0.pfc_rx_pause)}."
  }

  assert {
    condition     = coalesce(data.roce_interface_counters.gpu1_eth0.ecn_marked_packets, 0) <= var.max_ecn_marks_per_second
    error_message = "mlx5-1 eth0 sees ${coalesce(data.roce_interface_counters.gpu1_eth0.ecn_marked_packets, 0)} ECN-marked packets per second: congestion on the RoCE path."
  }

  assert {
    condition     = coalesce(data.roce_interface_counters.gpu1_eth0.retransmit_percent, 0) < var.max_retransmit_percent
    error_message = "mlx5-1 eth0 retransmits ${coalesce(data.roce_interface_counters.gpu1_eth0.retransmit_percent, 0)} % of the RDMA packets it sends (over ${var.max_retransmit_percent} %): packets are lost on the RoCE path."
  }
}
