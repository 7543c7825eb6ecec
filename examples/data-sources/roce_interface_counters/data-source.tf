# Per-second rates over a 5-second window.
data "roce_interface_counters" "gpu1_eth0" {
  device         = "gpu-1"
  interface      = "eth0"
  sample_seconds = 5
}

output "pause_rates" {
  value = data.roce_interface_counters.gpu1_eth0.pfc_rx_pause # e.g. { "3" = 0 }
}

# A switch port's queues and buffers (SONiC): the buffer-utilisation golden metric, the PFC
# watchdog's storms, and ECN marks on the lossless queue.
data "roce_interface_counters" "leaf1_e0" {
  device    = "leaf-1"
  interface = "Ethernet0"
}

check "leaf1_e0_buffers" {
  assert {
    condition     = coalesce(data.roce_interface_counters.leaf1_e0.buffer_utilization_percent, 0) <= 80
    error_message = "leaf-1 Ethernet0: a lossless queue peaked at ${data.roce_interface_counters.leaf1_e0.buffer_utilization_percent} % of its pool."
  }
  assert {
    condition = (coalesce(data.roce_interface_counters.leaf1_e0.pfc_watchdog_storms_detected, 0)
    == coalesce(data.roce_interface_counters.leaf1_e0.pfc_watchdog_storms_restored, 0))
    error_message = "leaf-1 Ethernet0: a PFC storm is going on (the watchdog detected one it has not restored)."
  }
}

output "ecn_marks_by_queue" {
  value = data.roce_interface_counters.leaf1_e0.queue_ecn_marked_packets # e.g. { "3" = 1200, "4" = 0, ... }
}
