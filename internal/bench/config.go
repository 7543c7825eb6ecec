package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Variant is one of the compared configurations: a provider (roce, the no-op floor or
// Terraform's builtin terraform_data) and a shape of configuration.
type Variant string

const (
	// Defaults is the provider as shipped: per-process read snapshots.
	Defaults Variant = "a"
	// PerResource sets per_resource_reads = true: one read per resource (the baseline).
	PerResource Variant = "b"
	// Floor is the same number of terraform_data resources: Terraform's own cost.
	Floor Variant = "c"
	// Noop is the same configuration as Defaults served by a no-op framework provider with
	// roce's schemas (internal/bench/noop): the floor of any plugin provider.
	Noop Variant = "d"
	// Map is the provider as shipped with the map-keyed resources: one roce_pfc_interfaces
	// per switch and one roce_nic_qos_interfaces and roce_dcqcn_interfaces per host, each with
	// an `interfaces` map keyed by port, instead of a resource per port.
	Map Variant = "e"
	// MapNoop is Map's configuration served by the no-op provider: (d) for the map-keyed shape.
	MapNoop Variant = "f"
	// MapFloor is as many terraform_data resources as Map has, each holding its map: (c) for
	// the map-keyed shape.
	MapFloor Variant = "g"
	// Group is the provider as shipped with the group resources: one roce_pfc_interface_group
	// per switch and one roce_nic_qos_group and roce_dcqcn_group per host, each with its
	// device's ports (NICs) as a set and the settings once.
	Group Variant = "h"
	// GroupNoop is Group's configuration served by the no-op provider: (d) for the grouped shape.
	GroupNoop Variant = "i"
	// GroupFloor is as many terraform_data resources as Group has, each holding its device's
	// interfaces and the settings once: (c) for the grouped shape.
	GroupFloor Variant = "j"
)

// Shape is how a configuration describes ports and NICs.
type Shape string

// The shapes.
const (
	// PerInterface is a resource per switch port and per host NIC (roce_pfc_interface,
	// roce_nic_qos, roce_dcqcn_profile).
	PerInterface Shape = "per-interface"
	// MapKeyed is a resource per device with a map of its ports or NICs (roce_pfc_interfaces,
	// roce_nic_qos_interfaces, roce_dcqcn_interfaces).
	MapKeyed Shape = "map-keyed"
	// Grouped is a resource per device with its ports or NICs as a set and one copy of the
	// settings (roce_pfc_interface_group, roce_nic_qos_group, roce_dcqcn_group).
	Grouped Shape = "grouped"
)

// perDevice reports a shape with one resource of each kind per device (not per interface).
func (s Shape) perDevice() bool { return s != PerInterface }

// server is what serves a variant's configuration.
type server int

const (
	roceServer  server = iota // the provider built from this tree
	noopServer                // the no-op framework provider with its schemas
	floorServer               // terraform_data, inside Terraform
)

// variantInfo is what the bench knows of a variant.
type variantInfo struct {
	label  string
	shape  Shape
	server server
}

var variantInfos = map[Variant]variantInfo{
	Defaults:    {"(a) defaults", PerInterface, roceServer},
	PerResource: {"(b) per-resource reads", PerInterface, roceServer},
	Floor:       {"(c) terraform_data floor", PerInterface, floorServer},
	Noop:        {"(d) no-op framework provider", PerInterface, noopServer},
	Map:         {"(e) map-keyed", MapKeyed, roceServer},
	MapNoop:     {"(f) no-op provider, map-keyed", MapKeyed, noopServer},
	MapFloor:    {"(g) terraform_data floor, map-keyed", MapKeyed, floorServer},
	Group:       {"(h) grouped", Grouped, roceServer},
	GroupNoop:   {"(i) no-op provider, grouped", Grouped, noopServer},
	GroupFloor:  {"(j) terraform_data floor, grouped", Grouped, floorServer},
}

// The variants of each shape, in table order.
var (
	PerInterfaceVariants = []Variant{Defaults, PerResource, Floor, Noop}
	MapKeyedVariants     = []Variant{Map, MapNoop, MapFloor}
	GroupedVariants      = []Variant{Group, GroupNoop, GroupFloor}
	AllVariants          = []Variant{Defaults, PerResource, Floor, Noop, Map, MapNoop, MapFloor, Group, GroupNoop, GroupFloor}
)

// Variants in table order.
var Variants = AllVariants

// Label names a variant in the table and the plot.
func (v Variant) Label() string {
	if i, ok := variantInfos[v]; ok {
		return i.label
	}
	return string(v)
}

// Shape is the shape of the variant's configuration.
func (v Variant) Shape() Shape { return variantInfos[v].shape }

// IsFloor reports a terraform_data variant (no provider at all).
func (v Variant) IsFloor() bool { return variantInfos[v].server == floorServer }

// IsNoop reports a variant served by the no-op provider.
func (v Variant) IsNoop() bool { return variantInfos[v].server == noopServer }

// FloorOf is the terraform_data floor of the variant's shape.
func (v Variant) FloorOf() Variant { return v.Shape().variant(floorServer) }

// NoopOf is the no-op provider variant of the variant's shape.
func (v Variant) NoopOf() Variant { return v.Shape().variant(noopServer) }

// variant is the shape's variant served by s.
func (s Shape) variant(by server) Variant {
	for _, v := range AllVariants {
		if i := variantInfos[v]; i.shape == s && i.server == by {
			return v
		}
	}
	return ""
}

// ParseVariants reads a BENCH_VARIANTS list such as "a,b,c,d" or "h,i,j" and returns it in
// table order.
func ParseVariants(list string) ([]Variant, error) {
	want := map[Variant]bool{}
	for _, f := range strings.Split(list, ",") {
		v := Variant(strings.TrimSpace(f))
		if !slices.Contains(AllVariants, v) {
			return nil, fmt.Errorf("unknown variant %q in %q (want letters a to j, comma-separated)", v, list)
		}
		want[v] = true
	}
	var out []Variant
	for _, v := range AllVariants {
		if want[v] {
			out = append(out, v)
		}
	}
	return out, nil
}

// MapResourceTypes are the resource types only the map-keyed configuration uses: a provider
// without them cannot run (e), nor the no-op provider built from it (f).
var MapResourceTypes = []string{"roce_pfc_interfaces", "roce_nic_qos_interfaces", "roce_dcqcn_interfaces"}

// GroupResourceTypes are the resource types only the grouped configuration uses ((h), (i)).
var GroupResourceTypes = []string{"roce_pfc_interface_group", "roce_nic_qos_group", "roce_dcqcn_group"}

// shapeTypes are the resource types a shape needs beyond the per-interface ones.
var shapeTypes = map[Shape][]string{MapKeyed: MapResourceTypes, Grouped: GroupResourceTypes}

// Config writes the Terraform configuration of variant v for fabric f. inventory is the
// absolute path of the lab's inventory.json; the provider's devices are the fabric's devices
// from it. The variants of a shape declare the same resource instances under the same
// for_each keys and the same dependencies (PFC after the switch policies), so their states can
// be cut down to a subset fabric alike (SubsetState); the map-keyed configuration sets on
// every port and NIC exactly what the per-interface one sets on its resource.
func Config(f Fabric, v Variant, inventory string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Generated by internal/bench (make bench): variant %s, %d resources.\n\n", v.Label(), f.Resources(v.Shape()))
	if !v.IsFloor() {
		b.WriteString(providerBlock(v, inventory))
	}
	b.WriteString(localsBlock(f, v.Shape()))
	switch {
	case v == Floor:
		b.WriteString(floorResources)
	case v == MapFloor:
		b.WriteString(mapFloorResources)
	case v == GroupFloor:
		b.WriteString(groupFloorResources)
	case v.Shape() == MapKeyed:
		b.WriteString(qosPolicyResource + mapResources)
	case v.Shape() == Grouped:
		b.WriteString(qosPolicyResource + groupResources)
	default:
		b.WriteString(qosPolicyResource + roceResources)
	}
	return b.String()
}

func providerBlock(v Variant, inventory string) string {
	var b strings.Builder
	b.WriteString(`terraform {
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

provider "roce" {
  # The fabric's devices from the lab's inventory (it lists every device of the lab).
  devices = { for name, d in jsondecode(file(` + strconv.Quote(inventory) + `)).devices : name => d if contains(local.devices, name) }
`)
	if v == PerResource {
		b.WriteString("  per_resource_reads = true\n")
	}
	b.WriteString("}\n\n")
	return b.String()
}

func localsBlock(f Fabric, shape Shape) string {
	var b strings.Builder
	b.WriteString("locals {\n  devices = ")
	b.WriteString(hclList(f.Devices()))
	b.WriteString("\n\n  # switch -> its ports\n  switches = {\n")
	for _, s := range f.Switches {
		fmt.Fprintf(&b, "    %s = %s\n", strconv.Quote(s.Name), hclList(s.Ports))
	}
	if shape.perDevice() {
		b.WriteString("  }\n\n  # host -> its NICs\n  hosts = {\n")
		for _, h := range f.Hosts {
			fmt.Fprintf(&b, "    %s = %s\n", strconv.Quote(h.Name), hclList(h.NICs))
		}
		b.WriteString("  }\n}\n\n")
		return b.String()
	}
	b.WriteString("  }\n\n  ports = {\n")
	for _, s := range f.Switches {
		for _, p := range s.Ports {
			fmt.Fprintf(&b, "    %s = { device = %s, interface = %s }\n",
				strconv.Quote(s.Name+"/"+p), strconv.Quote(s.Name), strconv.Quote(p))
		}
	}
	b.WriteString("  }\n\n  nics = {\n")
	for _, h := range f.Hosts {
		for _, n := range h.NICs {
			fmt.Fprintf(&b, "    %s = { device = %s, interface = %s }\n",
				strconv.Quote(h.Name+"/"+n), strconv.Quote(h.Name), strconv.Quote(n))
		}
	}
	b.WriteString("  }\n}\n\n")
	return b.String()
}

// hclList is an HCL list of quoted strings: ["a", "b"].
func hclList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// qosPolicyResource: the quickstart's SONiC policy (lossless roce TC 3 on DSCP 26 with ECN, cnp
// strict TC 6 on DSCP 48, default TC 0) on all ports of each switch, in both shapes.
const qosPolicyResource = `resource "roce_qos_policy" "leaf" {
  for_each = local.switches
  device   = each.key
  classes = {
    roce = {
      traffic_class     = 3
      dscp              = [26]
      bandwidth_percent = 50
      lossless          = true
      ecn = {
        min_threshold_bytes = 153600
        max_threshold_bytes = 1536000
      }
    }
    cnp     = { traffic_class = 6, dscp = [48], strict_priority = true }
    default = { traffic_class = 0, dscp = [0], bandwidth_percent = 50 }
  }
  interfaces = each.value
}

`

// nicQoSAttrs are the quickstart's NIC QoS settings: a roce_nic_qos's, and each NIC's in a
// roce_nic_qos_interfaces map (indent places them). One text, so the two shapes the benchmark
// compares configure the same.
const nicQoSAttrs = `trust            = "dscp"
pfc_priorities   = [3]
dscp_to_priority = { "26" = 3, "48" = 6 }
priority_to_tc   = { "3" = 3, "6" = 6 }
ets = {
  "0" = { bandwidth_percent = 50 }
  "3" = { bandwidth_percent = 50 }
  "6" = { strict_priority = true }
}
roce_tos = 106
`

// dcqcnAttrs are the quickstart's DCQCN settings: a roce_dcqcn_profile's, each NIC's in a
// roce_dcqcn_interfaces map and a roce_dcqcn_group's (indent places them), one text as
// nicQoSAttrs is.
const dcqcnAttrs = `priorities   = [3]
cnp_dscp     = 48
cnp_priority = 6
`

// indent puts prefix before each non-empty line of text.
func indent(text, prefix string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "")
}

