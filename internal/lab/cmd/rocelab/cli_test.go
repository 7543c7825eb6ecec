package main

import (
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// TestCLI types at both CLI switches the way make demo does: a show, a change the running
// configuration then holds, and a refused line that makes rocelab exit 1.
func TestCLI(t *testing.T) {
	l, dir := startLab(t, lab.Options{Switches: map[string]int{"eos": 1, "nxos": 1}, Ports: 2})

	code, out, errOut := runArgs("cli", "--dir", dir, "eos-1", "configure", "interface Ethernet1", "priority-flow-control on", "end")
	if code != 0 || !strings.Contains(out, "eos-1(config-if-Et1)#") {
		t.Fatalf("eos: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(l.EOS("eos-1").RunningConfig(), "interface Ethernet1\n   priority-flow-control on\n") {
		t.Errorf("the typed change is not in eos-1's running-config:\n%s", l.EOS("eos-1").RunningConfig())
	}
	code, out, _ = runArgs("cli", "--dir", dir, "nxos-1", "show running-config ipqos")
	if code != 0 || !strings.Contains(out, "!Command: show running-config ipqos") {
		t.Errorf("nxos show: exit %d\n%s", code, out)
	}
	code, out, errOut = runArgs("cli", "--dir", dir, "nxos-1", "configure terminal", "polcy-map type qos X", "end")
	if code != 1 || !strings.Contains(out, "% Invalid command at '^' marker.") || !strings.Contains(errOut, `"polcy-map type qos X"`) {
		t.Errorf("a refused line: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runArgs("cli", "--dir", dir, "nosuch-1", "show version"); code != 1 || !strings.Contains(errOut, "not in") {
		t.Errorf("unknown device: exit %d %s", code, errOut)
	}
}
