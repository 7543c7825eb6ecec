package fabric

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Neighbor is one LLDP neighbour a device reports on one of its interfaces: what the remote
// end advertises about itself (IEEE 802.1AB: chassis ID, port ID, system name, port
// description). A field the neighbour does not advertise is "".
type Neighbor struct {
	Interface       string // the local interface the neighbour was heard on
	SystemName      string
	ChassisID       string
	PortID          string
	PortDescription string
}

// SortNeighbors orders neighbours by their local interface (ComparePorts), keeping the order a
// device reported for the neighbours heard on one interface.
func SortNeighbors(ns []Neighbor) {
	slices.SortStableFunc(ns, func(a, b Neighbor) int { return ComparePorts(a.Interface, b.Interface) })
}

// DeviceNeighbors is one device's LLDP read: the name the device gives itself (what its
// neighbours see as system name; a configured override stands in for it), its interfaces when
// known, and its neighbours.
type DeviceNeighbors struct {
	Device     string
	Hostname   string
	Interfaces []string
	Neighbors  []Neighbor
}

// Link is a cable between two devices of the provider's inventory. A link's ends are in a
// canonical order (A before B by device, then interface), so the same cable read from both
// ends is one link.
type Link struct {
	ADevice, AInterface, BDevice, BInterface string
}

// Unresolved is a neighbour that is not a device of the inventory (or whose port could not be
// told), with the reason.
type Unresolved struct {
	Device string
	Neighbor
	Reason string
}

// ResolveLinks turns the neighbours of several devices into links between them. A neighbour's
// system name is matched to a device by the hostname the device reports (case-insensitively;
// a fully qualified name also matches its first label, since LLDP agents differ in which they
// send); a name two devices report is ambiguous, and its neighbours are unresolved. The remote
// interface is the neighbour's port ID where that is one of the remote device's interfaces
// (switches send the interface name), else the interface the remote device itself reports
// hearing this one on (both ends agree), else the neighbour's port description where that is
// one of the remote device's interfaces (lldpd sends the interface name there when the port ID
// is a MAC address). Where the remote device's interfaces are not known, a port ID that is a
// name (not a MAC address, not a bare number) is taken, or with a MAC port ID the description.
// A port is in at most one link: neighbours that would put a port on two cables are unresolved.
// Links come sorted, each cable once; unresolved neighbours are sorted by device and interface.
func ResolveLinks(devs []DeviceNeighbors) ([]Link, []Unresolved) {
	byName := map[string][]int{}
	for i, d := range devs {
		for _, n := range hostKeys(d.Hostname) {
			if !slices.Contains(byName[n], i) {
				byName[n] = append(byName[n], i)
			}
		}
	}
	lookup := func(system string) (i int, ok bool, ambiguous []int) {
		for _, n := range hostKeys(system) {
			switch found := byName[n]; len(found) {
			case 0:
				continue
			case 1:
				return found[0], true, nil
			default:
				return 0, false, found
			}
		}
		return 0, false, nil
	}
	type claim struct {
		device string
		n      Neighbor
	}
	claims := map[Link][]claim{}
	var order []Link
	var unresolved []Unresolved
	for ai, a := range devs {
		for _, n := range a.Neighbors {
			bi, ok, ambiguous := lookup(n.SystemName)
			if !ok {
				reason := fmt.Sprintf("system name %q is not the hostname of any device read", n.SystemName)
				switch {
				case n.SystemName == "":
					reason = "the neighbour advertises no system name"
				case len(ambiguous) > 0:
					var names []string
					for _, i := range ambiguous {
						names = append(names, devs[i].Device)
					}
					reason = fmt.Sprintf("system name %q is the hostname of %s: set hostname on those devices", n.SystemName, joinAnd(names))
				}
				unresolved = append(unresolved, Unresolved{a.Device, n, reason})
				continue
			}
			b := devs[bi]
			port, ok := remotePort(n, ai, b, lookup)
			if !ok {
				unresolved = append(unresolved, Unresolved{a.Device, n, fmt.Sprintf(
					"it is device %s, but neither port ID %q nor port description %q is one of its interfaces", b.Device, n.PortID, n.PortDescription)})
				continue
			}
			l := canonicalLink(Link{a.Device, n.Interface, b.Device, port})
			if _, seen := claims[l]; !seen {
				order = append(order, l)
			}
			claims[l] = append(claims[l], claim{a.Device, n})
		}
	}
	// A port on two cables: the neighbours behind them disagree (a description naming another
	// port, a hub); none of those links is trusted.
	ends := map[[2]string][]Link{}
	for _, l := range order {
		for _, e := range [][2]string{{l.ADevice, l.AInterface}, {l.BDevice, l.BInterface}} {
			ends[e] = append(ends[e], l)
		}
	}
	var links []Link
	for _, l := range order {
		var other []string
		for _, e := range [][2]string{{l.ADevice, l.AInterface}, {l.BDevice, l.BInterface}} {
			for _, o := range ends[e] {
				if o != l {
					other = append(other, o.Label())
				}
			}
		}
		if len(other) == 0 {
			links = append(links, l)
			continue
		}
		for _, c := range claims[l] {
			unresolved = append(unresolved, Unresolved{c.device, c.n, fmt.Sprintf(
				"it would make the link %s, but a port of it is also on %s: the neighbours disagree", l.Label(), joinAnd(other))})
		}
	}
	slices.SortFunc(links, compareLinks)
	slices.SortFunc(unresolved, func(x, y Unresolved) int {
		return cmp.Or(cmp.Compare(x.Device, y.Device), cmp.Compare(x.Interface, y.Interface), cmp.Compare(x.SystemName, y.SystemName),
			cmp.Compare(x.Reason, y.Reason))
	})
	return links, unresolved
}