// hostMap is a map resource of type typ per host whose every NIC has attrs.
func hostMap(typ, attrs string) string {
	return `resource "` + typ + `" "host" {
  for_each = local.hosts
  device   = each.key
  interfaces = {
    for nic in each.value : nic => {
` + indent(attrs, "      ") + `    }
  }
}
`
}

// roceResources: PFC with a drop watchdog on every port, and the quickstart's NIC QoS and
// DCQCN on every host NIC, a resource each.
var roceResources = `resource "roce_pfc_interface" "port" {
  for_each  = local.ports
  device    = each.value.device
  interface = each.value.interface
  watchdog  = { action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }

  depends_on = [roce_qos_policy.leaf]
}

resource "roce_nic_qos" "nic" {
  for_each         = local.nics
  device           = each.value.device
  interface        = each.value.interface
` + indent(nicQoSAttrs, "  ") + `}

resource "roce_dcqcn_profile" "nic" {
  for_each     = local.nics
  device       = each.value.device
  interface    = each.value.interface
` + indent(dcqcnAttrs, "  ") + `}
`

// mapResources: roceResources with a resource per device, whose `interfaces` map gives every
// port or NIC of the device the attributes the per-interface resource sets (those of
// roce_pfc_interface, roce_nic_qos and roce_dcqcn_profile, minus id, device and interface).
var mapResources = `resource "roce_pfc_interfaces" "leaf" {
  for_each = local.switches
  device   = each.key
  interfaces = {
    for port in each.value : port => {
      watchdog = { action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }
    }
  }

  depends_on = [roce_qos_policy.leaf]
}

` + hostMap("roce_nic_qos_interfaces", nicQoSAttrs) + "\n" + hostMap("roce_dcqcn_interfaces", dcqcnAttrs)

