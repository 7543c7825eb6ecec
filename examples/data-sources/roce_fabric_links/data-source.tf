# Every cable between the provider's devices, from their LLDP neighbours.
data "roce_fabric_links" "fabric" {}

# Check each cable's two ends (with the same locals that feed the resources).
data "roce_fabric_check" "fabric" {
  switch_policies = local.policies
  pfc_interfaces  = local.pfc
  nic_qos         = local.nics
  links           = data.roce_fabric_links.fabric.links

  lifecycle {
    postcondition {
      condition     = self.ok
      error_message = join("\n", [for f in self.findings : "${f.rule} ${f.device}: ${f.message}" if f.severity == "error"])
    }
  }
}

output "not_in_the_inventory" {
  value = data.roce_fabric_links.fabric.unresolved
}
