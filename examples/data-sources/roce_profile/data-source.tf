# Consistent settings for an AI-training fabric: RoCE on DSCP 26 / priority 3 (lossless, ECN),
# CNPs on DSCP 48 / priority 6 (strict).
data "roce_profile" "ai" {
  workload        = "ai-training"
  link_speed_gbps = 400
}

resource "roce_qos_policy" "leaf1" {
  device     = "leaf-1"
  classes    = data.roce_profile.ai.switch_classes
  interfaces = ["Ethernet1", "Ethernet2"]
}

resource "roce_nic_qos" "gpu1_eth0" {
  device           = "gpu-1"
  interface        = "eth0"
  pfc_priorities   = data.roce_profile.ai.pfc_priorities
  dscp_to_priority = data.roce_profile.ai.nic_dscp_to_priority
  roce_tos         = data.roce_profile.ai.roce_tos
}

resource "roce_dcqcn_profile" "gpu1_eth0" {
  device             = "gpu-1"
  interface          = "eth0"
  priorities         = data.roce_profile.ai.pfc_priorities
  reaction_point     = data.roce_profile.ai.reaction_point
  notification_point = data.roce_profile.ai.notification_point
}
