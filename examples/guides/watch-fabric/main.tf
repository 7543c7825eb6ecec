# Watching a RoCE fabric: the five golden metrics as check blocks, read from the devices on
# every run. A configuration of its own, with no resources and no state to keep: the
# scheduled job (watch.sh) plans it, reads the check results from the saved plan and fails
# on any that did not pass. The checks are in pfc.tf, retransmit.tf, buffers.tf, dscp.tf and
# latency.tf.
#
# Against the lab, from the repository root, with the provider set up as the getting started
# guide says:
#
#   bin/rocelab up --dir .lab --switches sonic=1 --hosts mlx5=2   # a shell of its own
#   (cd examples/guides/watch-fabric && ./watch.sh)
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "inventory" {
  description = "Inventory file whose devices member holds every device (rocelab writes .lab/inventory.json)."
  type        = string
  default     = "../../../.lab/inventory.json"
}

variable "sample_seconds" {
  description = "Window of the counter rates: each device is read twice this far apart (1-300). 300 is the source article's 5-minute delta."
  type        = number
  default     = 30
}

variable "max_pause_frames_per_second" {
  description = "PFC pause frames per second on one priority above which a port counts as storming (our derivation for 100 Gb/s links; see the guide)."
  type        = number
  default     = 1000
}

variable "max_retransmit_percent" {
  description = "Retransmissions per RDMA packet sent, in percent (the golden metric: 0.001)."
  type        = number
  default     = 0.001
}

variable "max_buffer_utilization_percent" {
  description = "Peak lossless-queue occupancy as a percentage of its buffer pool (the golden metric's alarm: 80)."
  type        = number
  default     = 80
}

provider "roce" {
  devices = jsondecode(file(startswith(var.inventory, "/") ? var.inventory : "${path.module}/${var.inventory}")).devices
}

locals {
  # The devices watched. dscp.tf audits the same ones; buffers.tf expects a buffer reading from
  # every port of the SONiC switches.
  sonic_switches = ["sonic-1"]
  hosts          = ["mlx5-1", "mlx5-2"]
}

# Every port that carries RoCE, read once per device (twice with sample_seconds). A device
# that cannot be read fails the plan (exit 1): the job could not watch, which is not a finding.
data "roce_fabric_counters" "fabric" {
  devices = {
    "sonic-1" = { interfaces = ["Ethernet0", "Ethernet8"] } # the leaf ports of mlx5-1 eth0 and mlx5-2 eth0
    "mlx5-1"  = { interfaces = ["eth0"] }
    "mlx5-2"  = { interfaces = ["eth0"] }
  }
  sample_seconds                 = var.sample_seconds
  max_pause_frames_per_second    = var.max_pause_frames_per_second
  max_retransmit_percent         = var.max_retransmit_percent
  max_buffer_utilization_percent = var.max_buffer_utilization_percent
}

locals {
  # The findings of each kind, one line each.
  findings = {
    for metric in ["pause_storm", "retransmit", "buffer_utilization", "ecn_outside_lossless"] :
    metric => [for f in data.roce_fabric_counters.fabric.findings : f.message if f.metric == metric]
  }
}