// groupResources: mapResources with one copy of the settings per device: its ports or NICs
// as a set, the arguments every entry of the map held once (those of roce_pfc_interface,
// roce_nic_qos and roce_dcqcn_profile, minus id, device and interface).
var groupResources = `resource "roce_pfc_interface_group" "leaf" {
  for_each   = local.switches
  device     = each.key
  interfaces = each.value
  watchdog   = { action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }

  depends_on = [roce_qos_policy.leaf]
}

resource "roce_nic_qos_group" "host" {
  for_each   = local.hosts
  device     = each.key
  interfaces = each.value
` + indent(nicQoSAttrs, "  ") + `}

resource "roce_dcqcn_group" "host" {
  for_each     = local.hosts
  device       = each.key
  interfaces   = each.value
` + indent(dcqcnAttrs, "  ") + `}
`

// floorResources: the same instances as terraform_data (the builtin provider), each holding a
// small object.
const floorResources = `resource "terraform_data" "leaf" {
  for_each = local.switches
  input    = { device = each.key, interfaces = each.value, traffic_class = 3, dscp = [26] }
}

resource "terraform_data" "port" {
  for_each = local.ports
  input    = merge(each.value, { detection_time_ms = 200, restoration_time_ms = 400 })

  depends_on = [terraform_data.leaf]
}

resource "terraform_data" "nic" {
  for_each = local.nics
  input    = merge(each.value, { pfc_priorities = [3], roce_tos = 106 })
}

resource "terraform_data" "dcqcn" {
  for_each = local.nics
  input    = merge(each.value, { priorities = [3], cnp_dscp = 48, cnp_priority = 6 })
}
`

