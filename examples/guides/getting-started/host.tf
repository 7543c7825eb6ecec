# The host side of the same profile, on the lab's GPU host mlx5-1 (SSH): the NIC classifies on
# DSCP like the switch, pauses only priority 3, and sends RoCE with DSCP 26, ECN-capable.
resource "roce_nic_qos" "gpu_eth0" {
  device           = "mlx5-1"
  interface        = "eth0"
  pfc_priorities   = data.roce_profile.ai.pfc_priorities
  dscp_to_priority = data.roce_profile.ai.nic_dscp_to_priority
  roce_tos         = data.roce_profile.ai.roce_tos
}

# DCQCN, the senders' reaction to the switch's ECN marks, on the RoCE priority.
resource "roce_dcqcn_profile" "gpu_eth0" {
  device             = "mlx5-1"
  interface          = "eth0"
  priorities         = data.roce_profile.ai.pfc_priorities
  reaction_point     = data.roce_profile.ai.reaction_point
  notification_point = data.roce_profile.ai.notification_point
}
