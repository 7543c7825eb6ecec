# Imported by <device>/<interface>,<interface>,...: the netdevs the group is to manage.
terraform import roce_dcqcn_group.gpu1 'gpu-1/ens1f0np0,ens2f0np0'
