# The end-to-end golden metric: p99 latency between two GPU hosts under 200 us, measured with
# ib_write_lat on the RoCE DSCP. traffic_class 106 is DSCP 26 with ECT(0); use the DSCP your
# switches treat as lossless (SONiC's stock maps: DSCP 3, traffic_class 12).
data "roce_perftest" "gpu1_gpu2_lat" {
  server        = { device = "gpu-2", interface = "eth0" }
  client        = { device = "gpu-1", interface = "eth0" }
  test          = "write_lat"
  gid_index     = 3
  traffic_class = 106
  port          = 18516 # distinct from other roce_perftest runs on gpu-2: they run in parallel
}

check "gpu1_gpu2_latency" {
  assert {
    condition     = data.roce_perftest.gpu1_gpu2_lat.p99_us < 200
    error_message = "gpu-1 eth0 -> gpu-2 eth0: p99 latency ${data.roce_perftest.gpu1_gpu2_lat.p99_us} us (PFC or DSCP inconsistent on the path?)."
  }
}

# Bandwidth over 10 seconds (peak bandwidth is not measured by duration: null).
data "roce_perftest" "gpu1_gpu2_bw" {
  server        = { device = "gpu-2", interface = "eth0" }
  client        = { device = "gpu-1", interface = "eth0" }
  test          = "write_bw"
  duration      = 10
  gid_index     = 3
  traffic_class = 106
  port          = 18515
}

output "gpu1_gpu2_gbps" {
  value = data.roce_perftest.gpu1_gpu2_bw.bw_average_gbps
}
