package nxos

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// className is what the contract allows as a class name (fabric.Validate's rule).
var className = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$`)

// Policy rebuilds the policy named name, in the form Canonical gives, from what the device
// does; ok is false when there is no `policy-map type qos name`.
//   - classes are the policy-map's classes other than class-default: the name is the
//     class-map's with the "<name>-" prefix stripped, else the class-map's own name when it is
//     a valid class name, else known's class with that traffic class, else "tc<N>"; the
//     traffic class is `set qos-group` (Unknown without);
//   - DSCP (PCP) lists are the class-map's `match dscp` (`match cos`) values; trust is dscp
//     when the class-maps match only DSCP, pcp when only CoS, "" when both or other fields
//     (no class-map matching anything: known's trust, else dscp). With trust pcp every class
//     reads its CoS set, empty when none;
//   - scheduling and ECN come from the class for the traffic class in <name>-out: `priority
//     level` is strict, `bandwidth remaining percent` (or `bandwidth percent`) the share; a
//     random-detect without `ecn` drops, and reads mark_probability_percent Unknown;
//   - lossless is `pause pfc-cos N` (exactly the class's own TC) in <name>-nq, mtu that
//     class's mtu, nil when known's class of that name leaves mtu unmanaged; both only while
//     system qos binds <name>-nq (bound elsewhere, the classes read lossy and without mtu);
//   - a traffic class no class sets whose <name>-out or <name>-nq class is not neutral (a
//     share or priority, random-detect, pause or mtu) reads as an extra class "tc<N>": the
//     classes are owned whole, so such drift shows and the next apply removes it;
//   - default_traffic_class is class-default's `set qos-group` (0 without);
//   - interfaces are the ports whose `service-policy type qos input` is name and whose
//     effective queuing output (the port's own `service-policy type queuing output`, else the
//     one system qos binds) is <name>-out (a partly bound port drops out).
func (c *Config) Policy(name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, bool) {
	qp, ok := c.QoSPolicies[name]
	if !ok {
		return nil, false
	}
	p := &fabric.QoSPolicy{Name: name, Classes: map[string]fabric.Class{}}
	var fields []string
	cos := map[string][]int{}
	classTC := map[int]bool{}
	for _, qc := range qp.Classes {
		if qc.Name == classDefault {
			if qc.QoSGroup != nil {
				p.DefaultTrafficClass = *qc.QoSGroup
			}
			continue
		}
		cl := fabric.Class{TrafficClass: Unknown}
		if qc.QoSGroup != nil {
			cl.TrafficClass = *qc.QoSGroup
		}
		if cm := c.ClassMaps[qc.Name]; cm != nil {
			for _, m := range cm.Matches {
				fields = append(fields, m.Field)
				switch m.Field {
				case "dscp":
					cl.DSCP = append(cl.DSCP, m.Values...)
				case "cos":
					cl.PCP = append(cl.PCP, m.Values...)
				}
			}
		}
		n := readName(name, qc.Name, cl.TrafficClass, p, known)
		cos[n], cl.PCP = cl.PCP, nil
		p.Classes[n] = c.schedule(name, n, cl, known)
		classTC[cl.TrafficClass] = true
	}
	p.Trust = trustOf(fields, known)
	for tc := range 8 {
		if !classTC[tc] {
			if cl, ok := c.strayClass(name, tc); ok {
				n := freeName(tc, p, known)
				p.Classes[n] = c.schedule(name, n, cl, known)
			}
		}
	}
	for n, cl := range p.Classes {
		if len(cos[n]) > 0 || p.Trust == fabric.TrustPCP {
			cl.PCP = append([]int{}, cos[n]...)
		}
		p.Classes[n] = cl
	}
	for _, port := range slices.Sorted(maps.Keys(c.Interfaces)) {
		i := c.Interfaces[port]
		queuing := i.QueuingOutput
		if queuing == "" {
			queuing = c.System.QueuingOutput // a port without its own takes system qos's
		}
		if i.QoSInput == name && queuing == QueuingName(name) {
			p.Interfaces = append(p.Interfaces, port)
		}
	}
	p.Normalize()
	return p, true
}

