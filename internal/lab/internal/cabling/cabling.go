// Package cabling is the lab's patch panel: every host NIC is cabled to a switch port and the
// switches to each other, so each device answers its platform's LLDP read with the neighbour at
// the far end of each cable, as that neighbour's platform advertises itself (cabling.md in
// package lab says from where). Cabling is by device and port name; a lab device's system name
// is its device name.
package cabling

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"sync"
)

// Cable joins two device ports. The inventory lists the lab's cables as `links`.
type Cable struct {
	A     string `json:"a_device"`
	APort string `json:"a_interface"`
	B     string `json:"b_device"`
	BPort string `json:"b_interface"`
}

type cablePort struct{ device, port string }

// Role is what a device is on the patch panel: switches are cabled to each other, hosts
// to switches.
type Role string

// The roles.
const (
	Switch Role = "switch"
	Host   Role = "host"
)

// Device is what the cabling knows of a device: enough to advertise it.
type Device struct {
	Platform string
	Role     Role
	Ports    []string
}

// cabling is the lab's patch panel, shared by every device; Recable changes it while the lab
// runs (a mis-cabled NIC).
type Panel struct {
	mu    sync.RWMutex
	devs  map[string]Device
	peers map[cablePort]cablePort
}

func NewPanel() *Panel {
	return &Panel{devs: map[string]Device{}, peers: map[cablePort]cablePort{}}
}

func (c *Panel) Add(name string, d Device) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.devs[name] = d
}

// DefaultCables cables the lab deterministically: switch i's last free port to switch i+1's
// (a chain of uplinks), and host h's netdev j to the first free port of switch (h+j) mod the
// number of switches, so hosts with two NICs reach two switches (rail style) and hosts sit on
// every switch. A cable that finds no free port is left out: a small lab is cabled as far as
// its ports go.
func (c *Panel) DefaultCables() []Cable {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var switches, hosts []string
	for name, d := range c.devs {
		if d.Role == Switch {
			switches = append(switches, name)
		} else {
			hosts = append(hosts, name)
		}
	}
	slices.Sort(switches)
	slices.Sort(hosts)
	low, high := map[string]int{}, map[string]int{}
	for _, s := range switches {
		high[s] = len(c.devs[s].Ports) - 1
	}
	free := func(s string) bool { return low[s] <= high[s] }
	take := func(s string, top bool) string {
		if top {
			high[s]--
			return c.devs[s].Ports[high[s]+1]
		}
		low[s]++
		return c.devs[s].Ports[low[s]-1]
	}
	var out []Cable
	for i := 0; i+1 < len(switches); i++ {
		if a, b := switches[i], switches[i+1]; free(a) && free(b) {
			out = append(out, Cable{a, take(a, true), b, take(b, true)})
		}
	}
	if len(switches) == 0 {
		return out
	}
	for h, host := range hosts {
		for j, nic := range c.devs[host].Ports {
			if s := switches[(h+j)%len(switches)]; free(s) {
				out = append(out, Cable{host, nic, s, take(s, false)})
			}
		}
	}
	return out
}

// Connect plugs every cable in (replacing what its ports held), after checking them all.
func (c *Panel) Connect(cables []Cable) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	used := map[cablePort]bool{}
	for _, cb := range cables {
		if cb.A == cb.B && cb.APort == cb.BPort {
			return fmt.Errorf("cable %s %s: both ends are the same port", cb.A, cb.APort)
		}
		for _, e := range []cablePort{{cb.A, cb.APort}, {cb.B, cb.BPort}} {
			d, ok := c.devs[e.device]
			switch {
			case !ok:
				return fmt.Errorf("cable %s %s <-> %s %s: no device %q in the lab", cb.A, cb.APort, cb.B, cb.BPort, e.device)
			case !slices.Contains(d.Ports, e.port):
				return fmt.Errorf("cable %s %s <-> %s %s: %s has no port %q", cb.A, cb.APort, cb.B, cb.BPort, e.device, e.port)
			case used[e]:
				return fmt.Errorf("cable %s %s <-> %s %s: port %s %s is cabled twice", cb.A, cb.APort, cb.B, cb.BPort, e.device, e.port)
			}
			used[e] = true
		}
	}
	for _, cb := range cables {
		a, b := cablePort{cb.A, cb.APort}, cablePort{cb.B, cb.BPort}
		for _, e := range []cablePort{a, b} {
			if old, ok := c.peers[e]; ok {
				delete(c.peers, old)
				delete(c.peers, e)
			}
		}
		c.peers[a], c.peers[b] = b, a
	}
	return nil
}

