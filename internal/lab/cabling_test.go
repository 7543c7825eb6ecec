package lab

import (
	"slices"
	"strings"
	"testing"
)

func testCabling() *cabling {
	c := newCabling()
	c.add("eos-1", cabledDevice{platform: "eos", role: roleSwitch, ports: ethernetNames(4)})
	c.add("nxos-1", cabledDevice{platform: "nxos", role: roleSwitch, ports: ethernetSlotNames(4)})
	c.add("mlx5-1", cabledDevice{platform: "mlx5", role: roleHost, ports: []string{"eth0", "eth1"}})
	c.add("mlx5-2", cabledDevice{platform: "mlx5", role: roleHost, ports: []string{"eth0"}})
	return c
}

func TestDefaultCabling(t *testing.T) {
	c := testCabling()
	cables := c.defaultCables()
	want := []Cable{
		{"eos-1", "Ethernet4", "nxos-1", "Ethernet1/4"}, // the switches' uplink, from their last ports
		{"mlx5-1", "eth0", "eos-1", "Ethernet1"},        // host 1's NICs on both switches
		{"mlx5-1", "eth1", "nxos-1", "Ethernet1/1"},
		{"mlx5-2", "eth0", "nxos-1", "Ethernet1/2"}, // host 2 starts on the next switch
	}
	if !slices.Equal(cables, want) {
		t.Errorf("default cables\n%v\nwant\n%v", cables, want)
	}
	if err := c.connect(cables); err != nil {
		t.Fatal(err)
	}
	// What each end hears is its peer as the peer's platform advertises itself.
	eos := c.heard("eos-1")
	if ad := eos["Ethernet1"]; ad.systemName != "mlx5-1" || ad.portIDType != "mac" || ad.portDescr != "eth0" || ad.portID != macColons(labMAC("mlx5-1", 1)) {
		t.Errorf("eos-1 Ethernet1 hears %+v, want lldpd on mlx5-1: MAC port ID, eth0 as description", ad)
	}
	if ad := eos["Ethernet4"]; ad.systemName != "nxos-1" || ad.portID != "Ethernet1/4" || ad.portIDType != "ifname" {
		t.Errorf("eos-1 Ethernet4 hears %+v, want nxos-1 Ethernet1/4", ad)
	}
	if ad := c.heard("mlx5-1")["eth1"]; ad.systemName != "nxos-1" || ad.portID != "Ethernet1/1" || ad.portDescr != "Ethernet1/1" {
		t.Errorf("mlx5-1 eth1 hears %+v", ad)
	}
}

func TestRecableAndErrors(t *testing.T) {
	c := testCabling()
	cables := c.defaultCables()
	if err := c.connect(cables); err != nil {
		t.Fatal(err)
	}
	// Move mlx5-1 eth0 from eos-1 Ethernet1 to eos-1 Ethernet3: Ethernet1 hears nothing now.
	if err := c.connect([]Cable{{"mlx5-1", "eth0", "eos-1", "Ethernet3"}}); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.heard("eos-1")["Ethernet1"]; ok {
		t.Error("the old port still hears the moved NIC")
	}
	if c.heard("eos-1")["Ethernet3"].systemName != "mlx5-1" || len(c.cables()) != 4 {
		t.Errorf("after recabling: %v", c.cables())
	}
	for cb, want := range map[Cable]string{
		{"mlx5-9", "eth0", "eos-1", "Ethernet1"}:     `no device "mlx5-9"`,
		{"mlx5-1", "eth7", "eos-1", "Ethernet1"}:     `mlx5-1 has no port "eth7"`,
		{"eos-1", "Ethernet2", "eos-1", "Ethernet2"}: "both ends are the same port",
	} {
		if err := c.connect([]Cable{cb}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("connect(%v) = %v, want %q", cb, err, want)
		}
	}
	small := newCabling()
	small.add("eos-1", cabledDevice{platform: "eos", role: roleSwitch, ports: ethernetNames(1)})
	small.add("mlx5-1", cabledDevice{platform: "mlx5", role: roleHost, ports: []string{"eth0", "eth1"}})
	if got, want := small.defaultCables(), []Cable{{"mlx5-1", "eth0", "eos-1", "Ethernet1"}}; !slices.Equal(got, want) {
		t.Errorf("a switch with one port: cables %v, want %v (what does not fit is left out)", got, want)
	}
}
