# QoS of the eight RoCE NICs of a GPU host in one resource: each entry of `interfaces` has the
# attributes of a roce_nic_qos of that netdev and means exactly the same.
locals {
  gpu_nics = [for i in range(8) : "ens${i + 1}f0np0"]
}

resource "roce_nic_qos_interfaces" "gpu1" {
  device = "gpu-1"
  interfaces = { for nic in local.gpu_nics : nic => {
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
  } }
}
