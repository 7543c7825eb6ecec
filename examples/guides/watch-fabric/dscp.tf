# Golden metric 4: DSCP marking consistency. What every device applies, read whatever its
# objects are called and compared cable by cable: the rules about DSCP maps, trust and the
# RoCE and CNP DSCPs. Then what the traffic shows: ECN-marked packets on a port that keeps no
# priority lossless (SONiC), RoCE traffic where nothing is lossless.
data "roce_fabric_links" "fabric" {
  devices = concat(local.sonic_switches, local.hosts)
}

data "roce_fabric_audit" "fabric" {
  devices = concat(local.sonic_switches, local.hosts)
  links   = data.roce_fabric_links.fabric.links
}

locals {
  # R2 NIC DSCP map vs switch classes, R3/R13 trust, R4 CNP DSCP, R7 roce_tos, R10 switches'
  # DSCP -> traffic class, R14 the RoCE and CNP DSCPs' priority at both ends of a cable.
  dscp_rules = ["R2", "R3", "R4", "R7", "R10", "R13", "R14"]
  dscp_findings = [for f in data.roce_fabric_audit.fabric.findings :
  "${f.rule} ${f.device}: ${f.message}" if f.severity == "error" && contains(local.dscp_rules, f.rule)]
}

check "dscp_marking" {
  assert {
    condition     = length(local.dscp_findings) == 0
    error_message = join("\n", local.dscp_findings)
  }
  assert {
    condition     = length(local.findings.ecn_outside_lossless) == 0
    error_message = join("\n", local.findings.ecn_outside_lossless)
  }
}
