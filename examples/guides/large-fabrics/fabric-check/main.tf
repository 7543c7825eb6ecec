# The cross-pod check: no resource, no device connection. It reads every pod's outputs from
# its state and runs roce_fabric_check over the whole fabric, links between pods included, so
# a pod whose DSCP map or lossless priorities differ from the others' fails here.
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "pods" {
  type    = list(string)
  default = ["pod-1", "pod-2", "pod-3", "pod-4"]
}

# roce_fabric_check reads no device: the provider needs no devices here.
provider "roce" {}

data "terraform_remote_state" "pod" {
  for_each = toset(var.pods)
  backend  = "s3"
  config = {
    bucket = "example-terraform-state" # the pods' backend settings
    key    = "roce/${each.key}.tfstate"
    region = "eu-west-1"
  }
}

locals {
  inputs = [for p in var.pods : data.terraform_remote_state.pod[p].outputs.fabric_check_inputs]
  # The cables, e.g. exported from the cabling plan: [{ a_device, a_interface, b_device, b_interface }, ...]
  links = jsondecode(file("${path.root}/../fabric-links.json"))
}

data "roce_fabric_check" "fabric" {
  switch_policies = flatten(local.inputs[*].switch_policies)
  pfc_interfaces  = flatten(local.inputs[*].pfc_interfaces)
  nic_qos         = flatten(local.inputs[*].nic_qos)
  dcqcn_profiles  = flatten(local.inputs[*].dcqcn_profiles)
  links           = local.links
}

output "findings" {
  value = data.roce_fabric_check.fabric.findings

  # Fail the plan (exit 1) on an error finding; warnings are listed in the output.
  precondition {
    condition     = data.roce_fabric_check.fabric.ok
    error_message = join("\n", [for f in data.roce_fabric_check.fabric.findings : "${f.severity} ${f.rule} ${f.device}: ${f.message}" if f.severity == "error"])
  }
}
