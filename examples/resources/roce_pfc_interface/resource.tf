# PFC on a SONiC leaf port: headroom for its lossless priority group and a PFC watchdog. The
# no-drop priorities come from the lossless classes of the roce_qos_policy bound to the port.
#
# The same resource works on an Arista switch (platform "eos", ports such as "Ethernet1"):
# `priority-flow-control on`, `flowcontrol send|receive off` and the watchdog lines
# (`priority-flow-control pause watchdog`, `... port action drop`, `... port timer timeout 0.20
# polling-interval auto recovery-time 0.40`) on the interface. Leave `buffer` out there (EOS
# manages PFC headroom itself: a plan-time error) and give watchdog times in 10 ms steps.
#
# On a Cisco Nexus switch (platform "nxos", ports such as "Ethernet1/1"): `priority-flow-control
# mode on`, `flowcontrol send|receive off`, `priority-flow-control watch-dog-interval on`, and
# the headroom as policy-map type queuing roce-in-Ethernet1_1 (`pause buffer-size 184320
# pause-threshold 122880 resume-threshold 61440` per lossless class) attached as
# `service-policy type queuing input`. Leave out cable_length_m and the watchdog times there
# (NX-OS's watchdog timers are system-wide: watchdog = { action = "drop" }).
resource "roce_pfc_interface" "leaf1_e0" {
  device     = "leaf-1"
  interface  = "Ethernet0"
  mode       = "on"
  link_pause = false

  buffer = {
    xoff_bytes     = 122880
    xon_bytes      = 61440
    cable_length_m = 40
  }

  watchdog = {
    action              = "drop"
    detection_time_ms   = 200
    restoration_time_ms = 400
  }

  # roce_qos_policy.leaf1 is the roce_qos_policy example's policy on leaf-1: its lossless classes
  # are the priorities this resource pauses, so it is written first.
  depends_on = [roce_qos_policy.leaf1]
}
