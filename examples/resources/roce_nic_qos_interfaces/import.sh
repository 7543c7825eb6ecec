# Imported by <device>/<interface>,<interface>,...: the netdevs the resource is to manage.
terraform import roce_nic_qos_interfaces.gpu1 'gpu-1/ens1f0np0,ens2f0np0'
