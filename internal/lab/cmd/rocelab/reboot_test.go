package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRebootARunningLab: `rocelab reboot` reaches the `up` serving the
// directory and resets the host's NIC settings, as a real reboot does.
func TestRebootARunningLab(t *testing.T) {
	dir, inv := upInProcess(t, "--switches", "", "--hosts", "mlx5=2")
	d := inv.Devices["mlx5-2"]
	if d.Platform != "mlx5" || d.HostKey == "" || len(inv.Interfaces["mlx5-2"]) != 2 {
		t.Fatalf("inventory entry %+v, interfaces %v", d, inv.Interfaces["mlx5-2"])
	}
	const file = "/sys/class/net/eth1/ecn/roce_np/enable/3"
	sshRun(t, d, "sudo -n sh -c 'echo 0 > "+file+"' && mlnx_qos -i eth1 >/dev/null")
	if got := sshRun(t, d, "cat "+file); got != "0\n" {
		t.Fatalf("write did not stick: %q", got)
	}

	code, out, errOut := runArgs("reboot", "--dir", dir, "mlx5-2")
	if code != 0 || !strings.Contains(out, "mlx5-2 rebooted") {
		t.Fatalf("reboot: exit %d, %q %q", code, out, errOut)
	}
	if got := sshRun(t, d, "cat "+file); got != "1\n" {
		t.Errorf("after rocelab reboot %s = %q, want the default 1", file, got)
	}
	if code, _, errOut := runArgs("reboot", "--dir", dir, "mlx5-9"); code != 1 || !strings.Contains(errOut, `no device "mlx5-9" in this lab (devices: mlx5-1, mlx5-2)`) {
		t.Errorf("reboot of an unknown device: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, ControlSocket)); err != nil {
		t.Errorf("control socket: %v", err)
	}
}
