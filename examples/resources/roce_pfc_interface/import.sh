# PFC settings are imported by <device>/<interface>.
terraform import roce_pfc_interface.leaf1_e0 leaf-1/Ethernet0
