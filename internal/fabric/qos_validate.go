package fabric

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Limits of roce_qos_policy (contract and domain section 2).
const (
	MaxPolicyNameLen    = 64
	MaxClassNameLen     = 32
	MaxInterfaceNameLen = 64
	MaxTrafficClass     = 7
	MaxDSCP             = 63
	MaxPCP              = 7
	MaxLosslessClasses  = 2 // the contract's limit: Dell OS9's two lossless queues per port; 1-2 in practice (check_switch.go R8)
	MinMTU              = 1500
	MaxMTU              = 9216
)

// Names end up in device object names and CLI lines, so they are restricted to characters no
// platform treats specially (no blanks, newlines, ; | ! # quotes). Anchored on both ends.
var (
	namePattern      = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	interfacePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9/_.:-]*$`)
	// InterfacePattern is what a switch port or host netdev name may look like wherever it
	// reaches a device (CLI words, shell arguments, gNMI keys).
	InterfacePattern = interfacePattern
)

const (
	nameChars      = "letters, digits, '_', '.' and '-', starting with a letter or digit"
	interfaceChars = "letters, digits, '/', '_', '.', ':' and '-', starting with a letter or digit"
)

// Validate checks p against every rule of roce_qos_policy and returns all problems found, each
// at the attribute at fault. Classes are checked in sorted name order, so the result is
// deterministic. Defaults (name, trust, mark probability) must be filled in before.
func (p QoSPolicy) Validate() Problems { return all(p) }

func (p QoSPolicy) check(c checks) {
	c.str(Root("name"), PolicyNameRule, p.Name)
	c.str(Root("trust"), QoSTrustRule, string(p.Trust))
	c.int(Root("default_traffic_class"), DefaultTrafficClassRule, int64(p.DefaultTrafficClass))
	p.validateClasses(c)
	validateInterfaces(c, p.Interfaces)
}

// classOwners remembers which class first claimed a value (a traffic class, DSCP or PCP).
type classOwners map[int]string

// claim records that class claims v and returns the class that claimed it before, if any.
// Each class claims a value once (sets are deduplicated before), so an earlier claim is always
// another class's.
func (o classOwners) claim(v int, class string) (string, bool) {
	if first, ok := o[v]; ok {
		return first, true
	}
	o[v] = class
	return "", false
}

func (p QoSPolicy) validateClasses(c checks) {
	classes := Root("classes")
	if len(p.Classes) == 0 {
		c.add(classes, "No traffic class defined",
			"Define at least one class in classes, e.g. roce = { traffic_class = 3, dscp = [26], bandwidth_percent = 100 }.")
		return
	}
	tcs, dscps, pcps := classOwners{}, classOwners{}, classOwners{}
	var lossless, shares []string
	sum, sharesValid := 0, true
	for _, name := range p.ClassNames() {
		cl := p.Classes[name]
		at := classes.Key(name)
		c.str(at, ClassNameRule, name)
		tc := at.Attr("traffic_class")
		if c.int(tc, TrafficClassRule, int64(cl.TrafficClass)) {
			if first, dup := tcs.claim(cl.TrafficClass, name); dup {
				c.add(tc, fmt.Sprintf("Traffic class %d used by two classes", cl.TrafficClass),
					fmt.Sprintf("Class %q uses traffic class %d, already used by class %q. Give each class its own traffic class (0-7), or merge the two classes.",
						name, cl.TrafficClass, first))
			}
		}
		checkMembers(c, at.Attr("dscp"), ClassDSCPRule, cl.DSCP, dscps, name)
		checkMembers(c, at.Attr("pcp"), ClassPCPRule, cl.PCP, pcps, name)
		if share, ok := checkScheduling(c, at, cl); ok {
			shares = append(shares, fmt.Sprintf("%s %d%%", name, share))
			sum += share
			sharesValid = sharesValid && c.int(at.Attr("bandwidth_percent"), ClassShareRule, int64(share))
		}
		if cl.Lossless {
			if len(lossless) >= MaxLosslessClasses {
				c.add(at.Attr("lossless"), fmt.Sprintf("More than %d lossless classes", MaxLosslessClasses),
					fmt.Sprintf("Classes %s are already lossless; at most %d PFC no-drop priorities are supported. Set lossless = false on class %q.",
						quoteList(lossless), MaxLosslessClasses, name))
			}
			lossless = append(lossless, name)
		}
		if cl.MTU != nil {
			c.int(at.Attr("mtu"), MTURule, int64(*cl.MTU))
		}
		if cl.ECN != nil {
			checkECN(c, at.Attr("ecn"), *cl.ECN)
		}
	}
	// An out-of-range share is already reported; a sum over it would only add noise.
	if len(shares) > 0 && sharesValid && sum != 100 {
		c.add(classes, fmt.Sprintf("Bandwidth shares sum to %d%%, not 100%%", sum),
			fmt.Sprintf("The non-strict classes share what strict classes leave: %s = %d%%. Adjust bandwidth_percent so they sum to exactly 100.",
				strings.Join(shares, " + "), sum))
	}
}

// checkScheduling checks the bandwidth_percent / strict_priority choice and returns the class's
// share when it is a non-strict (ETS) class.
func checkScheduling(c checks, at Path, cl Class) (share int, ok bool) {
	switch {
	case cl.BandwidthPercent == nil && !cl.StrictPriority:
		c.add(at, "Class has neither bandwidth_percent nor strict_priority",
			"Set bandwidth_percent (an ETS share, 1-100) or strict_priority = true on this class.")
		return 0, false
	case cl.BandwidthPercent != nil && cl.StrictPriority:
		c.add(at.Attr("bandwidth_percent"), "bandwidth_percent set on a strict-priority class",
			"A strict-priority class takes no bandwidth share. Remove bandwidth_percent, or remove strict_priority to make it an ETS class.")
		return 0, false
	case cl.StrictPriority:
		return 0, false
	}
	return *cl.BandwidthPercent, true
}

func checkECN(c checks, at Path, e ECN) {
	c.int(at.Attr("min_threshold_bytes"), ECNMinThresholdRule, e.MinThresholdBytes)
	if e.MaxThresholdBytes < e.MinThresholdBytes {
		c.add(at.Attr("max_threshold_bytes"),
			fmt.Sprintf("ECN max_threshold_bytes %d is below min_threshold_bytes %d", e.MaxThresholdBytes, e.MinThresholdBytes),
			"Set max_threshold_bytes to at least min_threshold_bytes; marking ramps up from the minimum to the maximum.")
	}
	c.int(at.Attr("mark_probability_percent"), MarkProbabilityRule, int64(e.MarkProbabilityPercent))
}

// checkMembers checks a DSCP or PCP set: each value in r's range and claimed by one class only.
func checkMembers(c checks, at Path, r IntRule, values []int, owners classOwners, class string) {
	for _, v := range c.ints(at, r, values) {
		if first, dup := owners.claim(v, class); dup {
			c.add(at, fmt.Sprintf("%s %d in two classes", r.What, v),
				fmt.Sprintf("%s %d is listed by class %q and by class %q; a %s value can map to one class only. Remove it from one of them.",
					r.What, v, first, class, r.What))
		}
	}
}

func validateInterfaces(c checks, ifaces []string) {
	at := Root("interfaces")
	seen := map[string]bool{}
	reported := map[string]bool{}
	for _, ifc := range ifaces {
		c.str(at, PortNameRule, ifc)
		if seen[ifc] && !reported[ifc] {
			reported[ifc] = true
			c.add(at, fmt.Sprintf("Interface %q listed twice", ifc), "List each interface once.")
		}
		seen[ifc] = true
	}
}

func quoteList(names []string) string {
	q := slices.Clone(names)
	for i, n := range q {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
