package fabric

// WholeMaps returns p in the form a platform reads it back when it writes the DSCP map (and,
// with pcpWritten, the PCP map) whole, sending each value to a traffic class, with nothing on
// the device recording which class "listed" a value (SONiC's maps, NVUE's mapping profiles):
//   - when a class has default_traffic_class as its traffic class, the DSCPs (and, with the
//     PCP map, the PCPs) no class lists are that class's, and default_traffic_class becomes 0:
//     every value is then listed and the default has no effect on the device;
//   - when the classes list all 64 DSCPs (and all 8 PCPs, if the PCP map is written),
//     default_traffic_class is 0 for the same reason;
//   - with the PCP map written, a class without pcp has the empty set rather than null: the
//     map is owned whole.
//
// Sets are sorted and de-duplicated (Normalize). p is not modified.
func WholeMaps(p QoSPolicy, pcpWritten bool) QoSPolicy {
	out := p
	out.Normalize()
	listedD, listedP := map[int]bool{}, map[int]bool{}
	for n, c := range out.Classes {
		for _, d := range c.DSCP {
			listedD[d] = true
		}
		if pcpWritten && c.PCP == nil {
			c.PCP = []int{}
			out.Classes[n] = c
		}
		for _, v := range c.PCP {
			listedP[v] = true
		}
	}
	if name, c, ok := out.ClassByTC(out.DefaultTrafficClass); ok {
		c.DSCP = append(c.DSCP, unlisted(listedD, 64)...)
		if pcpWritten {
			c.PCP = append(c.PCP, unlisted(listedP, 8)...)
		}
		out.Classes[name] = c
		out.DefaultTrafficClass = 0
	} else if len(unlisted(listedD, 64)) == 0 && (!pcpWritten || len(unlisted(listedP, 8)) == 0) {
		out.DefaultTrafficClass = 0
	}
	out.Normalize()
	return out
}

// WritesPCP reports whether a platform that classifies PCP only when asked writes p's PCP map:
// with trust pcp or dscp_pcp, or when any class lists pcp.
func WritesPCP(p QoSPolicy) bool {
	if p.Trust == TrustPCP || p.Trust == TrustDSCPPCP {
		return true
	}
	for _, c := range p.Classes {
		if c.PCP != nil {
			return true
		}
	}
	return false
}

// LoneTC is the traffic class a read shows as default_traffic_class: the one class the maps
// send values to (sentTo: each map's traffic classes) that no class of classTC has. It is 0
// when there is none (every value is some class's); ok is false when there are several, which
// no policy writes.
func LoneTC(classTC map[int]bool, sentTo ...[]int) (tc int, ok bool) {
	rest := map[int]bool{}
	for _, m := range sentTo {
		for _, tc := range m {
			if !classTC[tc] {
				rest[tc] = true
			}
		}
	}
	switch len(rest) {
	case 0:
		return 0, true
	case 1:
		for tc := range rest {
			return tc, true
		}
	}
	return 0, false
}

func unlisted(listed map[int]bool, n int) []int {
	var out []int
	for v := range n {
		if !listed[v] {
			out = append(out, v)
		}
	}
	return out
}
