# QoS of the RoCE NICs of a GPU host in one resource, each NIC with its own settings: each entry
# of `interfaces` has the attributes of a roce_nic_qos of that netdev and means exactly the same.
# NICs that all take the same settings are one roce_nic_qos_group.
locals {
  # What every NIC of the host shares: RoCE on DSCP 26 -> priority 3, CNPs on DSCP 48 -> 6.
  roce = {
    trust            = "dscp"
    dscp_to_priority = { "26" = 3, "48" = 6 }
    priority_to_tc   = { "3" = 3, "6" = 6 }
    ets = {
      "0" = { bandwidth_percent = 50 }
      "3" = { bandwidth_percent = 50 }
      "6" = { strict_priority = true }
    }
    roce_tos = 106 # DSCP 26 << 2 | ECT(0)
  }
}

resource "roce_nic_qos_interfaces" "gpu1" {
  device = "gpu-1"
  interfaces = merge(
    # The eight back-end NICs, one per GPU, on the lossless fabric: PFC on priority 3.
    { for i in range(8) : "ens${i + 1}f0np0" => merge(local.roce, { pfc_priorities = [3] }) },
    # The front-end (storage) NIC, on a lossy fabric: no PFC; ECN and DCQCN alone.
    { "ens9f0np0" = merge(local.roce, { pfc_priorities = [] }) },
  )
}
