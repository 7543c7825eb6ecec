package eos

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// EOS spellings of the trust modes in `qos trust`.
const (
	trustDSCP = "dscp"
	trustCOS  = "cos"
)

// Policy rebuilds the policy named name, in the form Canonical gives, from what the device
// does; ok is false when there is no `qos profile name`.
//   - a class is a traffic class whose queue (TC -> tx-queue map) has `bandwidth percent` or
//     an explicit `priority strict`; it is strict unless the queue says `no priority` (EOS's
//     default is strict), so a share on a strict queue reads as both and shows as drift;
//   - the class takes the name of known's class with that TC, else "tc<N>": EOS keeps no
//     class names;
//   - DSCP (PCP) lists are every DSCP (CoS) the effective global map sends to the TC; PCP is
//     read when the profile trusts cos or known's class manages pcp, else it stays nil;
//   - lossless is `priority-flow-control priority N no-drop`, ECN the queue's random-detect;
//   - trust is the profile's (`cos` reads pcp); default_traffic_class is the one TC without a
//     class that the maps send anything to (0 when none, Unknown when several);
//   - interfaces are the ports whose `service-profile` names the policy.
func (c *Config) Policy(name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, bool) {
	prof, ok := c.Profiles[name]
	if !ok {
		return nil, false
	}
	p := &fabric.QoSPolicy{Name: name, Trust: trustOf(prof.Trust), Classes: map[string]fabric.Class{}}
	classTC := map[int]bool{}
	readsCOS := p.Trust == fabric.TrustPCP
	for tc := range 8 {
		q := prof.Queues[c.TCToQueue[tc]]
		if q == nil || (q.BandwidthPercent == nil && q.Priority != "strict") {
			continue
		}
		cl := queueClass(tc, q)
		cl.Lossless = slices.Contains(prof.NoDrop, tc)
		cl.DSCP = senders(c.DSCPToTC[:], tc)
		kname, kc, isKnown := knownByTC(known, tc)
		if p.Trust == fabric.TrustPCP || (isKnown && kc.PCP != nil) {
			cl.PCP = senders(c.COSToTC[:], tc)
			if cl.PCP == nil {
				cl.PCP = []int{}
			}
			readsCOS = true
		}
		if !isKnown {
			kname = freeName(tc, known)
		}
		p.Classes[kname] = cl
		classTC[tc] = true
	}
	var cos []int
	if readsCOS {
		cos = c.COSToTC[:]
	}
	p.DefaultTrafficClass = defaultTC(classTC, c.DSCPToTC[:], cos)
	for _, port := range slices.Sorted(maps.Keys(c.Interfaces)) {
		if c.Interfaces[port].ServiceProfile == name {
			p.Interfaces = append(p.Interfaces, port)
		}
	}
	return p, true
}

// queueClass reads scheduling and ECN from a tx-queue.
func queueClass(tc int, q *TxQueue) fabric.Class {
	cl := fabric.Class{TrafficClass: tc, StrictPriority: q.Priority != "none"}
	if q.BandwidthPercent != nil {
		cl.BandwidthPercent = fabric.Ptr(*q.BandwidthPercent)
	}
	if e := q.ECN; e != nil {
		cl.ECN = &fabric.ECN{MinThresholdBytes: e.MinBytes, MaxThresholdBytes: e.MaxBytes, MarkProbabilityPercent: e.Probability}
		if e.Weight != 0 || !q.ECNCount {
			// Not the marking queueLines writes (on the instantaneous queue, weight 0, with its
			// counter): the probability reads Unknown, so the next apply rewrites the line.
			cl.ECN.MarkProbabilityPercent = Unknown
		}
	}
	return cl
}

func trustOf(s string) fabric.Trust {
	switch s {
	case trustDSCP:
		return fabric.TrustDSCP
	case trustCOS:
		return fabric.TrustPCP
	}
	return ""
}

// knownByTC returns known's class with traffic class tc.
func knownByTC(known *fabric.QoSPolicy, tc int) (string, fabric.Class, bool) {
	if known == nil {
		return "", fabric.Class{}, false
	}
	return known.ClassByTC(tc)
}

// freeName names a class no known class has the TC of: "tc<N>", made unique should known
// already use that name for another TC.
func freeName(tc int, known *fabric.QoSPolicy) string {
	name := fmt.Sprintf("tc%d", tc)
	for known != nil {
		if _, taken := known.Classes[name]; !taken {
			break
		}
		name += "_"
	}
	return name
}

// senders lists the keys (DSCPs or CoS values) m sends to tc, ascending; nil for none.
func senders(m []int, tc int) []int {
	var out []int
	for k, v := range m {
		if v == tc {
			out = append(out, k)
		}
	}
	return out
}

// defaultTC is the one traffic class without a class that the maps send something to
// (fabric.LoneTC), Unknown when there are several. cos is nil when the policy does not own the
// CoS map.
func defaultTC(classTC map[int]bool, dscp, cos []int) int {
	if tc, ok := fabric.LoneTC(classTC, dscp, cos); ok {
		return tc
	}
	return Unknown
}

// writesCOS reports whether the policy owns the global CoS map: trust pcp, or a class with pcp.
func writesCOS(p fabric.QoSPolicy) bool {
	if p.Trust == fabric.TrustPCP {
		return true
	}
	for _, c := range p.Classes {
		if c.PCP != nil {
			return true
		}
	}
	return false
}

// Canonical returns p in the form Policy reads it back after PolicyLines wrote it, so that
// the two compare equal exactly when the device does what p asks. The global maps record no
// "listed" values, so the DSCP map, and the CoS map when the policy owns it, read back as
// fabric.WholeMaps has them, except that:
//   - a class without pcp reads nil unless trust is pcp: EOS reads a class's CoS values only
//     when its profile trusts CoS (with trust pcp, a class without pcp has the empty set);
//   - mtu reads nil (EOS has none; CheckSupported refuses it).
//
// Sets are sorted and de-duplicated (fabric.QoSPolicy.Normalize). p is not modified.
func Canonical(p fabric.QoSPolicy) fabric.QoSPolicy {
	out := fabric.WholeMaps(p, writesCOS(p)) // a copy: its classes are p's no more
	for n, c := range out.Classes {
		c.MTU = nil
		if p.Trust != fabric.TrustPCP && p.Classes[n].PCP == nil {
			c.PCP = nil
		}
		out.Classes[n] = c
	}
	return out
}