// remotePort finds the interface of b that neighbour n (heard by device ai on n.Interface) is on.
func remotePort(n Neighbor, ai int, b DeviceNeighbors, lookup func(string) (int, bool, []int)) (string, bool) {
	if n.PortID != "" && slices.Contains(b.Interfaces, n.PortID) {
		return n.PortID, true
	}
	// b's own report of a: the neighbour on b's side whose system is a and whose port is n.Interface.
	for _, back := range b.Neighbors {
		if i, ok, _ := lookup(back.SystemName); ok && i == ai && (back.PortID == n.Interface || back.PortDescription == n.Interface) {
			return back.Interface, true
		}
	}
	if n.PortDescription != "" && slices.Contains(b.Interfaces, n.PortDescription) {
		return n.PortDescription, true
	}
	if len(b.Interfaces) == 0 {
		switch {
		case isName(n.PortID):
			return n.PortID, true
		case looksLikeMAC(n.PortID) && isName(n.PortDescription):
			return n.PortDescription, true
		}
	}
	return "", false
}

// isName reports whether s can be an interface name: not empty, not a MAC address, not a bare
// number (an ifIndex), without blanks.
func isName(s string) bool {
	if s == "" || looksLikeMAC(s) || strings.ContainsAny(s, " \t") {
		return false
	}
	return strings.TrimLeft(s, "0123456789") != ""
}

func canonicalLink(l Link) Link {
	if cmp.Or(cmp.Compare(l.ADevice, l.BDevice), cmp.Compare(l.AInterface, l.BInterface)) > 0 {
		return Link{l.BDevice, l.BInterface, l.ADevice, l.AInterface}
	}
	return l
}

func compareLinks(x, y Link) int {
	return cmp.Or(cmp.Compare(x.ADevice, y.ADevice), cmp.Compare(x.AInterface, y.AInterface),
		cmp.Compare(x.BDevice, y.BDevice), cmp.Compare(x.BInterface, y.BInterface))
}

// hostKeys are the names a hostname is matched by: itself and, if qualified, its first label,
// lower-cased.
func hostKeys(name string) []string {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" {
		return nil
	}
	if short, _, ok := strings.Cut(name, "."); ok && short != "" {
		return []string{name, short}
	}
	return []string{name}
}

// looksLikeMAC reports whether s is a MAC address in one of the forms LLDP agents print it
// (aa:bb:cc:dd:ee:ff, aabb.ccdd.eeff, aa-bb-cc-dd-ee-ff).
func looksLikeMAC(s string) bool {
	hex := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9', r >= 'a' && r <= 'f', r >= 'A' && r <= 'F':
			hex++
		case r == ':' || r == '.' || r == '-':
		default:
			return false
		}
	}
	return hex == 12
}

// Label is a link as findings name it: "leaf-1 Ethernet1 <-> gpu-1 eth0".
func (l Link) Label() string {
	return fmt.Sprintf("%s %s <-> %s %s", l.ADevice, l.AInterface, l.BDevice, l.BInterface)
}
