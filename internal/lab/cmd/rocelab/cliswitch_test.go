package main

import (
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// TestCLISwitches: an eos and an nxos switch start, and the gNMI and control commands say what
// they are not.
func TestCLISwitches(t *testing.T) {
	l, dir := startLab(t, lab.Options{Switches: map[string]int{"eos": 1, "nxos": 1}, Ports: 2})
	for _, tc := range []struct {
		platform string
		ports    []string // the two ports, then one the switch lacks
	}{
		{"eos", []string{"Ethernet1", "Ethernet2", "Ethernet9"}},
		{"nxos", []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/9"}},
	} {
		t.Run(tc.platform, func(t *testing.T) {
			name := tc.platform + "-1"
			d, ports := l.Inventory().Devices[name], l.Inventory().Interfaces[name]
			if d.Platform != tc.platform || d.HostKey == "" || strings.Join(ports, " ") != strings.Join(tc.ports[:2], " ") {
				t.Errorf("inventory entry %+v, interfaces %v", d, ports)
			}
			if code, _, errOut := runArgs("get", "--dir", dir, name, "/qos"); code != 1 || !strings.Contains(errOut, "is a "+tc.platform+" device without gNMI") {
				t.Errorf("get on an %s switch: exit %d, %q", tc.platform, code, errOut)
			}
			if got := controlAnswer(l, []string{"storm", name, tc.ports[0], "on"}); got != "ok" {
				t.Errorf("storm on an %s switch: %q", tc.platform, got)
			}
			if got := controlAnswer(l, []string{"storm", name, tc.ports[2], "on"}); !strings.Contains(got, name+` has no interface "`+tc.ports[2]+`"`) {
				t.Errorf("storm on a port the %s switch lacks: %q", tc.platform, got)
			}
			if got := controlAnswer(l, strings.Fields("reboot "+name)); !strings.Contains(got, "only NIC hosts reboot") {
				t.Errorf("reboot of an %s switch: %q", tc.platform, got)
			}
		})
	}
}
