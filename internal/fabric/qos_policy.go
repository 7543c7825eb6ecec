// Package fabric holds the RoCE QoS intent in plain Go: what a user asked for, validated,
// independent of Terraform and of any device transport. Platforms translate it to device
// operations and parse device state back into it.
package fabric

import (
	"cmp"
	"maps"
	"slices"
)

// Trust says which packet field a switch or NIC classifies on.
type Trust string

const (
	TrustDSCP    Trust = "dscp"
	TrustPCP     Trust = "pcp"
	TrustDSCPPCP Trust = "dscp_pcp"
)

// DefaultPolicyName is the policy name used when the configuration leaves it out.
const DefaultPolicyName = "ROCE"

// QoSPolicy is a switch's RoCE QoS policy: classification, scheduling, ECN and lossless classes,
// bound to a set of ports.
type QoSPolicy struct {
	Name                string
	Trust               Trust
	DefaultTrafficClass int
	// Classes is keyed by class name.
	Classes    map[string]Class
	Interfaces []string
}

// Class is one traffic class of a policy.
type Class struct {
	TrafficClass int
	DSCP         []int // sorted, unique
	PCP          []int // sorted, unique; nil when unmanaged
	// Exactly one of BandwidthPercent (non-nil) and StrictPriority is set.
	BandwidthPercent *int
	StrictPriority   bool
	Lossless         bool
	MTU              *int // nil when unmanaged
	ECN              *ECN // nil when unmanaged
}

// ECN is WRED/ECN marking on a class's queue, thresholds in bytes.
type ECN struct {
	MinThresholdBytes      int64
	MaxThresholdBytes      int64
	MarkProbabilityPercent int
}

// Valid reports whether t is one of the trust modes of the contract.
func (t Trust) Valid() bool {
	switch t {
	case TrustDSCP, TrustPCP, TrustDSCPPCP:
		return true
	}
	return false
}

// Ptr returns a pointer to a copy of v, for optional fields such as BandwidthPercent and MTU.
func Ptr[T any](v T) *T { return &v }

// ClassNames returns the class names in sorted order, the order every check and translation
// walks classes in so results are deterministic.
func (p QoSPolicy) ClassNames() []string {
	return slices.Sorted(maps.Keys(p.Classes))
}

// Normalize puts p in canonical form: DSCP, PCP and Interfaces sorted and without duplicates
// (all three are sets). A nil PCP stays nil (unmanaged); other empty sets become nil.
//
// Normalize allocates a new Classes map and new slices rather than editing them in place, so
// copies of p made before the call (which share the map and slices) are left untouched.
func (p *QoSPolicy) Normalize() {
	if p.Classes != nil {
		classes := make(map[string]Class, len(p.Classes))
		for name, c := range p.Classes {
			c.normalize()
			classes[name] = c
		}
		p.Classes = classes
	}
	p.Interfaces = SortedSet(p.Interfaces)
}

func (c *Class) normalize() {
	c.DSCP = SortedSet(c.DSCP)
	if c.PCP != nil {
		c.PCP = SortedSet(c.PCP)
		if c.PCP == nil {
			c.PCP = []int{}
		}
	}
	if c.BandwidthPercent != nil {
		c.BandwidthPercent = Ptr(*c.BandwidthPercent)
	}
	if c.MTU != nil {
		c.MTU = Ptr(*c.MTU)
	}
	if c.ECN != nil {
		c.ECN = Ptr(*c.ECN)
	}
}

// KnownClass returns p's class name; p may be nil (nothing known: an import, a create).
func (p *QoSPolicy) KnownClass(name string) (Class, bool) {
	if p == nil {
		return Class{}, false
	}
	c, ok := p.Classes[name]
	return c, ok
}

// SortedSet returns a new sorted slice of the distinct elements of s, nil when s is empty.
func SortedSet[T cmp.Ordered](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}

// Equal reports whether p and o ask for the same thing. Sets (DSCP, PCP, Interfaces) compare
// as sets, so order and duplicates do not matter; optional fields compare by value. A nil PCP
// (unmanaged) differs from an empty one (managed, no PCP). Neither policy is modified.
func (p QoSPolicy) Equal(o QoSPolicy) bool {
	if p.Name != o.Name || p.Trust != o.Trust || p.DefaultTrafficClass != o.DefaultTrafficClass {
		return false
	}
	if !slices.Equal(SortedSet(p.Interfaces), SortedSet(o.Interfaces)) {
		return false
	}
	if len(p.Classes) != len(o.Classes) {
		return false
	}
	for name, c := range p.Classes {
		oc, ok := o.Classes[name]
		if !ok || !c.Equal(oc) {
			return false
		}
	}
	return true
}

// Equal reports whether c and o are the same class, comparing DSCP and PCP as sets.
func (c Class) Equal(o Class) bool {
	return c.TrafficClass == o.TrafficClass &&
		c.StrictPriority == o.StrictPriority &&
		c.Lossless == o.Lossless &&
		slices.Equal(SortedSet(c.DSCP), SortedSet(o.DSCP)) &&
		(c.PCP == nil) == (o.PCP == nil) &&
		slices.Equal(SortedSet(c.PCP), SortedSet(o.PCP)) &&
		equalPtr(c.BandwidthPercent, o.BandwidthPercent) &&
		equalPtr(c.MTU, o.MTU) &&
		equalPtr(c.ECN, o.ECN)
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// DSCPMap returns the whole DSCP -> traffic class map a device is given: each listed DSCP goes
// to its class's traffic class, every other DSCP to DefaultTrafficClass. Devices always get all
// 64 entries so no platform default leaks through. Out-of-range DSCPs are ignored; should a
// DSCP be listed by two classes (Validate reports that), the class whose name sorts first wins.
func (p QoSPolicy) DSCPMap() [64]int {
	var m [64]int
	p.fillMap(m[:], func(c Class) []int { return c.DSCP })
	return m
}

// PCPMap is DSCPMap for the PCP (CoS) values the classes list: all 8 entries.
func (p QoSPolicy) PCPMap() [8]int {
	var m [8]int
	p.fillMap(m[:], func(c Class) []int { return c.PCP })
	return m
}

// fillMap sends every key of m to DefaultTrafficClass, then each key a class lists (values)
// to its traffic class, the class whose name sorts first last so that it wins.
func (p QoSPolicy) fillMap(m []int, values func(Class) []int) {
	for i := range m {
		m[i] = p.DefaultTrafficClass
	}
	names := p.ClassNames()
	for i := len(names) - 1; i >= 0; i-- {
		c := p.Classes[names[i]]
		for _, v := range values(c) {
			if v >= 0 && v < len(m) {
				m[v] = c.TrafficClass
			}
		}
	}
}

// ClassByTC returns the class using traffic class tc. Should several use it (Validate reports
// that), the one whose name sorts first is returned.
func (p QoSPolicy) ClassByTC(tc int) (name string, c Class, ok bool) {
	for _, n := range p.ClassNames() {
		if p.Classes[n].TrafficClass == tc {
			return n, p.Classes[n], true
		}
	}
	return "", Class{}, false
}

// ListsAllDSCPs reports whether the classes list every DSCP 0-63, leaving none for
// DefaultTrafficClass.
func (p QoSPolicy) ListsAllDSCPs() bool {
	seen := map[int]bool{}
	for _, c := range p.Classes {
		for _, d := range c.DSCP {
			if d >= 0 && d <= 63 {
				seen[d] = true
			}
		}
	}
	return len(seen) == 64
}
