# RoCE data on DSCP 26 -> traffic class 3 with ECN marking, CNPs on DSCP 48 -> strict class 6,
# everything else in class 0. On openconfig, lossless (PFC) is not modelled; on sonic, eos and
# nxos set `lossless = true` on the roce class.
#
# The same resource works unchanged on an Arista switch (platform "eos"): it writes
# `qos profile ROCE` (trust, all 8 tx-queues, no-drop priorities), the global `qos map dscp`
# and `qos map traffic-class ... to tx-queue` whole, and `service-profile ROCE` on each port.
# On eos: one policy per switch (the maps are global), ECN thresholds in whole kbytes (153600 =
# 150 kbytes), no per-class mtu, and trust "dscp" or "pcp" (not "dscp_pcp").
#
# And on a Cisco Nexus switch (platform "nxos", ports such as "Ethernet1/1"): class-maps
# ROCE-roce, ROCE-cnp, ROCE-default (`match dscp`), policy-map type qos ROCE (`set qos-group`),
# queuing ROCE-out (all 8 egress classes: `bandwidth remaining percent`, `priority level 1` for
# cnp, `random-detect ... kbytes ... ecn`) and network-qos ROCE-nq, bound in `system qos`. On
# nxos: one policy per switch, ECN in whole kbytes, and with `lossless = true` also `mtu = 9216`
# on the roce class (a network-qos class without mtu keeps 1500 bytes and drops jumbo frames).
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
