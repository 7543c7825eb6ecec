package eos

import (
	"cmp"
	"maps"
	"slices"
	"strconv"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Effective reads the QoS each port applies, whatever the profiles are called: per port of the
// configuration and of ports, its service-profile's lines with the port's own `qos trust` and
// `priority-flow-control priority N no-drop` over them (EOS applies both; many RoCE
// configurations write them on the interface), as a policy named after the profile (or
// "interface" for a port without one), Interfaces [port], and a class "tc<N>" per traffic class
// the effective global map (DSCP for trust dscp, CoS for trust cos) sends anything to, that is
// no-drop, or whose tx-queue has scheduling or ECN lines (read as Policy reads them). A port
// with neither a profile nor QoS lines of its own classifies as EOS's default, which depends on
// whether the port is switched or routed: it has no policy. A profile without `qos trust`
// leaves the trust unknown (""), which the checks skip.
//
// PFC is each port's, on where its profile or the port says `priority-flow-control on`.
// Ports are sorted.
func (c *Config) Effective(ports []string) ([]fabric.QoSPolicy, []fabric.PFCInterface) {
	var policies []fabric.QoSPolicy
	var pfcs []fabric.PFCInterface
	for _, port := range fabric.SortedPorts(append(slices.Collect(maps.Keys(c.Interfaces)), ports...)) {
		i := c.Interfaces[port]
		if i == nil {
			i = &Interface{Name: port}
		}
		prof := c.Profiles[i.ServiceProfile]
		pfc, ok := c.PFC(port)
		if !ok {
			pfc = &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOff}
		}
		if prof != nil && prof.PFCOn {
			pfc.Mode = fabric.PFCModeOn
		}
		pfcs = append(pfcs, *pfc)
		if p, ok := c.portPolicy(port, i, prof); ok {
			policies = append(policies, p)
		}
	}
	return policies, pfcs
}

func (c *Config) portPolicy(port string, i *Interface, prof *Profile) (fabric.QoSPolicy, bool) {
	trust, noDrop := i.Trust, slices.Clone(i.NoDrop)
	name := i.ServiceProfile
	queues := map[int]*TxQueue{}
	if prof != nil {
		trust = cmp.Or(i.Trust, prof.Trust)
		noDrop = append(noDrop, prof.NoDrop...)
		queues = prof.Queues
	} else {
		name = "interface"
	}
	if prof == nil && trust == "" && len(noDrop) == 0 {
		return fabric.QoSPolicy{}, false
	}
	p := fabric.QoSPolicy{Name: name, Trust: trustOf(trust), Classes: map[string]fabric.Class{}, Interfaces: []string{port}}
	for tc := range 8 {
		var cl fabric.Class
		q := queues[c.TCToQueue[tc]]
		scheduled := q != nil && (q.BandwidthPercent != nil || q.Priority != "" || q.ECN != nil)
		if scheduled {
			cl = queueClass(tc, q)
		}
		cl.TrafficClass = tc
		switch p.Trust {
		case fabric.TrustDSCP:
			cl.DSCP = senders(c.DSCPToTC[:], tc)
		case fabric.TrustPCP:
			cl.PCP = senders(c.COSToTC[:], tc)
		}
		cl.Lossless = slices.Contains(noDrop, tc)
		if scheduled || cl.Lossless || len(cl.DSCP) > 0 || len(cl.PCP) > 0 {
			p.Classes["tc"+strconv.Itoa(tc)] = cl
		}
	}
	return p, true
}
