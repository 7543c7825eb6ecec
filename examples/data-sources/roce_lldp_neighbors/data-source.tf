# What a GPU host's RoCE NICs are cabled to (lldpd on the host).
data "roce_lldp_neighbors" "gpu1" {
  device     = "gpu-1"
  interfaces = ["eth0", "eth1"]
}

output "gpu1_cabling" {
  value = { for n in data.roce_lldp_neighbors.gpu1.neighbors : n.interface => "${n.remote_system_name} ${n.remote_port_id}" }
}
