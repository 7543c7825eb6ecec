package nxos

import (
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

func TestParseLLDPCaptures(t *testing.T) {
	host := goldenfile.Capture(t, "testdata/lldp/nxos_show_hostname_text_ntc.txt")
	name, got, err := ParseLLDP(goldenfile.Capture(t, "testdata/lldp/nxos_show_lldp_neighbors_detail_text_genie_golden1.txt"), host)
	if err != nil {
		t.Fatal(err)
	}
	want := []fabric.Neighbor{
		{Interface: "Ethernet1/1", SystemName: "R1_csr1000v.openstacklocal", ChassisID: "001e.49ff.24f7", PortID: "Gi3", PortDescription: "GigabitEthernet3"},
		{Interface: "Ethernet1/2", SystemName: "R2_xrv9000", ChassisID: "000d.bdff.4f04", PortID: "Gi0/0/0/1"},
	}
	if name != "n9k1" || !slices.Equal(got, want) {
		t.Errorf("golden1: %q\n%+v\nwant\n%+v", name, got, want)
	}
	// `System Name: null` (a server NIC) is no name; port IDs with spaces are kept whole.
	_, got, err = ParseLLDP(goldenfile.Capture(t, "testdata/lldp/nxos_show_lldp_neighbors_detail_text_genie_golden2.txt"), host)
	if err != nil || len(got) == 0 {
		t.Fatalf("golden2: %v %v", got, err)
	}
	if got[0] != (fabric.Neighbor{Interface: "Ethernet1/14", ChassisID: "3935-5A43-4A37-39373638-35303036574C",
		PortID: "PCI-E Slot 1, Port 2", PortDescription: "ConnectX-4 Lx, 25G/10G/1G SFP"}) {
		t.Errorf("golden2[0] = %+v", got[0])
	}
	if _, got, err = ParseLLDP(goldenfile.Capture(t, "testdata/lldp/nxos_show_lldp_neighbors_detail_text_ntc_cisco_nxos_show_lldp_neighbors_detail.raw.txt"), host); err != nil || len(got) == 0 {
		t.Errorf("ntc raw: %v %v", got, err)
	}
	for _, n := range got {
		if !strings.HasPrefix(n.Interface, "Ethernet") && n.Interface != "mgmt0" {
			t.Errorf("local port %q not expanded", n.Interface)
		}
	}
}

func TestParseLLDPRefusals(t *testing.T) {
	for _, tc := range []struct{ neighbors, host, want string }{
		{"% Invalid command at '^' marker.", "n9k1", "printed no LLDP table"},
		{"Capability codes:\nTotal entries displayed: 0\n", "", "not a hostname"},
		{"Capability codes:\nPort id: x\n", "n9k1", "before any Chassis id"},
	} {
		if _, _, err := ParseLLDP(tc.neighbors, tc.host); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseLLDP(%q): %v, want %q", tc.neighbors, err, tc.want)
		}
	}
	if _, got, err := ParseLLDP("Capability codes:\nTotal entries displayed: 0\n", "n9k1"); err != nil || len(got) != 0 {
		t.Errorf("no neighbours: %v %v", got, err)
	}
}
