# An adapter's firmware configuration is imported by <device>/<interface> (one of its netdevs).
terraform import roce_nic_firmware.gpu1_eth0 gpu-1/eth0
