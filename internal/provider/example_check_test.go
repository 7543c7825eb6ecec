package provider

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// examples/check is run as users run it, with the real CLI and the lab's inventory. Its check
// blocks must stay quiet on a healthy port and warn (without failing the plan) while the port
// receives a PFC pause storm (pauses, and the retransmissions of the packets it loses).
func TestAccExampleCheckWarnsOnStorm(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{}, Hosts: map[string]int{"mlx5": 1}})
	tf := exampleCLI(t, "check", "main.tf")
	inventory := "inventory=" + filepath.Join(l.dir, lab.InventoryFile)
	// The port runs RoCE with PFC on priority 3, as roce_nic_qos would leave it.
	if out, errOut, status := l.Host("mlx5-1").Run("sudo -n mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0"); status != 0 {
		t.Fatalf("enabling PFC: %s%s", out, errOut)
	}
	if out := tf.must("plan", "-no-color", "-input=false", "-var", inventory); strings.Contains(out, "Check block assertion failed") {
		t.Fatalf("a healthy port must not warn:\n%s", out)
	}
	if err := l.Host("mlx5-1").Storm("eth0", true); err != nil {
		t.Fatal(err)
	}
	out := tf.must("plan", "-no-color", "-input=false", "-var", inventory)
	for _, want := range []string{"Warning: Check block assertion failed", "PFC pause storm on mlx5-1 eth0",
		"mlx5-1 eth0 retransmits 0.00", "packets are lost on the RoCE path"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan output lacks %q:\n%s", want, out)
		}
	}
}
