# RoCE on priority 3 (DSCP 26), CNPs on priority 6 (DSCP 48), matching the switches' policy.
resource "roce_nic_qos" "gpu1_eth0" {
  device           = "gpu-1"
  interface        = "eth0"
  trust            = "dscp"
  pfc_priorities   = [3]
  dscp_to_priority = { "26" = 3, "48" = 6 }
  priority_to_tc   = { "3" = 3, "6" = 6 }
  ets = {
    "0" = { bandwidth_percent = 50 }
    "3" = { bandwidth_percent = 50 }
    "6" = { strict_priority = true }
  }
  roce_tos = 106 # DSCP 26 << 2 | ECT(0)
}
