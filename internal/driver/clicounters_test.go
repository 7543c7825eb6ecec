package driver

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/eos"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/nxos"
)

const (
	eosECNCapture      = "../platform/eos/testdata/counters/eos_show_qos_interfaces_ecn_counters_queue_anta_failure.json.txt"
	eosChannelsCapture = "../platform/eos/testdata/counters/eos_show_interfaces_counters_discards_anta_port_channels.json.txt"
	nxosGroupCapture   = "../platform/nxos/testdata/counters/nxos_show_queuing_interface_qos_group_zartbot.txt"
	nxosIngressCapture = "../platform/nxos/testdata/counters/nxos_show_queuing_interface_ingress_zartbot.txt"
)

// EOS: any number of ports in one exchange of the same two device-wide commands; ECN marks
// summed over the counting queues, drops are in + out discards, and no PFC map (EOS's is not
// read). With no port, every front-panel port either output lists (not the port-channels). A
// port the switch does not list, or a name that is no port, is an error naming it.
func TestEOSCounters(t *testing.T) {
	ctx := context.Background()
	cmds := eos.CountersCommands()
	sw := &fakeCLI{answers: map[string]string{
		cmds[0]: golden.Capture(t, eosECNCapture),
		cmds[1]: `{"inDiscardsTotal": 0, "interfaces": {"Ethernet10/3/1": {"outDiscards": 42, "inDiscards": 7}, "Ethernet10/20/1": {"outDiscards": 0, "inDiscards": 0}}, "outDiscardsTotal": 0}`,
	}}
	d := cliCounters{sw, "sw", readEOSCounters}
	got, err := d.Counters(ctx, []string{"Ethernet10/3/1", "Ethernet10/20/1", "Ethernet10/28/1"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{cmds}, sw.shown); diff != "" {
		t.Errorf("three ports: shown (-want +got):\n%s", diff)
	}
	p := got["Ethernet10/3/1"]
	if p.ECNMarked == nil || *p.ECNMarked != 2 || p.Dropped == nil || *p.Dropped != 49 || p.PFCRxPause != nil || p.PFCTxPause != nil || p.CNPSent != nil ||
		!reflect.DeepEqual(p.QueueECNMarked, map[int]float64{0: 0, 1: 0, 2: 2}) || p.QueueDropped != nil {
		t.Errorf("Ethernet10/3/1: %+v", p)
	}
	if p := got["Ethernet10/20/1"]; *p.ECNMarked != 2 || *p.Dropped != 0 {
		t.Errorf("Ethernet10/20/1: %+v", p)
	}
	if p := got["Ethernet10/28/1"]; len(got) != 3 || *p.ECNMarked != 0 || p.Dropped != nil {
		t.Errorf("Ethernet10/28/1 (no discards listed): %+v of %v", p, slices.Sorted(maps.Keys(got)))
	}

	// roce_interface_counters' read of one port: the same exchange.
	one, err := CountersOf(ctx, d, "Ethernet10/3/1")
	if err != nil || *one.ECNMarked != 2 || *one.Dropped != 49 || len(sw.shown) != 2 || !slices.Equal(sw.shown[1], cmds) {
		t.Errorf("one port: %+v, %v (shown %v)", one, err, sw.shown)
	}

	sw.shown = nil
	sw.answers[cmds[1]] = golden.Capture(t, eosChannelsCapture)
	every, err := d.Counters(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Ethernet1", "Ethernet10/16/1", "Ethernet10/20/1", "Ethernet10/28/1", "Ethernet10/3/1", "Ethernet2", "Ethernet3"}; !slices.Equal(slices.Sorted(maps.Keys(every)), want) {
		t.Errorf("every port: %v, want %v", slices.Sorted(maps.Keys(every)), want)
	}
	if p := every["Ethernet1"]; *p.Dropped != 42 || p.ECNMarked != nil {
		t.Errorf("Ethernet1: %+v", p)
	}
	if diff := cmp.Diff([][]string{cmds}, sw.shown); diff != "" {
		t.Errorf("every port: shown (-want +got):\n%s", diff)
	}

	if _, err := d.Counters(ctx, []string{"Ethernet10/3/1", "Ethernet9"}); err == nil || !strings.Contains(err.Error(), `device "sw" has no interface Ethernet9`) {
		t.Errorf("a port the switch lacks: %v", err)
	}
	sw.shown = nil
	if _, err := d.Counters(ctx, []string{"Ethernet1", "Ethernet1 | bash"}); err == nil || !strings.Contains(err.Error(), `"Ethernet1 | bash" is not an EOS front-panel port`) || len(sw.shown) != 0 {
		t.Errorf("a name that is no port: %v (shown %d)", err, len(sw.shown))
	}
	if _, err := d.Counters(ctx, []string{"Port-Channel1"}); err == nil || len(sw.shown) != 0 {
		t.Errorf("a port-channel: %v", err)
	}
	sw.answers[cmds[0]] = "% Invalid input"
	if _, err := d.Counters(ctx, []string{"Ethernet1"}); err == nil || !strings.HasPrefix(err.Error(), `device "sw": `) {
		t.Errorf("an output that is no JSON: %v", err)
	}
	if open := platforms["eos"].counters; open == nil {
		t.Error("no counters row for eos")
	}
}

// nxosPortOutput is the capture's port's whole `show queuing interface` output, egress counters
// first as NX-OS prints them, renamed to port.
func nxosPortOutput(t *testing.T, port string) string {
	t.Helper()
	out := golden.Capture(t, nxosGroupCapture) + golden.Capture(t, nxosIngressCapture)
	return strings.ReplaceAll(out, "Ethernet1/51", port)
}

// NX-OS: the ports asked for in one exchange, a command each; every port in one exchange of
// the device-wide command. PFC frames per CoS and drops, no ECN count. A port the switch
// refuses, or a name that is no port, is an error naming it.
func TestNXOSCounters(t *testing.T) {
	ctx := context.Background()
	sw := &fakeCLI{answers: map[string]string{
		nxos.CountersCommand("Ethernet1/51"): nxosPortOutput(t, "Ethernet1/51"),
		nxos.CountersCommand("Ethernet1/52"): nxosPortOutput(t, "Ethernet1/52"),
		// the device-wide form: each port's block in turn (assumed: nxos ParseAllCounters)
		nxos.AllCountersCommand: nxosPortOutput(t, "Ethernet1/51") + nxosPortOutput(t, "Ethernet1/52"),
	}}
	d := cliCounters{sw, "sw", readNXOSCounters}
	got, err := d.Counters(ctx, []string{"Ethernet1/51", "Ethernet1/52", "Ethernet1/51"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"show queuing interface Ethernet1/51", "show queuing interface Ethernet1/52"}}, sw.shown); diff != "" {
		t.Errorf("two ports: shown (-want +got):\n%s", diff)
	}
	for _, port := range []string{"Ethernet1/51", "Ethernet1/52"} {
		p := got[port]
		if len(got) != 2 || p.PFCTxPause[5] != 150 || len(p.PFCRxPause) != 8 || p.Dropped == nil || *p.Dropped != 0 || p.ECNMarked != nil ||
			!reflect.DeepEqual(p.QueueDropped, map[int]float64{5: 0}) || p.QueueECNMarked != nil {
			t.Errorf("%s: %+v", port, p)
		}
	}

	sw.shown = nil
	every, err := d.Counters(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"show queuing interface"}}, sw.shown); diff != "" {
		t.Errorf("every port: shown (-want +got):\n%s", diff)
	}
	if !slices.Equal(slices.Sorted(maps.Keys(every)), []string{"Ethernet1/51", "Ethernet1/52"}) || every["Ethernet1/52"].PFCTxPause[5] != 150 {
		t.Errorf("every port: %v", every)
	}

	if _, err := d.Counters(ctx, []string{"Ethernet1/51", "Ethernet1/53"}); err == nil ||
		!strings.Contains(err.Error(), `device "sw" has no interface Ethernet1/53 (the switch answered "% Invalid command at '^' marker." to "show queuing interface Ethernet1/53")`) {
		t.Errorf("a port the switch lacks: %v", err)
	}
	sw.shown = nil
	if _, err := d.Counters(ctx, []string{"Ethernet1/51;reload"}); err == nil || !strings.Contains(err.Error(), "not an NX-OS front-panel port") || len(sw.shown) != 0 {
		t.Errorf("a name that is no port: %v", err)
	}
	sw.answers[nxos.CountersCommand("Ethernet1/51")] = "nothing we know\n"
	if _, err := d.Counters(ctx, []string{"Ethernet1/51"}); err == nil || !strings.HasPrefix(err.Error(), `device "sw": Ethernet1/51: `) {
		t.Errorf("an output of another layout: %v", err)
	}
	if open := platforms["nxos"].counters; open == nil {
		t.Error("no counters row for nxos")
	}
}
