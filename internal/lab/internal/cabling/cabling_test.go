package cabling

import (
	"slices"
	"strings"
	"testing"
)

func testCabling() *Panel {
	c := NewPanel()
	c.Add("eos-1", Device{Platform: "eos", Role: Switch, Ports: []string{"Ethernet1", "Ethernet2", "Ethernet3", "Ethernet4"}})
	c.Add("nxos-1", Device{Platform: "nxos", Role: Switch, Ports: []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4"}})
	c.Add("mlx5-1", Device{Platform: "mlx5", Role: Host, Ports: []string{"eth0", "eth1"}})
	c.Add("mlx5-2", Device{Platform: "mlx5", Role: Host, Ports: []string{"eth0"}})
	return c
}

func TestDefaultCabling(t *testing.T) {
	c := testCabling()
	cables := c.DefaultCables()
	want := []Cable{
		{"eos-1", "Ethernet4", "nxos-1", "Ethernet1/4"}, // the switches' uplink, from their last ports
		{"mlx5-1", "eth0", "eos-1", "Ethernet1"},        // host 1's NICs on both switches
		{"mlx5-1", "eth1", "nxos-1", "Ethernet1/1"},
		{"mlx5-2", "eth0", "nxos-1", "Ethernet1/2"}, // host 2 starts on the next switch
	}
	if !slices.Equal(cables, want) {
		t.Errorf("default cables\n%v\nwant\n%v", cables, want)
	}
	if err := c.Connect(cables); err != nil {
		t.Fatal(err)
	}
	// What each end hears is its peer as the peer's platform advertises itself.
	eos := c.Heard("eos-1")
	if ad := eos["Ethernet1"]; ad.SystemName != "mlx5-1" || ad.PortIDType != "mac" || ad.PortDescr != "eth0" || ad.PortID != MACColons(MAC("mlx5-1", 1)) {
		t.Errorf("eos-1 Ethernet1 hears %+v, want lldpd on mlx5-1: MAC port ID, eth0 as description", ad)
	}
	if ad := eos["Ethernet4"]; ad.SystemName != "nxos-1" || ad.PortID != "Ethernet1/4" || ad.PortIDType != "ifname" {
		t.Errorf("eos-1 Ethernet4 hears %+v, want nxos-1 Ethernet1/4", ad)
	}
	if ad := c.Heard("mlx5-1")["eth1"]; ad.SystemName != "nxos-1" || ad.PortID != "Ethernet1/1" || ad.PortDescr != "Ethernet1/1" {
		t.Errorf("mlx5-1 eth1 hears %+v", ad)
	}
}

func TestRecableAndErrors(t *testing.T) {
	c := testCabling()
	cables := c.DefaultCables()
	if err := c.Connect(cables); err != nil {
		t.Fatal(err)
	}
	// Move mlx5-1 eth0 from eos-1 Ethernet1 to eos-1 Ethernet3: Ethernet1 hears nothing now.
	if err := c.Connect([]Cable{{"mlx5-1", "eth0", "eos-1", "Ethernet3"}}); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Heard("eos-1")["Ethernet1"]; ok {
		t.Error("the old port still hears the moved NIC")
	}
	if c.Heard("eos-1")["Ethernet3"].SystemName != "mlx5-1" || len(c.Cables()) != 4 {
		t.Errorf("after recabling: %v", c.Cables())
	}
	for cb, want := range map[Cable]string{
		{"mlx5-9", "eth0", "eos-1", "Ethernet1"}:     `no device "mlx5-9"`,
		{"mlx5-1", "eth7", "eos-1", "Ethernet1"}:     `mlx5-1 has no port "eth7"`,
		{"eos-1", "Ethernet2", "eos-1", "Ethernet2"}: "both ends are the same port",
	} {
		if err := c.Connect([]Cable{cb}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("connect(%v) = %v, want %q", cb, err, want)
		}
	}
	small := NewPanel()
	small.Add("eos-1", Device{Platform: "eos", Role: Switch, Ports: []string{"Ethernet1"}})
	small.Add("mlx5-1", Device{Platform: "mlx5", Role: Host, Ports: []string{"eth0", "eth1"}})
	if got, want := small.DefaultCables(), []Cable{{"mlx5-1", "eth0", "eos-1", "Ethernet1"}}; !slices.Equal(got, want) {
		t.Errorf("a switch with one port: cables %v, want %v (what does not fit is left out)", got, want)
	}
}