// readName names the class of class-map cm (see Policy).
func readName(policy, cm string, tc int, p, known *fabric.QoSPolicy) string {
	n, stripped := strings.CutPrefix(cm, policy+"-")
	if !stripped {
		n = cm
	}
	if _, taken := p.Classes[n]; className.MatchString(n) && !taken {
		return n
	}
	return freeName(tc, p, known)
}

// freeName names a class whose class-map gives no usable name: known's class with that
// traffic class, else "tc<N>", made unique among the classes read so far and known's.
func freeName(tc int, p, known *fabric.QoSPolicy) string {
	if known != nil && tc != Unknown {
		if n, _, ok := known.ClassByTC(tc); ok {
			if _, taken := p.Classes[n]; !taken {
				return n
			}
		}
	}
	n := fmt.Sprintf("tc%d", tc)
	if tc == Unknown {
		n = "tc"
	}
	for {
		_, taken := p.Classes[n]
		kc, isKnown := known.KnownClass(n)
		if !taken && (!isKnown || kc.TrafficClass == tc) {
			return n
		}
		n += "_"
	}
}

// schedule completes class n (traffic class, DSCPs) from <policy>-out and <policy>-nq.
func (c *Config) schedule(policy, n string, cl fabric.Class, known *fabric.QoSPolicy) fabric.Class {
	if out := c.Queuing[QueuingName(policy)]; out != nil && out.Out[cl.TrafficClass] != nil {
		q := out.Out[cl.TrafficClass]
		cl.StrictPriority = q.PriorityLevel != nil
		switch {
		case q.BandwidthRemaining != nil:
			cl.BandwidthPercent = fabric.Ptr(*q.BandwidthRemaining)
		case q.BandwidthPercent != nil:
			cl.BandwidthPercent = fabric.Ptr(*q.BandwidthPercent)
		}
		if w := q.WRED; w != nil {
			cl.ECN = &fabric.ECN{MinThresholdBytes: w.MinBytes, MaxThresholdBytes: w.MaxBytes, MarkProbabilityPercent: w.Probability}
			if !w.ECN {
				cl.ECN.MarkProbabilityPercent = Unknown
			}
		}
	}
	if nq := c.boundNetworkQoS(policy); nq != nil && nq.Classes[cl.TrafficClass] != nil {
		q := nq.Classes[cl.TrafficClass]
		cl.Lossless = slices.Equal(q.PauseCOS, []int{cl.TrafficClass})
		kc, isKnown := known.KnownClass(n)
		// On import, a default class mtu equal to the policy's largest is the one
		// networkQoSLines derives: it renders the same without a class mtu of its own.
		derived := !isKnown && cl.TrafficClass == 0 && q.MTU != nil && nq.largestMTU() != nil && *q.MTU == *nq.largestMTU()
		if q.MTU != nil && (!isKnown || kc.MTU != nil) && !derived {
			cl.MTU = fabric.Ptr(*q.MTU)
		}
	}
	return cl
}

// boundNetworkQoS is <policy>-nq while system qos binds it (only then does it take effect),
// else nil.
func (c *Config) boundNetworkQoS(policy string) *NetworkQoSPolicy {
	if c.System.NetworkQoS != NetworkQoSName(policy) {
		return nil
	}
	return c.NetworkQoS[NetworkQoSName(policy)]
}

// strayClass reports a traffic class whose queuing or network-qos class of the policy is not
// neutral although no class of the qos policy-map sets it.
func (c *Config) strayClass(policy string, tc int) (fabric.Class, bool) {
	stray := false
	if out := c.Queuing[QueuingName(policy)]; out != nil && out.Out[tc] != nil {
		q := out.Out[tc]
		neutralLevel := q.PriorityLevel == nil
		if tc == controlTC {
			// The control queue's neutral form is default-8q-out-policy's `priority level 1`.
			neutralLevel = q.PriorityLevel != nil && *q.PriorityLevel == 1
		}
		stray = !neutralLevel || q.WRED != nil || (q.BandwidthRemaining != nil && *q.BandwidthRemaining != 0) ||
			(q.BandwidthPercent != nil && *q.BandwidthPercent != 0)
	}
	if nq := c.boundNetworkQoS(policy); nq != nil && nq.Classes[tc] != nil {
		q := nq.Classes[tc]
		// The default class's mtu is the policy's largest (networkQoSLines) when no class of
		// TC 0 sets one: that is no class of its own.
		derived := tc == 0 && q.MTU != nil && nq.largestMTU() != nil && *q.MTU == *nq.largestMTU()
		stray = stray || len(q.PauseCOS) > 0 || q.MTU != nil && !derived
	}
	return fabric.Class{TrafficClass: tc}, stray
}

