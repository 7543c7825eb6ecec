# PFC on the GPU-facing ports of a SONiC leaf in one resource: each entry of `interfaces` has
# the attributes of a roce_pfc_interface of that port (mode, link_pause, buffer, watchdog) and
# means exactly the same. Ports not listed are left alone.
locals {
  gpu_ports = [for i in range(0, 256, 4) : "Ethernet${i}"] # 64 ports
}

resource "roce_pfc_interfaces" "leaf1" {
  device = "leaf-1"
  interfaces = { for p in local.gpu_ports : p => {
    buffer   = { xoff_bytes = 122880, xon_bytes = 61440, cable_length_m = 40 }
    watchdog = { action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }
  } }

  depends_on = [roce_qos_policy.leaf1]
}
