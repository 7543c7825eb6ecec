package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// OpenDevice reaches both platforms of the lab with the inventory's credentials and trust
// anchors, and refuses a host whose key is not the inventory's.
func TestOpenDevice(t *testing.T) {
	dir := t.TempDir()
	lab.KeepLogsIn(dir)
	l, err := lab.Start(context.Background(), lab.Options{Switches: map[string]int{SwitchPlatform: 1}, Hosts: map[string]int{HostPlatform: 1},
		Ports: 2, NICPorts: 8, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Stop)
	raw, err := os.ReadFile(filepath.Join(dir, lab.InventoryFile))
	if err != nil {
		t.Fatal(err)
	}
	inv, err := ParseInventory(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sonic-1", "mlx5-1"} {
		before, _ := l.DeviceCounters(name)
		c, err := OpenDevice(context.Background(), inv.Devices[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		after, _ := l.DeviceCounters(name)
		if after.Connections != before.Connections+1 || after.Requests != before.Requests+1 {
			t.Errorf("%s saw %+v after %+v, want one more connection and request", name, after, before)
		}
		_ = c.Close()
	}
	if f, err := inv.Fabric(); err != nil || len(f.Hosts[0].NICs) != 8 {
		t.Errorf("the host's NICs: %v, %v", f, err)
	}
	bad := inv.Devices["mlx5-1"]
	bad.HostKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2a3FgtFzKSYnkMsgUpBWmjlCsVOdA1MQKVNyZLe7OD" // another key
	if _, err := OpenDevice(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "host key mismatch") {
		t.Errorf("a wrong host key: %v", err)
	}
}
