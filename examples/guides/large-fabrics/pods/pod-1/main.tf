# The root module of pod 1: its own state, its own provider with only its devices. pods/pod-2,
# pods/pod-3... are copies with their own pod name and state key.
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
  # A state per pod. In HCP Terraform, a cloud block naming the pod's workspace instead:
  #   cloud {
  #     organization = "example"
  #     workspaces { name = "roce-pod-1" }
  #   }
  backend "s3" {
    bucket = "example-terraform-state"
    key    = "roce/pod-1.tfstate"
    region = "eu-west-1"
  }
}

variable "pod" {
  type    = string
  default = "pod-1"
}

locals {
  # The fabric's source of truth, committed beside the configuration:
  # { "pods": { "pod-1": { "leaves": { "leaf-1": ["Ethernet0", ...] },
  #                        "hosts": { "gpu-1": ["eth0", ... "eth7"] } } } }
  fabric = jsondecode(file("${path.root}/../../fabric.json")).pods[var.pod]
  # Devices (addresses, platforms) of the whole fabric; credentials from ROCE_USERNAME,
  # ROCE_PASSWORD, ROCE_PRIVATE_KEY.
  inventory = jsondecode(file("${path.root}/../../inventory.json")).devices
  mine      = concat(keys(local.fabric.leaves), keys(local.fabric.hosts))
}

provider "roce" {
  ca_certificate   = file("${path.root}/../../fabric-ca.pem")
  known_hosts_file = "${path.root}/../../known_hosts"
  # Only this pod's devices: a plan connects to nothing else.
  devices = { for name, d in local.inventory : name => d if contains(local.mine, name) }
}

module "pod" {
  source = "../../modules/pod"
  leaves = local.fabric.leaves
  hosts  = local.fabric.hosts
}

output "fabric_check_inputs" {
  value = module.pod.fabric_check_inputs
}
