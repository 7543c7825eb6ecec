package driver

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/eos"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/nxos"
)

// EOS: both reads in one exchange, through the dispatch table; ECN marks summed over the
// counting queues, drops are in + out discards, and no PFC map (EOS's is not read). A name that
// is no port never reaches the switch.
func TestEOSCounters(t *testing.T) {
	ctx := context.Background()
	cmds := eos.CountersCommands("Ethernet10/3/1")
	sw := &fakeCLI{answers: map[string]string{
		cmds[0]: golden.Capture(t, "../platform/eos/testdata/counters/eos_show_qos_interfaces_ecn_counters_queue_anta_failure.json.txt"),
		cmds[1]: `{"inDiscardsTotal": 0, "interfaces": {"Ethernet10/3/1": {"outDiscards": 42, "inDiscards": 7}}, "outDiscardsTotal": 0}`,
	}}
	d := cliCounters{sw, "sw", readEOSCounters}
	got, err := d.port(ctx, "Ethernet10/3/1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{cmds}, sw.shown); diff != "" {
		t.Errorf("shown (-want +got):\n%s", diff)
	}
	if got.ECNMarked == nil || *got.ECNMarked != 2 || got.Dropped == nil || *got.Dropped != 49 || got.PFCRxPause != nil || got.PFCTxPause != nil || got.CNPSent != nil ||
		!reflect.DeepEqual(got.QueueECNMarked, map[int]float64{0: 0, 1: 0, 2: 2}) || got.QueueDropped != nil {
		t.Errorf("counters %+v", got)
	}
	if _, err := d.port(ctx, "Ethernet1 | bash"); err == nil || !strings.Contains(err.Error(), "not an EOS front-panel port") || len(sw.shown) != 1 {
		t.Errorf("a name that is no port: %v (shown %d)", err, len(sw.shown))
	}
	sw.answers[cmds[0]] = "% Invalid input"
	if _, err := d.port(ctx, "Ethernet10/3/1"); err == nil || !strings.HasPrefix(err.Error(), `device "sw": `) {
		t.Errorf("an output that is no JSON: %v", err)
	}
	if _, err := d.port(ctx, "Ethernet9"); err == nil || !strings.Contains(err.Error(), "show qos interfaces Ethernet9") {
		t.Errorf("a show the switch refuses: %v", err)
	}
	if open := platforms["eos"].counters; open == nil {
		t.Error("no counters row for eos")
	}
}

// NX-OS: one show; PFC frames per CoS and drops, no ECN count.
func TestNXOSCounters(t *testing.T) {
	ctx := context.Background()
	out := golden.Capture(t, "../platform/nxos/testdata/counters/nxos_show_queuing_interface_qos_group_zartbot.txt") +
		golden.Capture(t, "../platform/nxos/testdata/counters/nxos_show_queuing_interface_ingress_zartbot.txt")
	sw := &fakeCLI{answers: map[string]string{nxos.CountersCommand("Ethernet1/51"): out}}
	d := cliCounters{sw, "sw", readNXOSCounters}
	got, err := d.port(ctx, "Ethernet1/51")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"show queuing interface Ethernet1/51"}}, sw.shown); diff != "" {
		t.Errorf("shown (-want +got):\n%s", diff)
	}
	if got.PFCTxPause[5] != 150 || len(got.PFCRxPause) != 8 || got.Dropped == nil || *got.Dropped != 0 || got.ECNMarked != nil ||
		!reflect.DeepEqual(got.QueueDropped, map[int]float64{5: 0}) || got.QueueECNMarked != nil {
		t.Errorf("counters %+v", got)
	}
	if _, err := d.port(ctx, "Ethernet1/51;reload"); err == nil || !strings.Contains(err.Error(), "not an NX-OS front-panel port") || len(sw.shown) != 1 {
		t.Errorf("a name that is no port: %v", err)
	}
	if _, err := d.port(ctx, "Ethernet1/52"); err == nil || !strings.Contains(err.Error(), "show queuing interface Ethernet1/52") {
		t.Errorf("a show the switch refuses: %v", err)
	}
	if open := platforms["nxos"].counters; open == nil {
		t.Error("no counters row for nxos")
	}
}
