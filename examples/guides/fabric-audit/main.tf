# A pre-change audit of a fabric nobody has imported: what every device really applies, read
# whatever its objects are called, cable by cable, with roce_fabric_check's rules. It reads and
# never writes; `terraform plan` prints the findings.
#
# Against the lab, from the repository root:
#
#   go run ./internal/lab/cmd/rocelab up --dir .lab --switches sonic=1 --hosts mlx5=1   # a shell of its own
#   terraform -chdir=examples/guides/fabric-audit plan
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "inventory" {
  description = "Inventory file whose devices member holds every device (rocelab writes .lab/inventory.json)."
  type        = string
  default     = "../../../.lab/inventory.json"
}

provider "roce" {
  devices = jsondecode(file(startswith(var.inventory, "/") ? var.inventory : "${path.module}/${var.inventory}")).devices
}

# The cables, from LLDP.
data "roce_fabric_links" "fabric" {}

# Every device's effective QoS, checked as a whole and per cable.
data "roce_fabric_audit" "fabric" {
  links = data.roce_fabric_links.fabric.links
}

output "ok" {
  value = data.roce_fabric_audit.fabric.ok
}

output "errors" {
  value = [for f in data.roce_fabric_audit.fabric.findings : "${f.rule} ${f.device}: ${f.message}" if f.severity == "error"]
}

# One line per switch port: what classifies it, what is lossless, whether PFC is on.
output "ports" {
  value = [for p in data.roce_fabric_audit.fabric.ports :
  "${p.device} ${p.interface}: ${p.policy == "" ? "unclassified" : "${p.policy} (trust ${p.trust})"}, lossless ${jsonencode(p.lossless_priorities)}, PFC ${p.pfc_mode}, ECN on ${jsonencode(p.ecn_traffic_classes)}"]
}

output "nics" {
  value = [for n in data.roce_fabric_audit.fabric.nics :
  "${n.device} ${n.interface}: trust ${n.trust}, PFC on ${jsonencode(n.pfc_priorities)}, DCQCN on ${jsonencode(n.dcqcn_priorities)}"]
}
