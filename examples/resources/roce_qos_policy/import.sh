# A policy is imported by <device>/<name>.
terraform import roce_qos_policy.leaf1 leaf-1/ROCE
