package nxos

// The configuration an `nxos` switch holds: class-maps, policy-maps of the three types, the
// system qos bindings and the per-port settings. The running-config, the startup-config and
// every checkpoint are values of this one model; clone copies it whole, so a checkpoint never
// shares anything with the running-config it was taken from and a rollback restores it exactly.

import (
	"maps"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

// Policy-map types, as typed after `policy-map type`.
const (
	nxQoS     = "qos"
	nxNetwork = "network-qos"
	nxQueuing = "queuing"
)

// Service-policy bindings, as printed between `service-policy` and the policy name; the
// policy type is the word after `type`.
const (
	bindQoSIn     = "type qos input"
	bindQueuingIn = "type queuing input"
	bindQueueOut  = "type queuing output"
	bindNetwork   = "type network-qos"
)

// nxosSystemPolicies are the system-defined policy-maps: valid service-policy targets, never
// printed by `show running-config ipqos`, not changeable.
var nxosSystemPolicies = map[string]string{
	"default-8q-nq-policy":  nxNetwork,
	"default-8q-out-policy": nxQueuing,
	"default-8q-in-policy":  nxQueuing,
}

// nxosSystemDefaults are the `system qos` bindings of a fresh switch.
var nxosSystemDefaults = map[string]string{
	bindNetwork:  "default-8q-nq-policy",
	bindQueueOut: "default-8q-out-policy",
}

type nxosClassMap struct {
	matchAll bool   // match-all, else match-any
	dscp     uint64 // bit d: `match dscp` includes d
	cos      uint8
}

// nxosWRED is a queuing class's `random-detect` line, units as typed.
type nxosWRED struct {
	min, max         int
	minUnit, maxUnit string
	prob, weight     int
	ecn              bool
}

// nxosPause is a queuing class's `pause buffer-size` line, in bytes.
type nxosPause struct{ buffer, pause, resume int }

// nxosClass is a class of a policy-map; which fields apply depends on the policy's type.
type nxosClass struct {
	name     string
	qosGroup int // qos: `set qos-group`, cliswitch.NoValue if unset
	pfcCos   uint8
	mtu      int // network-qos: 0 if unset
	bw       int // queuing: percent, cliswitch.NoValue if unset
	bwRemain bool
	priority int // queuing: `priority level`, 0 if unset
	wred     *nxosWRED
	pause    *nxosPause
}

type nxosPolicy struct {
	classes []*nxosClass // in configuration order
}

type nxosIface struct {
	description   string
	mtu           int // 0: the default (1500)
	up            bool
	pfcMode       string // on, off or auto (the default)
	pfcTLV        bool
	pfcWatchdog   bool // watch-dog-interval on
	fcSend        bool
	fcRecv        bool
	servicePolicy map[string]string // binding -> policy-map name
}

type nxosConfig struct {
	hostname  string
	classMaps map[string]*nxosClassMap
	policies  map[string]map[string]*nxosPolicy // type -> name -> policy
	system    map[string]string                 // binding -> policy-map name
	ifaces    []*nxosIface                      // Ethernet1/(i+1)
}

// newNXOSConfig is a fresh switch: no class-maps or user policies, the system defaults bound,
// every port untouched.
func newNXOSConfig(hostname string, ports int) *nxosConfig {
	c := &nxosConfig{
		hostname:  hostname,
		classMaps: map[string]*nxosClassMap{},
		policies:  map[string]map[string]*nxosPolicy{nxQoS: {}, nxNetwork: {}, nxQueuing: {}},
		system:    maps.Clone(nxosSystemDefaults),
	}
	for range ports {
		c.ifaces = append(c.ifaces, newNXOSIface())
	}
	return c
}

func newNXOSIface() *nxosIface {
	return &nxosIface{pfcMode: "auto", servicePolicy: map[string]string{}}
}

func (c *nxosConfig) clone() *nxosConfig {
	out := &nxosConfig{
		hostname:  c.hostname,
		classMaps: make(map[string]*nxosClassMap, len(c.classMaps)),
		policies:  make(map[string]map[string]*nxosPolicy, len(c.policies)),
		system:    maps.Clone(c.system),
		ifaces:    make([]*nxosIface, len(c.ifaces)),
	}
	for name, cm := range c.classMaps {
		cp := *cm
		out.classMaps[name] = &cp
	}
	for typ, byName := range c.policies {
		out.policies[typ] = make(map[string]*nxosPolicy, len(byName))
		for name, p := range byName {
			out.policies[typ][name] = p.clone()
		}
	}
	for i, f := range c.ifaces {
		cp := *f
		cp.servicePolicy = maps.Clone(f.servicePolicy)
		out.ifaces[i] = &cp
	}
	return out
}

func (p *nxosPolicy) clone() *nxosPolicy {
	out := &nxosPolicy{classes: make([]*nxosClass, len(p.classes))}
	for i, cl := range p.classes {
		cp := *cl
		if cl.wred != nil {
			w := *cl.wred
			cp.wred = &w
		}
		if cl.pause != nil {
			pp := *cl.pause
			cp.pause = &pp
		}
		out.classes[i] = &cp
	}
	return out
}

// policyExists says whether a service-policy may name the policy-map: a user one or a
// system-defined one of that type.
func (c *nxosConfig) policyExists(typ, name string) bool {
	_, user := c.policies[typ][name]
	return user || nxosSystemPolicies[name] == typ
}

// class returns the policy's class, appending it (configuration order) if it is new.
func (p *nxosPolicy) class(name string) *nxosClass {
	for _, cl := range p.classes {
		if cl.name == name {
			return cl
		}
	}
	cl := &nxosClass{name: name, qosGroup: cliswitch.NoValue, bw: cliswitch.NoValue}
	p.classes = append(p.classes, cl)
	return cl
}

func (p *nxosPolicy) removeClass(name string) {
	p.classes = slices.DeleteFunc(p.classes, func(cl *nxosClass) bool { return cl.name == name })
}

// policyInUse says whether system qos or an interface binds the policy-map.
func (c *nxosConfig) policyInUse(typ, name string) bool {
	bound := func(bindings map[string]string) bool {
		for b, n := range bindings {
			if n == name && bindingType(b) == typ {
				return true
			}
		}
		return false
	}
	if bound(c.system) {
		return true
	}
	return slices.ContainsFunc(c.ifaces, func(f *nxosIface) bool { return bound(f.servicePolicy) })
}

// classMapInUse says whether a qos policy-map has a class for the class-map.
func (c *nxosConfig) classMapInUse(name string) bool {
	for _, p := range c.policies[nxQoS] {
		if slices.ContainsFunc(p.classes, func(cl *nxosClass) bool { return cl.name == name }) {
			return true
		}
	}
	return false
}

// bindingType is the policy-map type a binding takes ("type queuing output" -> queuing).
func bindingType(binding string) string {
	switch binding {
	case bindQoSIn:
		return nxQoS
	case bindNetwork:
		return nxNetwork
	}
	return nxQueuing
}
