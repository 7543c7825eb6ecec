package main

import (
	"slices"
	"testing"
)

// TestUpNICPorts: `rocelab up --nic-ports 8` starts hosts with eight netdevs, laid out as four
// dual-port adapters (mlx5-host.md, "Files"): eth7 is the second function of the fourth
// adapter and its RDMA device is mlx5_7.
func TestUpNICPorts(t *testing.T) {
	_, inv := upInProcess(t, "--switches", "", "--hosts", "mlx5=1", "--nic-ports", "8")
	want := []string{"eth0", "eth1", "eth2", "eth3", "eth4", "eth5", "eth6", "eth7"}
	if got := inv.Interfaces["mlx5-1"]; !slices.Equal(got, want) {
		t.Fatalf("interfaces %v, want %v", got, want)
	}
	got := sshRun(t, inv.Devices["mlx5-1"], "ls /sys/class/infiniband /sys/class/net/eth7/device/infiniband; grep SLOT /sys/class/net/eth7/device/uevent")
	const layout = "/sys/class/infiniband:\nmlx5_0\nmlx5_1\nmlx5_2\nmlx5_3\nmlx5_4\nmlx5_5\nmlx5_6\nmlx5_7\n\n" +
		"/sys/class/net/eth7/device/infiniband:\nmlx5_7\nPCI_SLOT_NAME=0000:0b:00.1\n"
	if got != layout {
		t.Errorf("layout:\n%s\nwant:\n%s", got, layout)
	}
}
