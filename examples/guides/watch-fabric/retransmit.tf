# Golden metric 2: RoCE retransmit rate under 0.001 %, on every NIC port read (hosts only).
check "roce_retransmits" {
  assert {
    condition     = length(local.findings.retransmit) == 0
    error_message = join("\n", local.findings.retransmit)
  }
}
