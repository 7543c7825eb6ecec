# Devices from an inventory file (here the one `rocelab up` writes), credentials per device.
provider "roce" {
  devices = jsondecode(file("${path.module}/.lab/inventory.json")).devices
}

# Or written out, with provider-wide credentials from ROCE_USERNAME / ROCE_PASSWORD.
provider "roce" {
  alias            = "prod"
  known_hosts_file = "~/.ssh/known_hosts"
  ca_certificate   = file("fabric-ca.pem")
  timeout          = "30s"
  retries          = 3

  devices = {
    "leaf-1" = { address = "10.0.0.1:9339", platform = "openconfig" }
    "leaf-2" = { address = "10.0.0.2:9339", platform = "openconfig", gnmi_target = "leaf-2" }
    # An Arista switch over the SSH CLI: its host key pinned, each change saved (write memory).
    "leaf-3" = {
      address     = "10.0.0.3:22"
      platform    = "eos"
      host_key    = "ssh-ed25519 AAAA..." # the switch's key (ssh-keyscan), checked once by a person
      save_config = true
    }
    # A Cisco Nexus switch over the SSH CLI: each change under a checkpoint, saved with
    # copy running-config startup-config.
    "leaf-4" = {
      address     = "10.0.0.4:22"
      platform    = "nxos"
      host_key    = "ssh-rsa AAAA..."
      save_config = true
    }
  }
}
