package main

import (
	"context"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// TestNXOSSwitch: an nxos switch starts, and the gNMI and control commands say what it is not.
func TestNXOSSwitch(t *testing.T) {
	dir := t.TempDir()
	l, err := lab.Start(context.Background(), lab.Options{Switches: map[string]int{"nxos": 1}, Ports: 2, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Stop)
	d := l.Inventory().Devices["nxos-1"]
	if d.Platform != "nxos" || d.HostKey == "" || strings.Join(l.Inventory().Interfaces["nxos-1"], " ") != "Ethernet1/1 Ethernet1/2" {
		t.Errorf("inventory entry %+v, interfaces %v", d, l.Inventory().Interfaces["nxos-1"])
	}
	if code, _, errOut := runArgs("get", "--dir", dir, "nxos-1", "/qos"); code != 1 || !strings.Contains(errOut, "is a nxos device without gNMI") {
		t.Errorf("get on an nxos switch: exit %d, %q", code, errOut)
	}
	if got := controlAnswer(l, []string{"storm", "nxos-1", "Ethernet1/1", "on"}); got != "ok" {
		t.Errorf("storm on an nxos switch: %q", got)
	}
	if got := controlAnswer(l, []string{"storm", "nxos-1", "Ethernet1/9", "on"}); !strings.Contains(got, `nxos-1 has no interface "Ethernet1/9"`) {
		t.Errorf("storm on a port the nxos switch lacks: %q", got)
	}
	if got := controlAnswer(l, strings.Fields("reboot nxos-1")); !strings.Contains(got, "only NIC hosts reboot") {
		t.Errorf("reboot of an nxos switch: %q", got)
	}
}
