# DCQCN of the eight RoCE NICs of a GPU host in one resource: the netdevs as a set, the
# settings once, each NIC meaning exactly what a roce_dcqcn_profile of it with these settings
# means.
resource "roce_dcqcn_group" "gpu1" {
  device       = "gpu-1"
  interfaces   = [for i in range(8) : "ens${i + 1}f0np0"]
  priorities   = [3]
  cnp_dscp     = 48
  cnp_priority = 6
  reaction_point = {
    ai_rate_mbps  = 10
    hai_rate_mbps = 100
  }
}
