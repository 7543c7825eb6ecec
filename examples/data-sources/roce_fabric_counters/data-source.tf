# The whole fabric in one read per device, sampled over 30 seconds: every port of the SONiC
# leaves, the named ports of the other switches and the GPU hosts' RoCE netdevs.
data "roce_fabric_counters" "fabric" {
  devices = {
    "leaf-1" = {} # every port (SONiC)
    "leaf-2" = { interfaces = ["Ethernet1/1", "Ethernet1/2"] }
    "gpu-1"  = { interfaces = ["eth2", "eth3"] }
  }
  sample_seconds = 30

  # The defaults, shown: the golden metrics' limits.
  max_pause_frames_per_second    = 1000
  max_retransmit_percent         = 0.001
  max_buffer_utilization_percent = 80
}

# One check watches the fabric; each finding names its device and port.
check "fabric_health" {
  assert {
    condition     = data.roce_fabric_counters.fabric.healthy
    error_message = join("\n", [for f in data.roce_fabric_counters.fabric.findings : f.message])
  }
}

# Any port's counters, keyed "<device>/<interface>".
output "leaf1_e0_pauses" {
  value = data.roce_fabric_counters.fabric.ports["leaf-1/Ethernet0"].pfc_rx_pause
}
