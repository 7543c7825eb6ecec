# Golden metric 3: switch buffer utilisation, alarm above 80 % (SONiC switches with a sized
# lossless pool).
check "switch_buffers" {
  assert {
    condition     = length(local.findings.buffer_utilization) == 0
    error_message = join("\n", local.findings.buffer_utilization)
  }

  # A null utilisation is no finding: on SONiC's dynamic buffer model the pool has no size, so
  # the alarm above could never fire. Say so instead of passing in silence.
  assert {
    condition = alltrue([for key, p in data.roce_fabric_counters.fabric.ports :
    p.buffer_utilization_percent != null if contains(local.sonic_switches, p.device)])
    error_message = "No buffer utilisation on: ${join(", ", [for key, p in data.roce_fabric_counters.fabric.ports : key if contains(local.sonic_switches, p.device) && p.buffer_utilization_percent == null])}."
  }
}