// Cables lists the current cabling, each cable once, sorted.
func (c *Panel) Cables() []Cable {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []Cable
	for a, b := range c.peers {
		if cmp.Or(cmp.Compare(a.device, b.device), cmp.Compare(a.port, b.port)) < 0 {
			out = append(out, Cable{a.device, a.port, b.device, b.port})
		}
	}
	slices.SortFunc(out, func(x, y Cable) int {
		return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.APort, y.APort))
	})
	return out
}

// Ad is what an LLDP agent advertises on one port (IEEE 802.1AB TLVs), and how the
// receiving device prints it is the receiver's business.
type Ad struct {
	SystemName string
	ChassisMAC []byte // 6 bytes
	PortID     string // in the advertiser's form; a MAC when portIDType is "mac"
	PortIDType string // "ifname" (interface name), "local" or "mac", lldpd's names
	PortDescr  string
	PortMAC    []byte // the port's MAC, for portIDType "mac"
}

// Heard returns what device hears on each cabled port, by local port.
func (c *Panel) Heard(device string) map[string]Ad {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := map[string]Ad{}
	for local, far := range c.peers {
		if local.device == device {
			out[local.port] = c.advertise(far)
		}
	}
	return out
}

// advertise is what the device at e sends on that port, by its platform: switches send the
// interface name as port ID (EOS, NX-OS and lemming's OpenConfig switches) or the port alias
// (SONiC's lldpmgrd: "local" subtype with the port's alias, description the port name); lldpd
// on a host without interface aliases sends the port's MAC as port ID and the interface name as
// description. cabling.md in package lab cites each.
func (c *Panel) advertise(e cablePort) Ad {
	d := c.devs[e.device]
	idx := slices.Index(d.Ports, e.port)
	ad := Ad{SystemName: e.device, ChassisMAC: MAC(e.device, 0), PortID: e.port, PortIDType: "ifname"}
	switch d.Platform {
	case "nxos", "cumulus":
		ad.PortDescr = e.port
	case "sonic":
		ad.PortID, ad.PortIDType, ad.PortDescr = fmt.Sprintf("etp%d", idx+1), "local", e.port
	case "mlx5":
		ad.PortMAC = MAC(e.device, idx+1)
		ad.PortID, ad.PortIDType, ad.PortDescr = MACColons(ad.PortMAC), "mac", e.port
	}
	return ad
}

// MAC is a stable, locally administered MAC for a device (n 0: its chassis) or its port n.
func MAC(device string, n int) []byte {
	h := fnv.New32a()
	_, _ = h.Write([]byte(device))
	s := h.Sum32()
	return []byte{0x02, byte(s >> 24), byte(s >> 16), byte(s >> 8), byte(s), byte(n)}
}

// MACColons prints a MAC as Linux (lldpd, SONiC) does: 02:1a:2b:3c:4d:00.
func MACColons(m []byte) string {
	return fmt.Sprintf("%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5])
}

// MACDotted prints a MAC as EOS and NX-OS do: 021a.2b3c.4d00.
func MACDotted(m []byte) string {
	return fmt.Sprintf("%02x%02x.%02x%02x.%02x%02x", m[0], m[1], m[2], m[3], m[4], m[5])
}

// Hop is one switch on a path between two host ports: the port the traffic enters by and the
// one it leaves by.
type Hop struct{ Switch, In, Out string }

// Path is the shortest way from host port (fromDev, fromPort) to host port (toDev, toPort)
// over the cables, through switches only (a switch forwards between any two of its ports), as
// the switches it crosses in order; ok is false when the two ports are not connected. Two
// ports of one cable between hosts (back to back) give an empty path.
func (c *Panel) Path(fromDev, fromPort, toDev, toPort string) (hops []Hop, ok bool) {
	if c == nil {
		return nil, false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	start, goal := cablePort{fromDev, fromPort}, cablePort{toDev, toPort}
	first, cabled := c.peers[start]
	if !cabled {
		return nil, false
	}
	if first == goal {
		return nil, true
	}
	// Breadth first over ingress switch ports; prev leads back to the hop before.
	type step struct {
		in   cablePort
		prev *step
		out  string
	}
	seen := map[string]bool{}
	queue := []*step{{in: first}}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		sw, ok := c.devs[s.in.device]
		if !ok || sw.Role != Switch || seen[s.in.device] {
			continue
		}
		seen[s.in.device] = true
		for _, out := range sw.Ports {
			if out == s.in.port {
				continue
			}
			far, ok := c.peers[cablePort{s.in.device, out}]
			if !ok {
				continue
			}
			next := &step{in: far, prev: s, out: out}
			if far == goal {
				for t := next; t.prev != nil; t = t.prev {
					hops = append([]Hop{{Switch: t.prev.in.device, In: t.prev.in.port, Out: t.out}}, hops...)
				}
				return hops, true
			}
			queue = append(queue, next)
		}
	}
	return nil, false
}
