# The fabric as it is, before anything is imported: every device's effective QoS, checked per cable.
data "roce_fabric_links" "fabric" {}

data "roce_fabric_audit" "fabric" {
  links = data.roce_fabric_links.fabric.links
}

output "audit_errors" {
  value = [for f in data.roce_fabric_audit.fabric.findings : "${f.rule} ${f.device}: ${f.message}" if f.severity == "error"]
}
