package nxos

import (
	"fmt"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// objectLines writes next's objects, in reference order: class-maps, the qos policy-map, the
// queuing and network-qos policy-maps. cur is the device before.
func objectLines(cur *Config, next fabric.QoSPolicy) []string {
	out := classMapLines(cur, next)
	out = append(out, qosPolicyLines(cur, next)...)
	out = append(out, queuingLines(cur, next)...)
	return append(out, networkQoSLines(cur, next)...)
}

// wantMatch is the one match line of class c's class-map: CoS under trust pcp, else DSCP; ""
// for a class without values (an empty class-map matches nothing).
func wantMatch(trust fabric.Trust, c fabric.Class) Match {
	m := Match{Field: "dscp", Values: c.DSCP}
	if trust == fabric.TrustPCP {
		m = Match{Field: "cos", Values: c.PCP}
	}
	m.Values = fabric.SortedSet(m.Values)
	if len(m.Values) == 0 {
		return Match{}
	}
	m.Text = m.Field + " " + formatValues(m.Values)
	return m
}

// classMapLines creates or corrects the class-map <policy>-<class> of each class: lines the
// device has and the class does not want are removed with `no match`; a class-map already as
// wanted gets no lines (match lines add up on NX-OS, they are not replaced).
func classMapLines(cur *Config, p fabric.QoSPolicy) []string {
	var out []string
	for _, name := range p.ClassNames() {
		cmName := ClassMapName(p.Name, name)
		want := wantMatch(p.Trust, p.Classes[name])
		have := cur.ClassMaps[cmName]
		kind := "match-any"
		var body []string
		if have != nil {
			if have.MatchAll {
				kind = "match-all" // re-entering with another type is refused; one line makes them equal
			}
			for _, m := range have.Matches {
				if want.Field == "" || m.Field != want.Field || !equalValues(m, want) {
					body = append(body, "no match "+m.Text)
				}
			}
		}
		if want.Field != "" && (have == nil || !slices.ContainsFunc(have.Matches, func(m Match) bool {
			return m.Field == want.Field && equalValues(m, want)
		})) {
			body = append(body, "match "+want.Text)
		}
		if have == nil || len(body) > 0 {
			out = append(out, block("class-map type qos "+kind+" "+cmName, body...)...)
		}
	}
	return out
}

// qosPolicyLines rewrites `policy-map type qos P` in place: classes the device has that p does
// not are removed (`no class`), every class of p gets its qos-group, class-default the default
// traffic class.
func qosPolicyLines(cur *Config, p fabric.QoSPolicy) []string {
	var body []string
	wanted := map[string]bool{classDefault: true}
	for _, name := range p.ClassNames() {
		wanted[ClassMapName(p.Name, name)] = true
	}
	if have := cur.QoSPolicies[p.Name]; have != nil {
		for _, c := range have.Classes {
			if !wanted[c.Name] {
				body = append(body, "no class "+c.Name)
			}
		}
	}
	for _, name := range p.ClassNames() {
		body = append(body, block("class "+ClassMapName(p.Name, name),
			fmt.Sprintf("set qos-group %d", p.Classes[name].TrafficClass))...)
	}
	body = append(body, block("class "+classDefault, fmt.Sprintf("set qos-group %d", p.DefaultTrafficClass))...)
	return block("policy-map type qos "+p.Name, body...)
}

// queuingLines writes `policy-map type queuing P-out` owning all 8 egress classes whole (TC 7
// down to 1, then default, as NX-OS prints them): strict classes `priority level` (see
// priorityLevels), shares `bandwidth remaining percent`, ECN the random-detect line, and the
// TCs without a class as default-8q-out-policy has them: the control queue 7 at `priority
// level 1`, the others at 0 %. Lines the device has that would conflict are removed first.
func queuingLines(cur *Config, p fabric.QoSPolicy) []string {
	var have *QueuingPolicy
	if have = cur.Queuing[QueuingName(p.Name)]; have == nil {
		have = &QueuingPolicy{}
	}
	levels := priorityLevels(p)
	if _, _, ok := p.ClassByTC(controlTC); !ok {
		levels[controlTC] = 1
	}
	var body []string
	for _, tc := range []int{7, 6, 5, 4, 3, 2, 1, 0} {
		q := have.Out[tc]
		if q == nil {
			q = &QueueClass{}
		}
		_, c, isClass := p.ClassByTC(tc)
		var lines []string
		if q.BandwidthPercent != nil {
			lines = append(lines, "no bandwidth percent")
		}
		if l, strict := levels[tc]; strict {
			if q.BandwidthRemaining != nil {
				lines = append(lines, "no bandwidth remaining percent")
			}
			lines = append(lines, fmt.Sprintf("priority level %d", l))
		} else {
			if q.PriorityLevel != nil {
				lines = append(lines, "no priority")
			}
			share := 0
			if isClass && c.BandwidthPercent != nil {
				share = *c.BandwidthPercent
			}
			lines = append(lines, fmt.Sprintf("bandwidth remaining percent %d", share))
		}
		if isClass && c.ECN != nil {
			lines = append(lines, fmt.Sprintf(
				"random-detect minimum-threshold %d kbytes maximum-threshold %d kbytes drop-probability %d weight 0 ecn",
				c.ECN.MinThresholdBytes/fabric.KiB, c.ECN.MaxThresholdBytes/fabric.KiB, c.ECN.MarkProbabilityPercent))
		} else if q.WRED != nil {
			lines = append(lines, "no random-detect")
		}
		body = append(body, block("class type queuing "+sysClass(outPrefix, tc), lines...)...)
	}
	return block("policy-map type queuing "+QueuingName(p.Name), body...)
}

// networkQoSLines writes `policy-map type network-qos P-nq`: a class (TC 0 first, then
// ascending) for each lossless class (`pause pfc-cos N`) and each class with an mtu, written
// whole; network-qos classes the device has for other TCs are removed. When any class sets an
// mtu, c-8q-nq-default carries the policy's largest one unless TC 0's class sets its own:
// traffic of a class the network-qos policy does not list falls to the default class, and
// without it to 1500 bytes (the Azure Local reference sets `mtu 9216` on c-8q-nq-default beside
// its lossless class).
func networkQoSLines(cur *Config, p fabric.QoSPolicy) []string {
	have := cur.NetworkQoS[NetworkQoSName(p.Name)]
	var body []string
	for tc := range 8 {
		var q *NQClass
		if have != nil {
			q = have.Classes[tc]
		}
		_, c, isClass := p.ClassByTC(tc)
		mtu := c.MTU
		if tc == 0 && mtu == nil {
			mtu = policyMTU(p)
		}
		name := sysClass(nqPrefix, tc)
		if (!isClass || !c.Lossless) && mtu == nil {
			if q != nil {
				body = append(body, "no class type network-qos "+name)
			}
			continue
		}
		var lines []string
		switch {
		case isClass && c.Lossless:
			lines = append(lines, fmt.Sprintf("pause pfc-cos %d", tc))
		case q != nil && len(q.PauseCOS) > 0:
			lines = append(lines, "no pause pfc-cos")
		}
		switch {
		case mtu != nil:
			lines = append(lines, fmt.Sprintf("mtu %d", *mtu))
		case q != nil && q.MTU != nil:
			lines = append(lines, "no mtu")
		}
		body = append(body, block("class type network-qos "+name, lines...)...)
	}
	return block("policy-map type network-qos "+NetworkQoSName(p.Name), body...)
}

// policyMTU is the largest mtu of p's classes, nil when none sets one.
func policyMTU(p fabric.QoSPolicy) *int {
	var out *int
	for _, name := range p.ClassNames() {
		if m := p.Classes[name].MTU; m != nil && (out == nil || *m > *out) {
			out = fabric.Ptr(*m)
		}
	}
	return out
}

// block is a sub-mode: its command, its lines, "exit".
func block(cmd string, body ...string) []string {
	return append(append([]string{cmd}, body...), "exit")
}
