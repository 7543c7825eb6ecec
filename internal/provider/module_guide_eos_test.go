package provider

import (
	"strconv"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// The EOS leaf of the transports guide (examples/guides/eos-leaf), run as the guide says with the
// real CLI against a lab with one eos switch (`rocelab up --switches eos=1`): apply, an empty
// plan, the running-config lines the example's comments name, the startup-config saved
// (save_config), a change typed at the switch's CLI detected (exit 2) and repaired, and destroy
// giving back the running-config as it was, with no configuration session left pending.
func TestAccModuleGuideEOSLeaf(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"eos": 1}})
	sw := l.EOS("eos-1")
	before := sw.RunningConfig()
	tf := applyGuide(t, l, "eos-leaf")

	running := sw.RunningConfig()
	want := [][2]string{
		{"qos profile ROCE", "qos trust dscp"},
		{"qos profile ROCE", "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100"},
		{"qos profile ROCE", "priority-flow-control priority 3 no-drop"},
		{"qos profile ROCE", "tx-queue 6\n      priority strict\n"},
	}
	for _, port := range sw.Interfaces() {
		header := "interface " + port
		want = append(want,
			[2]string{header, "service-profile ROCE"},
			[2]string{header, "priority-flow-control on"},
			[2]string{header, "flowcontrol send off"},
			[2]string{header, "priority-flow-control pause watchdog port action drop"},
			[2]string{header, "priority-flow-control pause watchdog port timer timeout 0.20 polling-interval auto recovery-time 0.40"})
	}
	wantBlockLines(t, running, section, want)
	// The whole DSCP map is written; the running-config shows only what differs from EOS's
	// defaults (0-7 -> TC 1, 24-31 -> TC 3, 48-55 -> TC 6, ...): every DSCP but 26 and 48 that
	// does not already go to TC 0 now does.
	var toZero []string
	for d := range 64 {
		if d != 26 && d != 48 && (d < 8 || d > 15) {
			toZero = append(toZero, strconv.Itoa(d))
		}
	}
	if line := "\nqos map dscp " + strings.Join(toZero, " ") + " to traffic-class 0\n"; !strings.Contains(running, line) {
		t.Errorf("the running-config lacks%s", line)
	}
	wantSaved(t, sw, running)

	// An operator turns PFC off on one port in their own SSH session.
	l.terminal(t, "eos-1").configure("interface Ethernet3", "no priority-flow-control on")
	tf.driftRepaired("a port whose PFC was turned off by hand",
		`# roce_pfc_interface.port["Ethernet3"] will be updated in-place`, `"off" -> "on"`,
		"Plan: 0 to add, 1 to change, 0 to destroy.")

	tf.destroy()
	wantRestored(t, sw, before)
	if s := sw.Sessions(); len(s) != 0 {
		t.Errorf("configuration sessions left pending: %v", s)
	}
}
