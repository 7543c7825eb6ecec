# Imported by <device>/<interface>,<interface>,...: the ports the group is to manage. The group
# takes the first port's settings (in name order); a port whose settings differ is left out
# with a warning, and the next plan shows it joining.
terraform import roce_pfc_interface_group.leaf1_gpu 'leaf-1/Ethernet0,Ethernet4'
