# Golden metric 5: end-to-end latency, p99 under 200 us, measured with ib_write_lat between
# two hosts on the RoCE DSCP. traffic_class 106 is DSCP 26 with ECT(0): use the DSCP your
# switches keep lossless. One path per data source; add one per rail or pair you care about.
variable "max_p99_us" {
  description = "p99 latency in microseconds above which a path fails (the golden metric: 200)."
  type        = number
  default     = 200
}

data "roce_perftest" "mlx5_1_to_2" {
  server        = { device = "mlx5-2", interface = "eth0" }
  client        = { device = "mlx5-1", interface = "eth0" }
  test          = "write_lat"
  gid_index     = 3
  traffic_class = 106
  port          = 18516
}

check "latency_p99" {
  assert {
    condition     = data.roce_perftest.mlx5_1_to_2.p99_us < var.max_p99_us
    error_message = "mlx5-1 eth0 -> mlx5-2 eth0: p99 latency ${data.roce_perftest.mlx5_1_to_2.p99_us} us, over ${var.max_p99_us} us."
  }
}
