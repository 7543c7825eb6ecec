# The provider as a CI job runs it: devices from the inventory (addresses and platforms, no
# secrets), credentials from the environment (ROCE_USERNAME, ROCE_PASSWORD, ROCE_PRIVATE_KEY),
# trust anchors committed next to the configuration.
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

provider "roce" {
  # The CA that signed the switches' gNMI certificates (public: commit it).
  ca_certificate = file("${path.root}/fabric-ca.pem")
  # The hosts' SSH keys, from ssh-keyscan checked once by a person (public: commit it). A CI
  # runner's ~/.ssh/known_hosts is empty.
  known_hosts_file = "${path.root}/known_hosts"
  timeout          = "30s"
  retries          = 3

  # { "leaf-1": { "address": "10.0.0.1:9339", "platform": "sonic" },
  #   "gpu-1":  { "address": "10.0.1.1:22", "platform": "mlx5", "sudo": true }, ... }
  devices = jsondecode(file("${path.root}/inventory.json")).devices
}
