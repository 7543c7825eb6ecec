package driver

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/eos"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/nxos"
)

// lldpSwitch is a CLI switch that answers the LLDP and hostname reads with captures kept by
// the platform package.
func lldpSwitch(t *testing.T, commands []string, neighbors, hostname string) *fakeCLI {
	t.Helper()
	return &fakeCLI{answers: map[string]string{
		commands[0]: golden.Capture(t, neighbors),
		commands[1]: golden.Capture(t, hostname),
	}}
}

// lldpReadFails: an answer to command the parser refuses is an error naming the device; a show
// the switch refuses is the switch's error, naming the command.
func lldpReadFails(t *testing.T, read func(context.Context, cliConn, string) (fabric.DeviceNeighbors, error), sw *fakeCLI, command, answer, refused string) {
	t.Helper()
	sw.answers[command] = answer
	if _, err := read(context.Background(), sw, "sw"); err == nil || !strings.HasPrefix(err.Error(), `device "sw": `) {
		t.Errorf("%s answered %q: %v", command, answer, err)
	}
	delete(sw.answers, refused)
	if _, err := read(context.Background(), sw, "sw"); err == nil || !strings.Contains(err.Error(), refused) {
		t.Errorf("a refused %s: %v", refused, err)
	}
}

// EOS: both reads in one exchange; the interfaces LLDP runs on are listed, those with nothing
// heard among them; an output that is not EOS's JSON is an error naming the device.
func TestEOSLLDP(t *testing.T) {
	ctx := context.Background()
	sw := lldpSwitch(t, eos.LLDPCommands, "../platform/eos/testdata/lldp/eos_show_lldp_neighbors_detail_napalm_issue1153.json.txt",
		"../platform/eos/testdata/lldp/eos_show_hostname_napalm.json.txt")
	got, err := readEOSLLDP(ctx, sw, "sw")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{eos.LLDPCommands}, sw.shown); diff != "" {
		t.Errorf("shown (-want +got):\n%s", diff)
	}
	if got.Hostname != "localhost" || !slices.Contains(got.Interfaces, "Ethernet23/1") {
		t.Errorf("hostname %q interfaces %v", got.Hostname, got.Interfaces)
	}
	if !slices.ContainsFunc(got.Neighbors, func(n fabric.Neighbor) bool { return n.PortID == "et-0/0/20" }) ||
		slices.ContainsFunc(got.Neighbors, func(n fabric.Neighbor) bool { return n.Interface == "Ethernet23/1" }) {
		t.Errorf("neighbours %+v", got.Neighbors)
	}
	lldpReadFails(t, readEOSLLDP, sw, eos.LLDPCommands[0], "% This is an unconverted command", eos.LLDPCommands[1])
}

// NX-OS: both reads in one exchange; local ports in their full names.
func TestNXOSLLDP(t *testing.T) {
	ctx := context.Background()
	sw := lldpSwitch(t, nxos.LLDPCommands, "../platform/nxos/testdata/lldp/nxos_show_lldp_neighbors_detail_text_genie_golden1.txt",
		"../platform/nxos/testdata/lldp/nxos_show_hostname_text_ntc.txt")
	got, err := readNXOSLLDP(ctx, sw, "sw")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{nxos.LLDPCommands}, sw.shown); diff != "" {
		t.Errorf("shown (-want +got):\n%s", diff)
	}
	want := fabric.DeviceNeighbors{Hostname: "n9k1", Neighbors: []fabric.Neighbor{
		{Interface: "Ethernet1/1", SystemName: "R1_csr1000v.openstacklocal", ChassisID: "001e.49ff.24f7", PortID: "Gi3", PortDescription: "GigabitEthernet3"},
		{Interface: "Ethernet1/2", SystemName: "R2_xrv9000", ChassisID: "000d.bdff.4f04", PortID: "Gi0/0/0/1"},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	lldpReadFails(t, readNXOSLLDP, sw, nxos.LLDPCommands[1], "two words\n", nxos.LLDPCommands[0])
}

// The data sources' read: the device's configured hostname wins over the one it reports, the
// neighbours come sorted by local port, and the shared snapshot is not changed by the sort.
func TestLLDPNeighbors(t *testing.T) {
	ctx := context.Background()
	reg := testRegistry("nxos", devices.Device{Hostname: "leaf-1"})
	sw := lldpSwitch(t, nxos.LLDPCommands, "../platform/nxos/testdata/lldp/nxos_show_lldp_neighbors_detail_text_genie_golden1.txt",
		"../platform/nxos/testdata/lldp/nxos_show_hostname_text_ntc.txt")
	// The first read of the process fills the snapshot ("lldp") that LLDPNeighbors serves from.
	read, err := devices.Snapshot(ctx, reg, "sw", "lldp", func(ctx context.Context) (fabric.DeviceNeighbors, error) {
		got, err := readNXOSLLDP(ctx, sw, "sw")
		slices.Reverse(got.Neighbors)
		return got, err
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := LLDPNeighbors(ctx, reg, "sw")
	if err != nil {
		t.Fatal(err)
	}
	if got.Device != "sw" || got.Hostname != "leaf-1" || len(got.Neighbors) != 2 ||
		got.Neighbors[0].Interface != "Ethernet1/1" || got.Neighbors[1].Interface != "Ethernet1/2" {
		t.Errorf("got %+v", got)
	}
	if read.Neighbors[0].Interface != "Ethernet1/2" {
		t.Errorf("the shared snapshot was sorted in place: %+v", read.Neighbors)
	}
	if _, err := LLDPNeighbors(ctx, reg, "nope"); err == nil {
		t.Error("an unknown device was read")
	}
	// Every platform has an LLDP read today; a device whose platform has none (a platform name
	// from a newer inventory) is refused by name.
	if _, err := LLDPNeighbors(ctx, testRegistry("junos", devices.Device{}), "sw"); err == nil ||
		err.Error() != `device "sw" has platform junos, whose LLDP neighbours this provider version cannot read yet` {
		t.Errorf("a platform without an LLDP read: %v", err)
	}
	if got := LLDPDevices(reg); !slices.Equal(got, []string{"sw"}) {
		t.Errorf("LLDPDevices %v", got)
	}
}
