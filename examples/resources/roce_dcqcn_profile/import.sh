# A DCQCN profile is imported by <device>/<interface>.
terraform import roce_dcqcn_profile.gpu1_eth0 gpu-1/eth0
