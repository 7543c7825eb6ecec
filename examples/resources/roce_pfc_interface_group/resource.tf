# PFC on the 64 GPU-facing ports of a SONiC leaf in one resource: the ports as a set, the
# settings once. Each port means exactly what a roce_pfc_interface of it with these settings
# means. Ports not listed are left alone; ports that need other settings (uplinks) go in a
# group, a roce_pfc_interfaces or roce_pfc_interface of their own.
resource "roce_pfc_interface_group" "leaf1_gpu" {
  device     = "leaf-1"
  interfaces = [for i in range(0, 256, 4) : "Ethernet${i}"]
  buffer     = { xoff_bytes = 122880, xon_bytes = 61440, cable_length_m = 40 }
  watchdog   = { action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }

  # roce_qos_policy.leaf1 is the roce_qos_policy example's policy on leaf-1: its lossless classes
  # are the priorities this resource pauses, so it is written first.
  depends_on = [roce_qos_policy.leaf1]
}
