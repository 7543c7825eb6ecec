package cumulus

import (
	"maps"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// global is the profile NVUE applies to a port that binds none of a kind ("Configurations with
// a profile override the global settings for the ingress ports", Quality of Service).
const global = "default-global"

// Effective reads the QoS each switch port applies, whatever the profiles are called (a
// configuration typed with nv set as much as this provider's): per swp port of the applied
// configuration and of ports, the profile of each kind the port binds, else default-global,
// read together as Policy reads a policy, named after the port's mapping profile, with
// Interfaces [port] and a class "tc<N>" per traffic class of its egress-scheduler profile.
// default-global is what the applied configuration holds over what `qos roce` puts in place
// (withRoCE), which the applied configuration without defaults does not show. A port whose
// mapping or egress-scheduler profile is still unknown (RoCE off, no default-global configured:
// the factory defaults) has no policy.
//
// PFC is each port's: on where its PFC profile (bound, else default-global) has a switch
// priority, and its watchdog. Ports are sorted.
func (t *Tree) Effective(ports []string) ([]fabric.QoSPolicy, []fabric.PFCInterface) {
	var policies []fabric.QoSPolicy
	var pfcs []fabric.PFCInterface
	eff := &Tree{QoS: t.QoS.withRoCE(), Interface: t.Interface}
	for _, port := range fabric.SortedPorts(append(slices.Collect(maps.Keys(t.Interface)), ports...)) {
		if !ValidPort(port) {
			continue
		}
		v := eff.portView(port)
		pfcs = append(pfcs, *v.PFC(port))
		if p, ok := v.Policy(eff.bound(port, "mapping"), nil); ok {
			policies = append(policies, *p)
		}
	}
	return policies, pfcs
}

// bound is the profile of kind that port applies: its binding, else default-global.
func (t *Tree) bound(port, kind string) string {
	if q := t.Interface[port].QoS; q != nil {
		if b := q.binding(kind); b != nil && b.Profile != "" {
			return b.Profile
		}
	}
	return global
}

// portView is t as port sees it: the profile of each kind the port applies, all under the name
// of its mapping profile and bound on the port alone (where t holds them), so Policy and PFC
// read what the port does.
func (t *Tree) portView(port string) *Tree {
	name := t.bound(port, "mapping")
	q := QoS{EgressQueueMapping: t.QoS.EgressQueueMapping,
		Mapping:           map[string]*Mapping{name: t.QoS.Mapping[name]},
		EgressScheduler:   map[string]*Scheduler{name: t.QoS.EgressScheduler[t.bound(port, "egress-scheduler")]},
		CongestionControl: map[string]*Congestion{name: t.QoS.CongestionControl[t.bound(port, "congestion-control")]},
		PFC:               map[string]*PFCProfile{name: t.QoS.PFC[t.bound(port, "pfc")]},
	}
	iq := &InterfaceQoS{}
	if own := t.Interface[port].QoS; own != nil {
		iq.PFCWatchdog = own.PFCWatchdog
	}
	for _, kind := range profileKinds {
		if q.has(kind, name) {
			*iq.bindingPtr(kind) = &Binding{Profile: name}
		}
	}
	return &Tree{QoS: q, Interface: map[string]Interface{port: {Type: "swp", QoS: iq}}}
}
