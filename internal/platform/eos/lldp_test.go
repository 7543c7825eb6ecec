package eos

import (
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

func TestParseLLDPCaptures(t *testing.T) {
	host := goldenfile.Capture(t, "testdata/lldp/eos_show_hostname_napalm.json.txt")
	name, ifaces, got, err := ParseLLDP(goldenfile.Capture(t, "testdata/lldp/eos_show_lldp_neighbors_detail_napalm_issue903.json.txt"), host)
	if err != nil {
		t.Fatal(err)
	}
	if name != "localhost" {
		t.Errorf("hostname %q", name)
	}
	// A Linux host (lldpd): MAC port ID, the interface name in the description.
	if len(got) == 0 || got[0] != (fabric.Neighbor{Interface: "Ethernet22", SystemName: "linux", ChassisID: "00c.297b.d2a8",
		PortID: "000c.297b.d2a8", PortDescription: "eth0"}) {
		t.Errorf("issue903 neighbours %+v", got)
	}
	if !slices.Contains(ifaces, "Ethernet22") {
		t.Errorf("interfaces %v", ifaces)
	}
	// Interfaces with nothing heard are interfaces, not neighbours; a quoted interface-name
	// port ID is unquoted.
	_, ifaces, got, err = ParseLLDP(goldenfile.Capture(t, "testdata/lldp/eos_show_lldp_neighbors_detail_napalm_issue1153.json.txt"), host)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ifaces, "Ethernet23/1") || slices.ContainsFunc(got, func(n fabric.Neighbor) bool { return n.Interface == "Ethernet23/1" }) {
		t.Errorf("Ethernet23/1 (no neighbour): interfaces %v neighbours %+v", ifaces, got)
	}
	for _, n := range got {
		if strings.Contains(n.PortID, `"`) {
			t.Errorf("port ID keeps EOS's quotes: %+v", n)
		}
	}
	if !slices.ContainsFunc(got, func(n fabric.Neighbor) bool { return n.PortID == "et-0/0/20" }) {
		t.Errorf("the Junos neighbour's quoted port ID et-0/0/20 is missing: %+v", got)
	}
}

func TestParseLLDPModernEOS(t *testing.T) {
	// interfaceId_v2 (EOS 4.28+) wins over the quoted interfaceId.
	js := `{"lldpNeighbors": {"Ethernet1": {"lldpNeighborInfo": [{"chassisIdType": "macAddress", "chassisId": "2899.3aee.669e",
	"systemName": "PDX01-M01-G29-IPMITOR-01", "neighborInterfaceInfo": {"interfaceIdType": "interfaceName",
	"interfaceId": "\"Ethernet51\"", "interfaceId_v2": "Ethernet51", "interfaceDescription": "Uplink to IPMISPINE-01:Eth1"}}]},
	"Ethernet2": {"lldpNeighborInfo": []}}}`
	_, ifaces, got, err := ParseLLDP(js, `{"fqdn": "leaf1.example.net", "hostname": "leaf1"}`)
	want := []fabric.Neighbor{{Interface: "Ethernet1", SystemName: "PDX01-M01-G29-IPMITOR-01", ChassisID: "2899.3aee.669e",
		PortID: "Ethernet51", PortDescription: "Uplink to IPMISPINE-01:Eth1"}}
	if err != nil || !slices.Equal(got, want) || !slices.Equal(ifaces, []string{"Ethernet1", "Ethernet2"}) {
		t.Errorf("got %+v %v %v", got, ifaces, err)
	}
	for _, bad := range []string{`% This is an unconverted command`, `{}`} {
		if _, _, _, err := ParseLLDP(bad, `{"hostname": "x"}`); err == nil {
			t.Errorf("ParseLLDP(%q) took it", bad)
		}
	}
}
