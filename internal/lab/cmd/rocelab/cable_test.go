package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// TestCableARunningLab: `up --wiring` cables the lab as the file says, the host's lldpd read
// (lldpcli over SSH) shows it, and `rocelab cable` moves a NIC: the host hears its new switch
// and inventory.json's links follow.
func TestCableARunningLab(t *testing.T) {
	wiring := filepath.Join(t.TempDir(), "wiring.json")
	if err := os.WriteFile(wiring, []byte(`[{"a_device": "mlx5-1", "a_interface": "eth0", "b_device": "eos-1", "b_interface": "Ethernet2"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	dir, inv := upInProcess(t, "--switches", "eos=2", "--hosts", "mlx5=1", "--ports", "4", "--wiring", wiring)
	if want := []lab.Cable{{A: "eos-1", APort: "Ethernet2", B: "mlx5-1", BPort: "eth0"}}; !slices.Equal(inv.Links, want) {
		t.Fatalf("links %v, want the wiring file's %v", inv.Links, want)
	}
	heard := func() string {
		return sshRun(t, inv.Devices["mlx5-1"], "lldpcli -f json0 show neighbors")
	}
	if out := heard(); !strings.Contains(out, `"value": "eos-1"`) || !strings.Contains(out, `"value": "Ethernet2"`) {
		t.Fatalf("mlx5-1 hears:\n%s", out)
	}
	code, out, errOut := runArgs("cable", "--dir", dir, "mlx5-1", "eth0", "eos-2", "Ethernet3")
	if code != 0 || !strings.Contains(out, "mlx5-1 eth0 is cabled to eos-2 Ethernet3") {
		t.Fatalf("cable: exit %d, %q %q", code, out, errOut)
	}
	if out := heard(); !strings.Contains(out, `"value": "eos-2"`) || !strings.Contains(out, `"value": "Ethernet3"`) {
		t.Errorf("after recabling mlx5-1 hears:\n%s", out)
	}
	var after lab.Inventory
	b, err := os.ReadFile(filepath.Join(dir, lab.InventoryFile))
	if err == nil {
		err = json.Unmarshal(b, &after)
	}
	if want := []lab.Cable{{A: "eos-2", APort: "Ethernet3", B: "mlx5-1", BPort: "eth0"}}; err != nil || !slices.Equal(after.Links, want) {
		t.Errorf("inventory links after recabling %v (%v), want %v", after.Links, err, want)
	}
	if code, _, errOut := runArgs("cable", "--dir", dir, "mlx5-1", "eth9", "eos-2", "Ethernet3"); code != 1 || !strings.Contains(errOut, `mlx5-1 has no port "eth9"`) {
		t.Errorf("a port the host lacks: exit %d, %q", code, errOut)
	}
}
