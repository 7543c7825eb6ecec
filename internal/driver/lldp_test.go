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

// cliLLDP is a CLI platform's LLDP read: its commands, its parser, and the platform's
// testdata/lldp, where its captures are kept with their sources.
type cliLLDP struct {
	commands []string
	parse    func(neighbors, hostname string) (fabric.DeviceNeighbors, error)
	captures string
}

var (
	eosLLDP  = cliLLDP{eos.LLDPCommands, eos.ParseLLDP, "../platform/eos/testdata/lldp/"}
	nxosLLDP = cliLLDP{nxos.LLDPCommands, nxos.ParseLLDP, "../platform/nxos/testdata/lldp/"}
)

// capture is one of p's captures, without its source line.
func (p cliLLDP) capture(t *testing.T, name string) string {
	t.Helper()
	return golden.Capture(t, p.captures+name)
}

// A CLI switch's LLDP read, from its exchange to what the parser makes of the outputs: both
// reads in one exchange (the neighbours', then the hostname's), the read whole. An answer the
// parser refuses is an error naming the device; a show the switch refuses (refused: the
// hostname's), the switch's error naming the command.
func TestShowLLDP(t *testing.T) {
	const (
		eos903   = "eos_show_lldp_neighbors_detail_napalm_issue903.json.txt"
		eos1153  = "eos_show_lldp_neighbors_detail_napalm_issue1153.json.txt"
		eosHost  = "eos_show_hostname_napalm.json.txt"
		nxosHost = "nxos_show_hostname_text_ntc.txt"
		nxosNone = "Capability codes:\nTotal entries displayed: 0\n"
	)
	nxosCapture := func(name string) string {
		return nxosLLDP.capture(t, "nxos_show_lldp_neighbors_detail_text_"+name+".txt")
	}
	for name, tc := range map[string]struct {
		p                   cliLLDP
		neighbors, hostname string
		want                fabric.DeviceNeighbors
		err                 string
		refused             bool
	}{
		// A Linux host (lldpd): MAC port ID, the interface name in the description.
		"eos issue903": {p: eosLLDP, neighbors: eosLLDP.capture(t, eos903), hostname: eosLLDP.capture(t, eosHost),
			want: fabric.DeviceNeighbors{Hostname: "localhost", Interfaces: []string{"Ethernet22"},
				Neighbors: []fabric.Neighbor{{Interface: "Ethernet22", SystemName: "linux", ChassisID: "00c.297b.d2a8",
					PortID: "000c.297b.d2a8", PortDescription: "eth0"}}}},
		// The interfaces LLDP runs on are listed, those with nothing heard (Ethernet23/1) among
		// them; the Junos neighbours' quoted interface-name port IDs ("\"et-0/0/20\"") are unquoted.
		"eos issue1153": {p: eosLLDP, neighbors: eosLLDP.capture(t, eos1153), hostname: eosLLDP.capture(t, eosHost),
			want: fabric.DeviceNeighbors{Hostname: "localhost", Interfaces: []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3",
				"Ethernet1/4", "Ethernet6/1", "Ethernet6/2", "Ethernet6/3", "Ethernet7/1", "Ethernet7/2", "Ethernet7/3", "Ethernet7/4",
				"Ethernet20/1", "Ethernet20/2", "Ethernet20/3", "Ethernet21/2", "Ethernet21/3", "Ethernet22/1", "Ethernet22/2",
				"Ethernet22/3", "Ethernet22/4", "Ethernet23/1", "Ethernet23/3", "Ethernet23/4", "Ethernet26/1", "Ethernet26/4",
				"Ethernet27/1", "Ethernet27/2", "Ethernet27/3", "Ethernet27/4"}, Neighbors: []fabric.Neighbor{
				{Interface: "Ethernet1/1", SystemName: "some-server", ChassisID: "1ce7.1003.5413", PortID: "1ce7.1003.5413", PortDescription: "eth0"},
				{Interface: "Ethernet26/1", SystemName: "some-other-switch", ChassisID: "0443.1003.5413", PortID: "et-0/0/20", PortDescription: "et-0/0/20"},
				{Interface: "Ethernet27/1", SystemName: "some-switch", ChassisID: "fc66.1003.5413", PortID: "et-0/0/20", PortDescription: "et-0/0/20"},
			}}},
		// interfaceId_v2 (EOS 4.28+) wins over the quoted interfaceId.
		"eos 4.28": {p: eosLLDP, neighbors: `{"lldpNeighbors": {"Ethernet1": {"lldpNeighborInfo": [{"chassisIdType": "macAddress",
	"chassisId": "2899.3aee.669e", "systemName": "PDX01-M01-G29-IPMITOR-01", "neighborInterfaceInfo": {"interfaceIdType": "interfaceName",
	"interfaceId": "\"Ethernet51\"", "interfaceId_v2": "Ethernet51", "interfaceDescription": "Uplink to IPMISPINE-01:Eth1"}}]},
	"Ethernet2": {"lldpNeighborInfo": []}}}`, hostname: `{"fqdn": "leaf1.example.net", "hostname": "leaf1"}`,
			want: fabric.DeviceNeighbors{Hostname: "leaf1", Interfaces: []string{"Ethernet1", "Ethernet2"},
				Neighbors: []fabric.Neighbor{{Interface: "Ethernet1", SystemName: "PDX01-M01-G29-IPMITOR-01", ChassisID: "2899.3aee.669e",
					PortID: "Ethernet51", PortDescription: "Uplink to IPMISPINE-01:Eth1"}}}},
		"eos not JSON": {p: eosLLDP, neighbors: "% This is an unconverted command", hostname: `{"hostname": "x"}`,
			err: "show lldp neighbors detail | json: invalid character"},
		"eos no lldpNeighbors": {p: eosLLDP, neighbors: `{}`, hostname: `{"hostname": "x"}`, err: "no lldpNeighbors member"},
		"eos refused":          {p: eosLLDP, neighbors: `{"lldpNeighbors": {}}`, refused: true},
		"nxos golden1": {p: nxosLLDP, neighbors: nxosCapture("genie_golden1"), hostname: nxosLLDP.capture(t, nxosHost),
			want: fabric.DeviceNeighbors{Hostname: "n9k1", Neighbors: []fabric.Neighbor{
				{Interface: "Ethernet1/1", SystemName: "R1_csr1000v.openstacklocal", ChassisID: "001e.49ff.24f7", PortID: "Gi3", PortDescription: "GigabitEthernet3"},
				{Interface: "Ethernet1/2", SystemName: "R2_xrv9000", ChassisID: "000d.bdff.4f04", PortID: "Gi0/0/0/1"},
			}}},
		// `System Name: null` (a server NIC) is no name; port IDs with spaces are kept whole.
		"nxos golden2": {p: nxosLLDP, neighbors: nxosCapture("genie_golden2"), hostname: nxosLLDP.capture(t, nxosHost),
			want: fabric.DeviceNeighbors{Hostname: "n9k1", Neighbors: []fabric.Neighbor{
				{Interface: "Ethernet1/14", ChassisID: "3935-5A43-4A37-39373638-35303036574C", PortID: "PCI-E Slot 1, Port 2", PortDescription: "ConnectX-4 Lx, 25G/10G/1G SFP"},
				{Interface: "Ethernet1/38", SystemName: "VPN-1", ChassisID: "e0cb.bcff.4290", PortID: "0", PortDescription: "internet port 0"},
				{Interface: "Ethernet1/40", SystemName: "MX-L0", ChassisID: "e0cb.bcff.7bab", PortID: "1", PortDescription: "internet port 1"},
				{Interface: "Ethernet1/42", SystemName: "CAT2960-CED1", ChassisID: "7018.a7ff.7d64", PortID: "Te2/0/2", PortDescription: "- NX1-2 (Eth1/43) -"},
				{Interface: "Ethernet1/43", SystemName: "RCAT2960", ChassisID: "7018.a7ff.7d64", PortID: "Te1/0/1", PortDescription: "- NX1-1 (Eth1/42) -"},
				{Interface: "Ethernet1/46", SystemName: "NX1-2", ChassisID: "70ea.1aff.b6f6", PortID: "Ethernet1/46", PortDescription: "- NX1-1 (eth1/46) - vPC Peer Keepalive link"},
				{Interface: "Ethernet1/54", SystemName: "NX2-2", ChassisID: "70ea.1aff.854d", PortID: "Ethernet1/54", PortDescription: "- NX1 -"},
			}}},
		// Local ports in their full names (Eth1/1 is Ethernet1/1; mgmt0 stays).
		"nxos ntc": {p: nxosLLDP, neighbors: nxosCapture("ntc_cisco_nxos_show_lldp_neighbors_detail.raw"), hostname: nxosLLDP.capture(t, nxosHost),
			want: fabric.DeviceNeighbors{Hostname: "n9k1", Neighbors: []fabric.Neighbor{
				{Interface: "mgmt0", SystemName: "Switch.cisco.com", ChassisID: "0014.1c57.a48b", PortID: "Fa1/0/9", PortDescription: "FastEthernet1/0/9"},
				{Interface: "Ethernet1/1", SystemName: "n9k2.company.com", ChassisID: "5087.89a1.d8d6", PortID: "Ethernet1/1", PortDescription: "Ethernet1/1"},
				{Interface: "Ethernet1/2", SystemName: "n9k2.company.com", ChassisID: "5087.89a1.d8d7", PortID: "Ethernet1/2", PortDescription: "Ethernet1/2"},
				{Interface: "Ethernet2/2", SystemName: "N3K.cisconxapi.com", ChassisID: "547f.eeaf.7818", PortID: "Ethernet1/49", PortDescription: "Ethernet1/49"},
			}}},
		"nxos no neighbour": {p: nxosLLDP, neighbors: nxosNone, hostname: "n9k1\n", want: fabric.DeviceNeighbors{Hostname: "n9k1"}},
		"nxos not a table":  {p: nxosLLDP, neighbors: "% Invalid command at '^' marker.", hostname: "n9k1", err: "printed no LLDP table"},
		"nxos no chassis":   {p: nxosLLDP, neighbors: "Capability codes:\nPort id: x\n", hostname: "n9k1", err: "before any Chassis id"},
		"nxos no hostname":  {p: nxosLLDP, neighbors: nxosNone, hostname: "", err: "not a hostname"},
		"nxos two words":    {p: nxosLLDP, neighbors: nxosNone, hostname: "two words\n", err: "not a hostname"},
		"nxos refused":      {p: nxosLLDP, neighbors: nxosNone, refused: true},
	} {
		t.Run(name, func(t *testing.T) {
			sw := &fakeCLI{answers: map[string]string{tc.p.commands[0]: tc.neighbors, tc.p.commands[1]: tc.hostname}}
			if tc.refused {
				delete(sw.answers, tc.p.commands[1])
			}
			got, err := showLLDP(tc.p.commands, tc.p.parse)(context.Background(), sw, "sw")
			if diff := cmp.Diff([][]string{tc.p.commands}, sw.shown); diff != "" {
				t.Errorf("shown (-want +got):\n%s", diff)
			}
			switch {
			case tc.refused:
				if err == nil || !strings.Contains(err.Error(), tc.p.commands[1]) {
					t.Errorf("a refused %s: %v", tc.p.commands[1], err)
				}
			case tc.err != "":
				if err == nil || !strings.HasPrefix(err.Error(), `device "sw": `) || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("err = %v, want one naming the device and saying %q", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			default:
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}
		})
	}
}

// The data sources' read: the device's configured hostname wins over the one it reports, the
// neighbours come sorted by local port, and the shared snapshot is not changed by the sort.
func TestLLDPNeighbors(t *testing.T) {
	ctx := context.Background()
	reg := testRegistry("nxos", devices.Device{Hostname: "leaf-1"})
	sw := &fakeCLI{answers: map[string]string{
		nxos.LLDPCommands[0]: nxosLLDP.capture(t, "nxos_show_lldp_neighbors_detail_text_genie_golden1.txt"),
		nxos.LLDPCommands[1]: nxosLLDP.capture(t, "nxos_show_hostname_text_ntc.txt"),
	}}
	// The first read of the process fills the snapshot ("lldp") that LLDPNeighbors serves from.
	read, err := devices.Snapshot(ctx, reg, "sw", "lldp", func(ctx context.Context) (fabric.DeviceNeighbors, error) {
		got, err := showLLDP(nxosLLDP.commands, nxosLLDP.parse)(ctx, sw, "sw")
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
