# Imported by <device>/<interface>,<interface>,...: the netdevs the group is to manage.
terraform import roce_nic_qos_group.gpu1 'gpu-1/ens1f0np0,ens2f0np0'
