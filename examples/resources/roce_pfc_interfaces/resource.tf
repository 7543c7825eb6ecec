# PFC on the ports of a SONiC leaf in one resource, each port with its own settings: each entry
# of `interfaces` has the attributes of a roce_pfc_interface of that port (mode, link_pause,
# buffer, watchdog) and means exactly the same. Ports not listed are left alone. Ports that all
# take the same settings are one roce_pfc_interface_group.
locals {
  gpu_ports = [for i in range(0, 128, 4) : "Ethernet${i}"]   # 32 ports, 40 m to the GPU hosts
  uplinks   = [for i in range(128, 256, 4) : "Ethernet${i}"] # 32 ports, 300 m to the spines
}

resource "roce_pfc_interfaces" "leaf1" {
  device = "leaf-1"
  interfaces = merge(
    # A headroom of its own on each GPU port (dynamic buffer model).
    { for p in local.gpu_ports : p => {
      buffer   = { xoff_bytes = 122880, xon_bytes = 61440, cable_length_m = 40 }
      watchdog = { action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }
    } },
    # The headroom the switch computes from the cable length on the long uplinks.
    { for p in local.uplinks : p => {
      buffer   = { cable_length_m = 300 }
      watchdog = { action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }
    } },
  )

  # roce_qos_policy.leaf1 is the roce_qos_policy example's policy on leaf-1: its lossless classes
  # are the priorities this resource pauses, so it is written first.
  depends_on = [roce_qos_policy.leaf1]
}
