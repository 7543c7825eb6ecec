# QoS of the eight RoCE NICs of a GPU host in one resource: the netdevs as a set, the settings
# once, each NIC meaning exactly what a roce_nic_qos of it with these settings means.
resource "roce_nic_qos_group" "gpu1" {
  device           = "gpu-1"
  interfaces       = [for i in range(8) : "ens${i + 1}f0np0"]
  trust            = "dscp"
  pfc_priorities   = [3]
  dscp_to_priority = { "26" = 3, "48" = 6 }
  priority_to_tc   = { "3" = 3, "6" = 6 }
  ets = {
    "0" = { bandwidth_percent = 50 }
    "3" = { bandwidth_percent = 50 }
    "6" = { strict_priority = true }
  }
  roce_tos = 106
}
