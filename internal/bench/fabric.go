// Package bench measures the provider's plan time against the simulated fabric (internal/lab)
// with the real Terraform CLI: `make bench`. It compares the provider's defaults (per-process
// read snapshots) with per-resource reads and with the same number of terraform_data resources
// (Terraform's own cost, the floor), prints one table with the targets and writes a plot.
//
// This package holds the parts that need neither a lab nor Terraform (fabric sizes, the
// generated configurations, state subsets, statistics, the table, the plot, /proc parsing) and
// the runner; cmd/bench wires them to a running lab.
package bench

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Size is a fabric preset of `make bench BENCH_SIZE=...`.
type Size struct {
	Name     string
	Switches int // sonic switches
	Ports    int // ports per switch
	Hosts    int // mlx5 hosts
	NICs     int // netdevs per host
	// Variants are the variants measured by default (BENCH_VARIANTS overrides them).
	Variants []Variant
}

// Sizes are the presets, smallest first. xl (64 leaves x 64 ports, 512 hosts x 8 NICs, the
// scale of issue 22) runs the grouped variants only, the shape such a fabric is written in:
// per interface it would be 12,352 resources, and the map-keyed shape repeats the settings
// per port (BENCH_VARIANTS=a,c,d or e,f,g runs them anyway).
var Sizes = []Size{
	{Name: "small", Switches: 2, Ports: 8, Hosts: 4, NICs: 2, Variants: AllVariants},
	{Name: "default", Switches: 8, Ports: 32, Hosts: 32, NICs: 2, Variants: AllVariants},
	{Name: "large", Switches: 32, Ports: 32, Hosts: 128, NICs: 2, Variants: AllVariants},
	{Name: "xl", Switches: 64, Ports: 64, Hosts: 512, NICs: 8, Variants: GroupedVariants},
}

// LookupSize returns the preset with that name.
func LookupSize(name string) (Size, error) {
	for _, s := range Sizes {
		if s.Name == name {
			return s, nil
		}
	}
	names := make([]string, len(Sizes))
	for i, s := range Sizes {
		names[i] = s.Name
	}
	return Size{}, fmt.Errorf("unknown BENCH_SIZE %q (want %s)", name, strings.Join(names, ", "))
}

// Devices is the number of lab devices of the size.
func (s Size) Devices() int { return s.Switches + s.Hosts }

// Resources is the number of resources a fabric of this size is configured with in a shape:
// per interface, per switch one roce_qos_policy and one roce_pfc_interface per port and per
// host NIC one roce_nic_qos and one roce_dcqcn_profile; map-keyed (grouped), per switch one
// roce_qos_policy and one roce_pfc_interfaces (roce_pfc_interface_group) and per host one
// roce_nic_qos_interfaces and one roce_dcqcn_interfaces (roce_nic_qos_group, roce_dcqcn_group).
func (s Size) Resources(shape Shape) int {
	if shape.perDevice() {
		return 2*s.Switches + 2*s.Hosts
	}
	return s.Switches*(1+s.Ports) + s.Hosts*s.NICs*2
}

// Switch is a sonic switch and the ports the bench configures on it.
type Switch struct {
	Name  string
	Ports []string
}

// Host is an mlx5 host and its NICs.
type Host struct {
	Name string
	NICs []string
}

// Fabric is the set of devices one configuration covers.
type Fabric struct {
	Switches []Switch
	Hosts    []Host
}

// Resources counts the resources the configuration of f declares in a shape (Size.Resources).
func (f Fabric) Resources(shape Shape) int {
	if shape.perDevice() {
		return 2*len(f.Switches) + 2*len(f.Hosts)
	}
	n := 0
	for _, s := range f.Switches {
		n += 1 + len(s.Ports)
	}
	for _, h := range f.Hosts {
		n += 2 * len(h.NICs)
	}
	return n
}

// Devices returns every device name of f, switches first.
func (f Fabric) Devices() []string {
	out := make([]string, 0, len(f.Switches)+len(f.Hosts))
	for _, s := range f.Switches {
		out = append(out, s.Name)
	}
	for _, h := range f.Hosts {
		out = append(out, h.Name)
	}
	return out
}

