package eos

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// updatedPFC changes the watchdog times.
func updatedPFC() *fabric.PFCInterface {
	p := examplePFC()
	p.Watchdog = &fabric.PFCWatchdog{Action: fabric.WatchdogDrop, DetectionTimeMs: 300, RestorationTimeMs: 1110}
	return p
}

// Ethernet3 of the base switch has an operator's watchdog (notify-only, forced recovery, its
// own polling interval) and flowcontrol receive off: delete puts them back.
func TestPFCLinesGolden(t *testing.T) {
	prior := running.File(t, "base-running-config.txt").PFCPrior("Ethernet3")
	platformtest.GoldenPFCLines(t, examplePFC, updatedPFC(), func(_ *testing.T, tc platformtest.PFCStep) ([]string, error) {
		return PFCLines("Ethernet3", tc.Old, tc.Next, prior), nil
	}, func(t *testing.T, _ platformtest.PFCStep, got []string) { checkModes(t, got) })
}

// A port that had none of the lines gets them removed with their `no` forms.
func TestPFCLinesRestoreNone(t *testing.T) {
	got := PFCLines("Ethernet1", examplePFC(), nil, PFCPrior{})
	want := []string{"interface Ethernet1", "no priority-flow-control on", "no flowcontrol send", "no flowcontrol receive",
		"no priority-flow-control pause watchdog", "no priority-flow-control pause watchdog port action",
		"no priority-flow-control pause watchdog port timer", "exit"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("delete (-want +got):\n%s", diff)
	}
	// A watchdog the resource never managed is left alone on delete.
	noWD := examplePFC()
	noWD.Watchdog = nil
	for _, l := range PFCLines("Ethernet1", noWD, nil, PFCPrior{}) {
		if strings.Contains(l, "watchdog") {
			t.Errorf("delete of an unmanaged watchdog writes %q", l)
		}
	}
}

// What the switch prints after pfc-create.golden reads back as the intent; the base port reads
// its operator's watchdog with the options PFCLines does not write as Unknown times.
func TestPFCRead(t *testing.T) {
	c := running.Text(t, `interface Ethernet3
   flowcontrol send off
   flowcontrol receive off
   priority-flow-control on
   priority-flow-control pause watchdog
   priority-flow-control pause watchdog port action drop
   priority-flow-control pause watchdog port timer timeout 0.2 polling-interval auto recovery-time 0.40
!
interface Ethernet4
   flowcontrol receive on
   priority-flow-control pause watchdog port action drop
`)
	got, ok := c.PFC("Ethernet3")
	if !ok {
		t.Fatal("PFC(Ethernet3) not found")
	}
	if diff := cmp.Diff(examplePFC(), got); diff != "" {
		t.Errorf("PFC(Ethernet3) (-want +got):\n%s", diff)
	}
	// Link pause is on when either direction is; a watchdog not enabled has no action.
	want := &fabric.PFCInterface{Interface: "Ethernet4", Mode: fabric.PFCModeOff, LinkPause: true, Watchdog: &fabric.PFCWatchdog{}}
	if got, _ := c.PFC("Ethernet4"); !cmp.Equal(want, got) {
		t.Errorf("PFC(Ethernet4) = %+v %+v", got, got.Watchdog)
	}
	if _, ok := c.PFC("Ethernet5"); ok {
		t.Error("PFC of a port without an interface block")
	}
	base, _ := running.File(t, "base-running-config.txt").PFC("Ethernet3")
	want = &fabric.PFCInterface{Interface: "Ethernet3", Mode: fabric.PFCModeOff,
		Watchdog: &fabric.PFCWatchdog{Action: "notify-only", DetectionTimeMs: Unknown, RestorationTimeMs: Unknown}}
	if diff := cmp.Diff(want, base); diff != "" {
		t.Errorf("base Ethernet3 (-want +got):\n%s", diff)
	}
	if got, _ := running.File(t, "base-running-config.txt").PFC("Ethernet1"); got.Watchdog != nil {
		t.Errorf("a port without watchdog lines reads %+v", got.Watchdog)
	}
}

func TestPFCPrior(t *testing.T) {
	c := running.File(t, "base-running-config.txt")
	got := c.PFCPrior("Ethernet3")
	platformtest.CheckPrior(t, got, PFCPrior{FlowReceive: "off", Watchdog: &Watchdog{Enabled: true, Action: "notify-only",
		Timer: "timeout 0.50 polling-interval 0.10 recovery-time 2.00 forced", TimeoutMs: 500, RecoveryMs: 2000}},
		c.PFCPrior("Ethernet99"), `"pfc_on"`, `"flow_receive"`, `"watchdog"`, `"timer"`, `"recovery_ms"`)
	got.Watchdog.Action = "changed"
	if c.Interfaces["Ethernet3"].Watchdog.Action != "notify-only" {
		t.Error("PFCPrior shares the parsed watchdog")
	}
}

// A watchdog read back and written again round-trips through its own timer line.
func TestPFCTimerLine(t *testing.T) {
	ls := PFCLines("Ethernet3", nil, updatedPFC(), PFCPrior{})
	i := slices.IndexFunc(ls, func(l string) bool { return strings.Contains(l, "port timer") })
	if i < 0 || ls[i] != "priority-flow-control pause watchdog port timer timeout 0.30 polling-interval auto recovery-time 1.11" {
		t.Fatalf("timer line: %q", ls)
	}
	got, _ := running.Text(t, "interface Ethernet3\n   priority-flow-control on\n   flowcontrol send off\n   "+
		strings.Join(ls[1:len(ls)-1], "\n   ")+"\n").PFC("Ethernet3")
	if diff := cmp.Diff(updatedPFC(), got); diff != "" {
		t.Errorf("read after write (-want +got):\n%s", diff)
	}
}
