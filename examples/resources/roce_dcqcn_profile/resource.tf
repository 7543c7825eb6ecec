# DCQCN on the RoCE priority, CNPs sent with DSCP 48 / priority 6 (the switches' strict class).
resource "roce_dcqcn_profile" "gpu1_eth0" {
  device       = "gpu-1"
  interface    = "eth0"
  priorities   = [3]
  cnp_dscp     = 48
  cnp_priority = 6

  # AI training: recover rate faster after congestion (source articles' tuning).
  reaction_point = {
    ai_rate_mbps  = 10
    hai_rate_mbps = 100
  }
  notification_point = { min_time_between_cnps_us = 4 }
}
