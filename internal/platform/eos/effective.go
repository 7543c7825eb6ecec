package eos

import (
	"maps"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Effective reads the QoS each port applies, whatever the profiles are called: per port whose
// service-profile names a profile, that profile as Policy reads it (by traffic class, classes
// "tc<N>") with Interfaces [port]; and the PFC of every port of the configuration and of
// ports, on where the port's profile says `priority-flow-control on` (EOS applies a profile's
// PFC lines to the ports it serves) or the port itself does. Ports are sorted.
func (c *Config) Effective(ports []string) ([]fabric.QoSPolicy, []fabric.PFCInterface) {
	var policies []fabric.QoSPolicy
	for _, name := range slices.Sorted(maps.Keys(c.Profiles)) {
		p, _ := c.Policy(name, nil)
		for _, port := range p.Interfaces {
			one := *p
			one.Interfaces = []string{port}
			policies = append(policies, one)
		}
	}
	slices.SortFunc(policies, func(a, b fabric.QoSPolicy) int { return fabric.ComparePorts(a.Interfaces[0], b.Interfaces[0]) })
	all := fabric.SortedPorts(append(slices.Collect(maps.Keys(c.Interfaces)), ports...))
	var pfcs []fabric.PFCInterface
	for _, port := range all {
		p, ok := c.PFC(port)
		if !ok {
			p = &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOff}
		}
		if i := c.Interfaces[port]; i != nil && c.Profiles[i.ServiceProfile] != nil && c.Profiles[i.ServiceProfile].PFCOn {
			p.Mode = fabric.PFCModeOn
		}
		pfcs = append(pfcs, *p)
	}
	return policies, pfcs
}