// mapFloorResources: the map-keyed instances as terraform_data, each holding its device's
// map of the per-port (per-NIC) objects floorResources holds one by one.
const mapFloorResources = `resource "terraform_data" "leaf" {
  for_each = local.switches
  input    = { device = each.key, interfaces = each.value, traffic_class = 3, dscp = [26] }
}

resource "terraform_data" "pfc" {
  for_each = local.switches
  input = {
    device     = each.key
    interfaces = { for port in each.value : port => { detection_time_ms = 200, restoration_time_ms = 400 } }
  }

  depends_on = [terraform_data.leaf]
}

resource "terraform_data" "nic" {
  for_each = local.hosts
  input = {
    device     = each.key
    interfaces = { for nic in each.value : nic => { pfc_priorities = [3], roce_tos = 106 } }
  }
}

resource "terraform_data" "dcqcn" {
  for_each = local.hosts
  input = {
    device     = each.key
    interfaces = { for nic in each.value : nic => { priorities = [3], cnp_dscp = 48, cnp_priority = 6 } }
  }
}
`

// groupFloorResources: the grouped instances as terraform_data, each holding its device's
// interfaces and one copy of the objects floorResources holds per port (per NIC).
const groupFloorResources = `resource "terraform_data" "leaf" {
  for_each = local.switches
  input    = { device = each.key, interfaces = each.value, traffic_class = 3, dscp = [26] }
}

resource "terraform_data" "pfc" {
  for_each = local.switches
  input    = { device = each.key, interfaces = each.value, detection_time_ms = 200, restoration_time_ms = 400 }

  depends_on = [terraform_data.leaf]
}

resource "terraform_data" "nic" {
  for_each = local.hosts
  input    = { device = each.key, interfaces = each.value, pfc_priorities = [3], roce_tos = 106 }
}

resource "terraform_data" "dcqcn" {
  for_each = local.hosts
  input    = { device = each.key, interfaces = each.value, priorities = [3], cnp_dscp = 48, cnp_priority = 6 }
}
`

// CLIConfig is the Terraform CLI configuration of every run: the provider built from source
// through dev_overrides (no terraform init), everything else as usual.
func CLIConfig(providerDir string) string {
	return `# Written by internal/bench: the provider just built, without terraform init.
disable_checkpoint = true
provider_installation {
  dev_overrides {
    "rocefabric/roce" = ` + strconv.Quote(providerDir) + `
  }
  direct {}
}
`
}

// Unservable says which of the variants a provider serving these resource types cannot run,
// and why: the map-keyed and grouped roce and no-op variants need their shape's resource
// types (the no-op provider serves the provider's own types); terraform_data is always there.
func Unservable(variants []Variant, served []string) map[Variant]string {
	out := map[Variant]string{}
	for _, v := range variants {
		var missing []string
		for _, t := range shapeTypes[v.Shape()] {
			if !slices.Contains(served, t) {
				missing = append(missing, t)
			}
		}
		if len(missing) > 0 && !v.IsFloor() {
			out[v] = "the provider has no " + strings.Join(missing, ", ") + " (the " + string(v.Shape()) + " resources of issue 22)"
		}
	}
	return out
}
