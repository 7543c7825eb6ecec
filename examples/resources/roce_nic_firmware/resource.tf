# The adapter's firmware defaults for RoCE, kept in its non-volatile configuration: DCQCN on
# priority 3 only (ROCE_CC_PRIO_MASK_P1 = 1 << 3), CNPs marked DSCP 48 on priority 6, the port
# in Ethernet mode. They take effect at the next cold reboot (pending_reboot says when one is
# due); the provider never reboots the host.
resource "roce_nic_firmware" "gpu1_eth0" {
  device    = "mlx5-1"
  interface = "eth0"
  parameters = {
    LINK_TYPE_P1         = "ETH(2)"
    ROCE_CC_PRIO_MASK_P1 = "8"
    CNP_DSCP_P1          = "48"
    CNP_802P_PRIO_P1     = "6"
  }
}

output "gpu1_eth0_reboot_pending" {
  value = roce_nic_firmware.gpu1_eth0.pending_reboot
}