// largestMTU is the largest mtu of the policy's network-qos classes other than the default
// (TC 0), nil when none has one.
func (n *NetworkQoSPolicy) largestMTU() *int {
	var out *int
	for tc, q := range n.Classes {
		if tc != 0 && q != nil && q.MTU != nil && (out == nil || *q.MTU > *out) {
			out = fabric.Ptr(*q.MTU)
		}
	}
	return out
}

// trustOf reads trust from the fields the class-maps match.
func trustOf(fields []string, known *fabric.QoSPolicy) fabric.Trust {
	dscp, cos := slices.Contains(fields, "dscp"), slices.Contains(fields, "cos")
	other := slices.ContainsFunc(fields, func(f string) bool { return f != "dscp" && f != "cos" })
	switch {
	case other || (dscp && cos):
		return ""
	case cos:
		return fabric.TrustPCP
	case dscp:
		return fabric.TrustDSCP
	case known != nil:
		return known.Trust
	}
	return fabric.TrustDSCP
}

// Canonical returns p in the form Policy reads it back after PolicyLines wrote it, so that
// the two compare equal exactly when the device does what p asks:
//   - trust pcp: class-maps match CoS only, so DSCP lists read empty and every class reads
//     its PCP set (empty when none);
//   - trust dscp: class-maps match DSCP only, so pcp reads nil (NX-OS classifies on one
//     field; a pcp list under trust dscp is not written);
//   - default_traffic_class and mtu are kept: class-default and the network-qos class carry
//     them.
//
// Sets are sorted and de-duplicated (fabric.QoSPolicy.Normalize). p is not modified.
func Canonical(p fabric.QoSPolicy) fabric.QoSPolicy {
	out := p
	out.Normalize()
	for n, c := range out.Classes {
		switch p.Trust {
		case fabric.TrustPCP:
			c.DSCP = nil
			if c.PCP == nil {
				c.PCP = []int{}
			}
		case fabric.TrustDSCP:
			c.PCP = nil
		}
		out.Classes[n] = c
	}
	return out
}

// LosslessTCs lists, ascending, the traffic classes the device pauses: the classes with `pause
// pfc-cos` of the network-qos policy bound in `system qos` (none for the platform default).
func (c *Config) LosslessTCs() []int {
	nq := c.NetworkQoS[c.System.NetworkQoS]
	if nq == nil {
		return nil
	}
	var out []int
	for _, tc := range slices.Sorted(maps.Keys(nq.Classes)) {
		if len(nq.Classes[tc].PauseCOS) > 0 {
			out = append(out, tc)
		}
	}
	return out
}

// ForeignNetworkQoS returns the network-qos policy `system qos` binds when it is neither the
// platform default nor policy's own <policy>-nq: NX-OS has one system network-qos policy, so
// creating policy would replace someone else's.
func (c *Config) ForeignNetworkQoS(policy string) (string, bool) {
	switch nq := c.System.NetworkQoS; nq {
	case "", DefaultNetworkQoS, NetworkQoSName(policy):
		return "", false
	default:
		return nq, true
	}
}

// CheckCreate returns why roce_qos_policy policy cannot be created on device (a device name
// for the import id): `system qos` binds a foreign network-qos policy (ForeignNetworkQoS).
// The error says to import the switch's policy instead, naming its qos policy-maps.
func (c *Config) CheckCreate(device, policy string) error {
	nq, foreign := c.ForeignNetworkQoS(policy)
	if !foreign {
		return nil
	}
	names := slices.Sorted(maps.Keys(c.QoSPolicies))
	have := "it has no policy-map type qos yet"
	if len(names) > 0 {
		have = "its policy-map type qos: " + strings.Join(names, ", ")
	}
	return fmt.Errorf("nxos: device %q: system qos already binds network-qos policy %s, which roce_qos_policy %q did not "+
		"create; NX-OS has one system network-qos policy, and creating %q would replace it. Import the switch's policy "+
		"instead (terraform import <address> %s/<name of its policy-map type qos>; %s), or bind %s in system qos first",
		device, nq, policy, policy, device, have, DefaultNetworkQoS)
}
