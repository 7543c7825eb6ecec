package bench

import (
	"slices"
	"strings"
	"testing"
)

func TestSizes(t *testing.T) {
	// per interface: switches x (1 + ports) + hosts x NICs x 2; map-keyed: 2 x (switches + hosts)
	want := map[string][2]int{"small": {34, 12}, "default": {392, 80}, "large": {1568, 320}, "xl": {12352, 1152}}
	for name, n := range want {
		s, err := LookupSize(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := [2]int{s.Resources(PerInterface), s.Resources(MapKeyed)}; got != n {
			t.Errorf("%s: %v resources (per-interface, map-keyed), want %v", name, got, n)
		}
	}
	xl, _ := LookupSize("xl")
	if xl.Devices() != 576 || xl.NICs != 8 || !slices.Equal(xl.Variants, []Variant{Group, GroupNoop, GroupFloor}) {
		t.Errorf("xl: %d devices, %d NICs per host, variants %v; want 576, 8, the grouped ones", xl.Devices(), xl.NICs, xl.Variants)
	}
	// grouped, as map-keyed: a resource of each kind per device
	if got := xl.Resources(Grouped); got != 1152 {
		t.Errorf("xl grouped: %d resources, want 1152", got)
	}
	if def, _ := LookupSize("default"); !slices.Equal(def.Variants, AllVariants) {
		t.Errorf("default runs %v, want every variant", def.Variants)
	}
	if _, err := LookupSize("huge"); err == nil || !strings.Contains(err.Error(), "small, default, large, xl") {
		t.Errorf("LookupSize(huge) = %v, want an error listing the sizes", err)
	}
}

func TestNaturalSort(t *testing.T) {
	got := NaturalSort([]string{"sonic-10", "mlx5-2", "sonic-2", "sonic-1", "mlx5-10", "mlx5-1", "x"})
	want := []string{"mlx5-1", "mlx5-2", "mlx5-10", "sonic-1", "sonic-2", "sonic-10", "x"}
	if !slices.Equal(got, want) {
		t.Errorf("NaturalSort = %v, want %v", got, want)
	}
}

const testInventory = `{
  "devices": {
    "sonic-1": {"address": "127.0.0.1:1", "platform": "sonic", "username": "admin", "password": "p", "ca_certificate": "CA"},
    "sonic-2": {"address": "127.0.0.1:2", "platform": "sonic", "username": "admin", "password": "p", "ca_certificate": "CA"},
    "sonic-10": {"address": "127.0.0.1:10", "platform": "sonic", "username": "admin", "password": "p", "ca_certificate": "CA"},
    "mlx5-1": {"address": "127.0.0.1:3", "platform": "mlx5", "username": "admin", "password": "p", "host_key": "k", "sudo": true},
    "mlx5-2": {"address": "127.0.0.1:4", "platform": "mlx5", "username": "admin", "password": "p", "host_key": "k", "sudo": true}
  },
  "interfaces": {
    "sonic-1": ["Ethernet0", "Ethernet4"],
    "sonic-2": ["Ethernet0", "Ethernet4"],
    "sonic-10": ["Ethernet0", "Ethernet4"],
    "mlx5-1": ["eth0", "eth1"],
    "mlx5-2": ["eth0", "eth1"]
  }
}`

func testFabric(t *testing.T) (Inventory, Fabric) {
	t.Helper()
	inv, err := ParseInventory([]byte(testInventory))
	if err != nil {
		t.Fatal(err)
	}
	f, err := inv.Fabric()
	if err != nil {
		t.Fatal(err)
	}
	return inv, f
}

func TestInventoryFabric(t *testing.T) {
	inv, f := testFabric(t)
	if got, want := f.Devices(), []string{"sonic-1", "sonic-2", "sonic-10", "mlx5-1", "mlx5-2"}; !slices.Equal(got, want) {
		t.Errorf("devices %v, want %v", got, want)
	}
	if got := f.Resources(PerInterface); got != 3*3+2*2*2 {
		t.Errorf("resources %d, want 17", got)
	}
	if got := f.Resources(MapKeyed); got != 3*2+2*2 {
		t.Errorf("map-keyed resources %d, want 10", got)
	}
	if got := f.Ports(); len(got) != 6 || got[0] != "sonic-1/Ethernet0" || got[5] != "sonic-10/Ethernet4" {
		t.Errorf("ports %v", got)
	}
	if inv.Platform("mlx5-2") != "mlx5" || inv.Platform("nope") != "" {
		t.Error("Platform")
	}
	bad := Inventory{Devices: map[string]InventoryDevice{"eos-1": {Platform: "eos"}}}
	if _, err := bad.Fabric(); err == nil || !strings.Contains(err.Error(), "eos-1") {
		t.Errorf("an eos device: %v, want an error naming it", err)
	}
	if _, err := ParseInventory([]byte("{")); err == nil {
		t.Error("ParseInventory accepted broken JSON")
	}
}

func TestSubsetAndKeys(t *testing.T) {
	_, f := testFabric(t)
	quarter := f.Subset(1, 4)
	if got := quarter.Devices(); !slices.Equal(got, []string{"sonic-1", "mlx5-1"}) {
		t.Errorf("1/4: %v, want one switch and one host at least", got)
	}
	half := f.Subset(1, 2)
	if got := half.Devices(); !slices.Equal(got, []string{"sonic-1", "mlx5-1"}) {
		t.Errorf("1/2: %v", got)
	}
	if got := f.Subset(1, 1).Resources(PerInterface); got != f.Resources(PerInterface) {
		t.Errorf("1/1: %d resources, want %d", got, f.Resources(PerInterface))
	}
	keys := quarter.Keys(PerInterface)
	for _, k := range []string{"sonic-1", "sonic-1/Ethernet0", "sonic-1/Ethernet4", "mlx5-1/eth0", "mlx5-1/eth1"} {
		if !keys[k] {
			t.Errorf("key %s missing", k)
		}
	}
	if len(keys) != 5 {
		t.Errorf("%d keys, want 5: %v", len(keys), keys)
	}
	// Map-keyed, an instance per device: the policy and the PFC map under the switch's name,
	// the two NIC maps under the host's.
	if got := f.Keys(MapKeyed); len(got) != 5 || !got["sonic-10"] || !got["mlx5-2"] || got["mlx5-2/eth0"] || got["sonic-1/Ethernet0"] {
		t.Errorf("map-keyed keys %v, want the 5 device names", got)
	}
	// A subset must not share its slices with the fabric it came from.
	quarter.Switches[0].Name = "changed"
	if f.Switches[0].Name != "sonic-1" {
		t.Error("Subset aliases the fabric")
	}
	big := Fabric{Switches: make([]Switch, 8), Hosts: make([]Host, 32)}
	if s := big.Subset(1, 4); len(s.Switches) != 2 || len(s.Hosts) != 8 {
		t.Errorf("1/4 of 8x32: %d switches, %d hosts", len(s.Switches), len(s.Hosts))
	}
	if s := (Fabric{Hosts: make([]Host, 4)}).Subset(1, 2); len(s.Switches) != 0 || len(s.Hosts) != 2 {
		t.Errorf("no switches: %d switches, %d hosts", len(s.Switches), len(s.Hosts))
	}
}
