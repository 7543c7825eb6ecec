package fabric

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
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
func (p QoSPolicy) Validate() Problems {
	var ps Problems
	checkName(&ps, Root("name"), "Policy name", p.Name, MaxPolicyNameLen)
	if !p.Trust.Valid() {
		ps.Add(Root("trust"), fmt.Sprintf("Invalid trust %q", string(p.Trust)),
			"Set trust to dscp, pcp or dscp_pcp (the default is dscp).")
	}
	checkRange(&ps, Root("default_traffic_class"), "default_traffic_class", p.DefaultTrafficClass, 0, MaxTrafficClass,
		"Set default_traffic_class to the traffic class (0-7) unlisted DSCPs should go to.")
	p.validateClasses(&ps)
	validateInterfaces(&ps, p.Interfaces)
	return ps
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

func (p QoSPolicy) validateClasses(ps *Problems) {
	classes := Root("classes")
	if len(p.Classes) == 0 {
		ps.Add(classes, "No traffic class defined",
			"Define at least one class in classes, e.g. roce = { traffic_class = 3, dscp = [26], bandwidth_percent = 100 }.")
		return
	}
	tcs, dscps, pcps := classOwners{}, classOwners{}, classOwners{}
	var lossless, shares []string
	sum, sharesValid := 0, true
	for _, name := range p.ClassNames() {
		c := p.Classes[name]
		at := classes.Key(name)
		checkName(ps, at, "Class name", name, MaxClassNameLen)
		tc := at.Attr("traffic_class")
		if checkRange(ps, tc, "traffic_class", c.TrafficClass, 0, MaxTrafficClass,
			"Set traffic_class to a value from 0 to 7.") {
			if first, dup := tcs.claim(c.TrafficClass, name); dup {
				ps.Add(tc, fmt.Sprintf("Traffic class %d used by two classes", c.TrafficClass),
					fmt.Sprintf("Class %q uses traffic class %d, already used by class %q. Give each class its own traffic class (0-7), or merge the two classes.",
						name, c.TrafficClass, first))
			}
		}
		checkMembers(ps, at.Attr("dscp"), "DSCP", c.DSCP, MaxDSCP, dscps, name)
		checkMembers(ps, at.Attr("pcp"), "PCP", c.PCP, MaxPCP, pcps, name)
		if share, ok := checkScheduling(ps, at, c); ok {
			shares = append(shares, fmt.Sprintf("%s %d%%", name, share))
			sum += share
			sharesValid = sharesValid && share >= 1 && share <= 100
		}
		if c.Lossless {
			if len(lossless) >= MaxLosslessClasses {
				ps.Add(at.Attr("lossless"), fmt.Sprintf("More than %d lossless classes", MaxLosslessClasses),
					fmt.Sprintf("Classes %s are already lossless; at most %d PFC no-drop priorities are supported. Set lossless = false on class %q.",
						quoteList(lossless), MaxLosslessClasses, name))
			}
			lossless = append(lossless, name)
		}
		if c.MTU != nil {
			checkRange(ps, at.Attr("mtu"), "mtu", *c.MTU, MinMTU, MaxMTU,
				fmt.Sprintf("Set mtu to a value from %d to %d bytes, or leave it unset.", MinMTU, MaxMTU))
		}
		if c.ECN != nil {
			checkECN(ps, at.Attr("ecn"), *c.ECN)
		}
	}
	// An out-of-range share is already reported; a sum over it would only add noise.
	if len(shares) > 0 && sharesValid && sum != 100 {
		ps.Add(classes, fmt.Sprintf("Bandwidth shares sum to %d%%, not 100%%", sum),
			fmt.Sprintf("The non-strict classes share what strict classes leave: %s = %d%%. Adjust bandwidth_percent so they sum to exactly 100.",
				strings.Join(shares, " + "), sum))
	}
}

// checkScheduling checks the bandwidth_percent / strict_priority choice and returns the class's
// share when it is a non-strict (ETS) class.
func checkScheduling(ps *Problems, at Path, c Class) (share int, ok bool) {
	switch {
	case c.BandwidthPercent == nil && !c.StrictPriority:
		ps.Add(at, "Class has neither bandwidth_percent nor strict_priority",
			"Set bandwidth_percent (an ETS share, 1-100) or strict_priority = true on this class.")
		return 0, false
	case c.BandwidthPercent != nil && c.StrictPriority:
		ps.Add(at.Attr("bandwidth_percent"), "bandwidth_percent set on a strict-priority class",
			"A strict-priority class takes no bandwidth share. Remove bandwidth_percent, or remove strict_priority to make it an ETS class.")
		return 0, false
	case c.StrictPriority:
		return 0, false
	}
	bw := *c.BandwidthPercent
	checkRange(ps, at.Attr("bandwidth_percent"), "bandwidth_percent", bw, 1, 100,
		"Set bandwidth_percent to a share from 1 to 100; shares of non-strict classes sum to 100.")
	return bw, true
}

func checkECN(ps *Problems, at Path, e ECN) {
	if e.MinThresholdBytes < 1 {
		ps.Add(at.Attr("min_threshold_bytes"), fmt.Sprintf("ECN min_threshold_bytes %d is below 1", e.MinThresholdBytes),
			"Set min_threshold_bytes to the queue depth in bytes where ECN marking starts (e.g. 153600).")
	}
	if e.MaxThresholdBytes < e.MinThresholdBytes {
		ps.Add(at.Attr("max_threshold_bytes"),
			fmt.Sprintf("ECN max_threshold_bytes %d is below min_threshold_bytes %d", e.MaxThresholdBytes, e.MinThresholdBytes),
			"Set max_threshold_bytes to at least min_threshold_bytes; marking ramps up from the minimum to the maximum.")
	}
	checkRange(ps, at.Attr("mark_probability_percent"), "mark_probability_percent", e.MarkProbabilityPercent, 1, 100,
		"Set mark_probability_percent to a value from 1 to 100 (the default is 100).")
}

// checkMembers checks a DSCP or PCP set: each value in 0..limit and claimed by one class only.
func checkMembers(ps *Problems, at Path, what string, values []int, limit int, owners classOwners, class string) {
	for _, v := range SortedSet(values) {
		if v < 0 || v > limit {
			ps.Add(at, fmt.Sprintf("%s %d out of range 0-%d", what, v, limit),
				fmt.Sprintf("Class %q lists %s %d; use values from 0 to %d.", class, what, v, limit))
			continue
		}
		if first, dup := owners.claim(v, class); dup {
			ps.Add(at, fmt.Sprintf("%s %d in two classes", what, v),
				fmt.Sprintf("%s %d is listed by class %q and by class %q; a %s value can map to one class only. Remove it from one of them.",
					what, v, first, class, what))
		}
	}
}

// checkRange adds a problem when v is outside lo..hi and reports whether v is in range.
func checkRange(ps *Problems, at Path, attr string, v, lo, hi int, detail string) bool {
	if v >= lo && v <= hi {
		return true
	}
	ps.Add(at, fmt.Sprintf("%s %d out of range %d-%d", attr, v, lo, hi), detail)
	return false
}

// checkName checks a policy or class name: non-empty, at most limit characters, restricted
// characters.
func checkName(ps *Problems, at Path, what, name string, limit int) {
	if name == "" {
		ps.Add(at, what+" is empty", fmt.Sprintf("Give a name of 1-%d characters: %s.", limit, nameChars))
		return
	}
	if n := utf8.RuneCountInString(name); n > limit {
		ps.Add(at, fmt.Sprintf("%s longer than %d characters", what, limit),
			fmt.Sprintf("%q has %d characters; device object names allow at most %d. Use a shorter name.", name, n, limit))
	}
	if !namePattern.MatchString(name) {
		ps.Add(at, what+" has invalid characters",
			fmt.Sprintf("%q ends up in device object names and CLI lines; use only %s.", name, nameChars))
	}
}

func validateInterfaces(ps *Problems, ifaces []string) {
	at := Root("interfaces")
	seen := map[string]bool{}
	reported := map[string]bool{}
	for _, ifc := range ifaces {
		switch {
		case ifc == "":
			ps.Add(at, "Empty interface name", "Remove the empty string from interfaces, or name a port, e.g. \"Ethernet1\".")
			continue
		case utf8.RuneCountInString(ifc) > MaxInterfaceNameLen:
			ps.Add(at, fmt.Sprintf("Interface name longer than %d characters", MaxInterfaceNameLen),
				fmt.Sprintf("%q is not a port name; use the device's port name (at most %d characters).", ifc, MaxInterfaceNameLen))
		case !interfacePattern.MatchString(ifc):
			ps.Add(at, fmt.Sprintf("Invalid interface name %q", ifc),
				fmt.Sprintf("Interface names end up in CLI lines and device paths; use only %s, e.g. \"Ethernet1/1\".", interfaceChars))
		}
		if seen[ifc] && !reported[ifc] {
			reported[ifc] = true
			ps.Add(at, fmt.Sprintf("Interface %q listed twice", ifc), "List each interface once.")
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
