# Adopting switch and host settings made before Terraform managed them: import blocks
# (Terraform 1.5 and later), and no resource blocks yet. From the repository root, with the lab
# running and the objects in place (see the import guide):
#
#   terraform -chdir=examples/guides/import plan -generate-config-out=generated.tf
#
# writes the resource blocks, as read from the devices, to generated.tf.
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

variable "inventory" {
  type    = string
  default = "../../../.lab/inventory.json"
}

provider "roce" {
  devices = jsondecode(file(startswith(var.inventory, "/") ? var.inventory : "${path.module}/${var.inventory}")).devices
}

# A policy is imported by <device>/<name>: its objects on sonic-1 are DSCP_TO_TC_MAP|ROCE,
# SCHEDULER|ROCE-<class>, WRED_PROFILE|ROCE-<class>...
import {
  to = roce_qos_policy.leaf
  id = "sonic-1/ROCE"
}

# The other resources by <device>/<interface>.
import {
  to = roce_pfc_interface.leaf_e0
  id = "sonic-1/Ethernet0"
}

import {
  to = roce_nic_qos.gpu_eth0
  id = "mlx5-1/eth0"
}

import {
  to = roce_dcqcn_profile.gpu_eth0
  id = "mlx5-1/eth0"
}
