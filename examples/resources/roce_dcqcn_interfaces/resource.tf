# DCQCN of the RoCE NICs of a GPU host in one resource, each NIC with its own settings: each
# entry of `interfaces` has the attributes of a roce_dcqcn_profile of that netdev and means
# exactly the same. NICs that all take the same settings are one roce_dcqcn_group.
resource "roce_dcqcn_interfaces" "gpu1" {
  device = "gpu-1"
  interfaces = merge(
    # The eight back-end NICs, one per GPU: tuned for AI training, the rate recovers faster
    # after congestion.
    { for i in range(8) : "ens${i + 1}f0np0" => {
      priorities     = [3]
      cnp_dscp       = 48
      cnp_priority   = 6
      reaction_point = { ai_rate_mbps = 10, hai_rate_mbps = 100 }
    } },
    # The front-end (storage) NIC: the driver's reaction-point defaults.
    { "ens9f0np0" = { priorities = [3], cnp_dscp = 48, cnp_priority = 6 } },
  )
}
