# RoCE data on DSCP 26 -> traffic class 3 with ECN marking, CNPs on DSCP 48 -> strict class 6,
# everything else in class 0. On openconfig, lossless (PFC) is not modelled; on sonic, eos and
# nxos set `lossless = true` on the roce class.
resource "roce_qos_policy" "leaf1" {
  device                = "leaf-1"
  name                  = "ROCE"
  trust                 = "dscp"
  default_traffic_class = 0

  classes = {
    roce = {
      traffic_class     = 3
      dscp              = [26]
      bandwidth_percent = 50
      ecn = {
        min_threshold_bytes      = 153600
        max_threshold_bytes      = 1536000
        mark_probability_percent = 100
      }
    }
    cnp     = { traffic_class = 6, dscp = [48], strict_priority = true }
    default = { traffic_class = 0, dscp = [0], bandwidth_percent = 50 }
  }

  interfaces = ["Ethernet1", "Ethernet2"]
}
