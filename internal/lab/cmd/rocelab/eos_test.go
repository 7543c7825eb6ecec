package main

import (
	"context"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// TestEOSSwitch: an eos switch starts, and the gNMI and control commands say what it is not.
func TestEOSSwitch(t *testing.T) {
	dir := t.TempDir()
	l, err := lab.Start(context.Background(), lab.Options{Switches: map[string]int{"eos": 1}, Ports: 2, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Stop)
	if d := l.Inventory().Devices["eos-1"]; d.Platform != "eos" || d.HostKey == "" || len(l.Inventory().Interfaces["eos-1"]) != 2 {
		t.Errorf("inventory entry %+v", d)
	}
	if code, _, errOut := runArgs("get", "--dir", dir, "eos-1", "/qos"); code != 1 || !strings.Contains(errOut, "is a eos device without gNMI") {
		t.Errorf("get on an eos switch: exit %d, %q", code, errOut)
	}
	if got := controlAnswer(l, []string{"storm", "eos-1", "Ethernet1", "on"}); got != "ok" {
		t.Errorf("storm on an eos switch: %q", got)
	}
	if got := controlAnswer(l, []string{"storm", "eos-1", "Ethernet9", "on"}); !strings.Contains(got, `eos-1 has no interface "Ethernet9"`) {
		t.Errorf("storm on a port the eos switch lacks: %q", got)
	}
	if got := controlAnswer(l, strings.Fields("reboot eos-1")); !strings.Contains(got, "only NIC hosts reboot") {
		t.Errorf("reboot of an eos switch: %q", got)
	}
}
