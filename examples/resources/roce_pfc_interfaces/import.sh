# Imported by <device>/<interface>,<interface>,...: the ports the resource is to manage (a
# switch has ports it must leave alone).
terraform import roce_pfc_interfaces.leaf1 'leaf-1/Ethernet0,Ethernet4'
