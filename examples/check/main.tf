# Golden RoCE metrics as Terraform checks: every plan (and `terraform plan -detailed-exitcode`
# in CI) samples the counters and warns when a port is in a PFC pause storm or marks too much.
# Against the lab: make lab, apply examples/quickstart (PFC on priority 3 of mlx5-1 eth0), then
# `rocelab storm --dir .lab mlx5-1 eth0` makes the port receive pauses and ECN marks, and the next
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
}
