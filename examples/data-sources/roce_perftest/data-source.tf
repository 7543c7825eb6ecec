# Bandwidth between two GPU hosts over 10 seconds, measured with ib_write_bw on the RoCE DSCP
# (traffic_class 106: DSCP 26 with ECT(0)). Peak bandwidth is not measured by duration: null.
data "roce_perftest" "gpu1_gpu2_bw" {
  server        = { device = "gpu-2", interface = "eth0" }
  client        = { device = "gpu-1", interface = "eth0" }
  test          = "write_bw"
  duration      = 10
  gid_index     = 3
  traffic_class = 106
  port          = 18515 # distinct from other roce_perftest runs on gpu-2: they run in parallel
}

output "gpu1_gpu2_gbps" {
  value = data.roce_perftest.gpu1_gpu2_bw.bw_average_gbps
}
