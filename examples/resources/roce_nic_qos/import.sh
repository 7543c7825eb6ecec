# NIC QoS is imported by <device>/<interface>.
terraform import roce_nic_qos.gpu1_eth0 gpu-1/eth0
