# Provider functions need Terraform 1.8+ or OpenTofu 1.7+.
terraform {
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

# RoCE traffic on DSCP 26, ECN-capable (ECT(0)): 26 << 2 | 2 = 106.
resource "roce_nic_qos" "gpu1_eth0" {
  device         = "gpu-1"
  interface      = "eth0"
  trust          = "dscp"
  pfc_priorities = [3]
  roce_tos       = provider::roce::tos(26, true)
}

output "cnp_tos" {
  value = provider::roce::tos(48, false) # 192
}