// Ports returns every switch port as "switch/port", in fabric order.
func (f Fabric) Ports() []string {
	var out []string
	for _, s := range f.Switches {
		for _, p := range s.Ports {
			out = append(out, s.Name+"/"+p)
		}
	}
	return out
}

// Subset keeps the first num/den of the switches and of the hosts (at least one of each that f
// has), with all their ports and NICs.
func (f Fabric) Subset(num, den int) Fabric {
	part := func(n int) int {
		if n == 0 {
			return 0
		}
		return min(n, max(1, n*num/den))
	}
	return Fabric{
		Switches: slices.Clone(f.Switches[:part(len(f.Switches))]),
		Hosts:    slices.Clone(f.Hosts[:part(len(f.Hosts))]),
	}
}

// Keys returns the for_each keys of every resource instance of f's configuration in a shape:
// per interface switch names (the policies), "switch/port" and "host/nic"; map-keyed and
// grouped, switch names (the policies and the PFC maps or groups) and host names (the NICs').
func (f Fabric) Keys(shape Shape) map[string]bool {
	keys := map[string]bool{}
	for _, s := range f.Switches {
		keys[s.Name] = true
		if shape == PerInterface {
			for _, p := range s.Ports {
				keys[s.Name+"/"+p] = true
			}
		}
	}
	for _, h := range f.Hosts {
		if shape.perDevice() {
			keys[h.Name] = true
			continue
		}
		for _, n := range h.NICs {
			keys[h.Name+"/"+n] = true
		}
	}
	return keys
}

// Inventory is what the bench needs of the lab's inventory.json.
type Inventory struct {
	Devices    map[string]InventoryDevice `json:"devices"`
	Interfaces map[string][]string        `json:"interfaces"`
}

// InventoryDevice is one device of inventory.json.
type InventoryDevice struct {
	Address       string `json:"address"`
	Platform      string `json:"platform"`
	Username      string `json:"username"`
	Password      string `json:"password"`
	CACertificate string `json:"ca_certificate"`
	HostKey       string `json:"host_key"`
}

// ParseInventory decodes inventory.json.
func ParseInventory(raw []byte) (Inventory, error) {
	var inv Inventory
	if err := json.Unmarshal(raw, &inv); err != nil {
		return Inventory{}, fmt.Errorf("inventory: %w", err)
	}
	return inv, nil
}

// Platform returns the platform of a device, "" if it is not in the inventory.
func (inv Inventory) Platform(device string) string { return inv.Devices[device].Platform }

// Fabric builds the fabric of every sonic switch and mlx5 host in the inventory, in natural
// order of their names (sonic-2 before sonic-10), with all their interfaces.
func (inv Inventory) Fabric() (Fabric, error) {
	var f Fabric
	for _, name := range NaturalSort(mapsKeys(inv.Devices)) {
		ifaces := slices.Clone(inv.Interfaces[name])
		switch inv.Devices[name].Platform {
		case "sonic":
			f.Switches = append(f.Switches, Switch{Name: name, Ports: ifaces})
		case "mlx5":
			f.Hosts = append(f.Hosts, Host{Name: name, NICs: ifaces})
		default:
			return Fabric{}, fmt.Errorf("device %s: platform %q is not benchmarked (want sonic or mlx5)",
				name, inv.Devices[name].Platform)
		}
	}
	return f, nil
}

func mapsKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// NaturalSort sorts names such as "sonic-10" after "sonic-2": by the text before the last "-",
// then by the number after it.
func NaturalSort(names []string) []string {
	split := func(s string) (string, int) {
		i := strings.LastIndexByte(s, '-')
		if i < 0 {
			return s, -1
		}
		n, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return s, -1
		}
		return s[:i], n
	}
	out := slices.Clone(names)
	slices.SortFunc(out, func(a, b string) int {
		pa, na := split(a)
		pb, nb := split(b)
		return cmp.Or(cmp.Compare(pa, pb), cmp.Compare(na, nb), cmp.Compare(a, b))
	})
	return out
}
