# Per-second rates over a 5-second window.
data "roce_interface_counters" "gpu1_eth0" {
  device         = "gpu-1"
  interface      = "eth0"
  sample_seconds = 5
}

output "pause_rates" {
  value = data.roce_interface_counters.gpu1_eth0.pfc_rx_pause # e.g. { "3" = 0 }
}
