# Golden metric 1: PFC pause frames. A port whose PFC watchdog reports a storm now (SONiC), or
# that counts more than max_pause_frames_per_second pause frames on one priority over the
# sample window.
check "pfc_pause" {
  assert {
    condition     = length(local.findings.pause_storm) == 0
    error_message = join("\n", local.findings.pause_storm)
  }
}
