# Provider functions need Terraform 1.8+ or OpenTofu 1.7+.
terraform {
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

# "0,0,0,1,0,0,0,0": what to expect from, or pass to, `mlnx_qos -i eth0 --pfc` on a host whose
# roce_nic_qos has pfc_priorities = [3].
output "pfc" {
  value = provider::roce::pfc_vector([3])
}

# A set works too, and a priority given twice counts once: "0,0,0,1,1,0,0,0".
output "pfc_two_classes" {
  value = provider::roce::pfc_vector(toset([4, 3, 3]))
}
