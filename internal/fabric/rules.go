package fabric

import (
	"fmt"
	"math"
	"unicode/utf8"
)

// Field rules say what one attribute's own value may be: a range, a fixed set of values, a
// name's length and characters, a map key's form. Each is declared once, here. Validate checks
// them; the provider builds its schema validators and the values its documentation lists from
// the same rules, so Terraform reports a mistake on the attribute at fault and the docs show
// what is accepted. What relates attributes to each other (a traffic class two classes use,
// shares that do not sum to 100, xon not below xoff) is checked by Validate only; Relations
// checks just that, for callers whose schema already checked the fields, so that each mistake
// is reported once.

// NoMax is the Max of an IntRule without an upper bound.
const NoMax = math.MaxInt64

// IntRule is the range an integer attribute (or each element of a set or map of integers)
// accepts.
type IntRule struct {
	What     string // the attribute as the message names it: "traffic_class", "DSCP"
	Min, Max int64
	Detail   string // what to do instead
}

// Check returns the problem's summary when v is outside the range.
func (r IntRule) Check(v int64) (summary string, ok bool) {
	switch {
	case v >= r.Min && v <= r.Max:
		return "", true
	case r.Max == NoMax:
		return fmt.Sprintf("%s %d is below %d", r.What, v, r.Min), false
	}
	return fmt.Sprintf("%s %d out of range %d-%d", r.What, v, r.Min, r.Max), false
}

// StringRule is what a string attribute (or each element of a set of strings, or each key of
// a map) accepts: one of a fixed set of values (OneOf), or a name or key of a given form (Doc).
type StringRule struct {
	OneOf []string // the accepted values, when they are a fixed set
	Doc   string   // otherwise: what the value looks like, for the documentation
	check func(v string) (summary, detail string, ok bool)
}

// Check returns the problem when v is not accepted.
func (r StringRule) Check(v string) (summary, detail string, ok bool) { return r.check(v) }

// oneOf accepts the values; anything else is "<summary> "v"".
func oneOf(summary, detail string, values ...string) StringRule {
	return StringRule{OneOf: values, check: func(v string) (string, string, bool) {
		for _, x := range values {
			if v == x {
				return "", "", true
			}
		}
		return fmt.Sprintf("%s %q", summary, v), detail, false
	}}
}

// nameRule is a policy or class name: non-empty, at most limit characters, restricted
// characters (names end up in device object names and CLI lines).
func nameRule(what string, limit int) StringRule {
	return StringRule{Doc: fmt.Sprintf("1-%d characters: %s", limit, nameChars), check: func(name string) (string, string, bool) {
		switch n := utf8.RuneCountInString(name); {
		case name == "":
			return what + " is empty", fmt.Sprintf("Give a name of 1-%d characters: %s.", limit, nameChars), false
		case n > limit:
			return fmt.Sprintf("%s longer than %d characters", what, limit),
				fmt.Sprintf("%q has %d characters; device object names allow at most %d. Use a shorter name.", name, n, limit), false
		case !namePattern.MatchString(name):
			return what + " has invalid characters",
				fmt.Sprintf("%q ends up in device object names and CLI lines; use only %s.", name, nameChars), false
		}
		return "", "", true
	}}
}

// keyRule is a map key that parse accepts.
func keyRule(doc string, parse func(string) (int, error)) StringRule {
	return StringRule{Doc: doc, check: func(k string) (string, string, bool) {
		if _, err := parse(k); err != nil {
			return "Invalid map key", err.Error() + ".", false
		}
		return "", "", true
	}}
}

// The rules of roce_qos_policy.
var (
	PolicyNameRule = nameRule("Policy name", MaxPolicyNameLen)
	ClassNameRule  = nameRule("Class name", MaxClassNameLen)
	QoSTrustRule   = oneOf("Invalid trust", "Set trust to dscp, pcp or dscp_pcp (the default is dscp).",
		string(TrustDSCP), string(TrustPCP), string(TrustDSCPPCP))
	DefaultTrafficClassRule = IntRule{"default_traffic_class", 0, MaxTrafficClass,
		"Set default_traffic_class to the traffic class (0-7) unlisted DSCPs should go to."}
	TrafficClassRule = IntRule{"traffic_class", 0, MaxTrafficClass, "Set traffic_class to a value from 0 to 7."}
	ClassDSCPRule    = IntRule{"DSCP", 0, MaxDSCP, fmt.Sprintf("List DSCP values from 0 to %d.", MaxDSCP)}
	ClassPCPRule     = IntRule{"PCP", 0, MaxPCP, fmt.Sprintf("List PCP values from 0 to %d.", MaxPCP)}
	ClassShareRule   = IntRule{"bandwidth_percent", 1, 100,
		"Set bandwidth_percent to a share from 1 to 100; shares of non-strict classes sum to 100."}
	MTURule = IntRule{"mtu", MinMTU, MaxMTU,
		fmt.Sprintf("Set mtu to a value from %d to %d bytes, or leave it unset.", MinMTU, MaxMTU)}
	ECNMinThresholdRule = IntRule{"ECN min_threshold_bytes", 1, NoMax,
		"Set min_threshold_bytes to the queue depth in bytes where ECN marking starts (e.g. 153600)."}
	MarkProbabilityRule = IntRule{"mark_probability_percent", 1, 100,
		"Set mark_probability_percent to a value from 1 to 100 (the default is 100)."}
	// PortNameRule is a switch port: interfaces of roce_qos_policy, interface of
	// roce_pfc_interface.
	PortNameRule = StringRule{Doc: fmt.Sprintf("1-%d characters: %s", MaxInterfaceNameLen, interfaceChars), check: checkPort}
)

func checkPort(name string) (string, string, bool) {
	switch {
	case name == "":
		return "Empty interface name", "Name the switch port, e.g. \"Ethernet1\".", false
	case utf8.RuneCountInString(name) > MaxInterfaceNameLen:
		// the summary names the port (its start): with two long keys in one map, Terraform 1.5.7
		// showed one error only when both had the same summary at the same place (TestAccSecurityHostileStrings)
		return fmt.Sprintf("Interface name %q… longer than %d characters", string([]rune(name)[:16]), MaxInterfaceNameLen),
			fmt.Sprintf("%q is not a port name; use the device's port name (at most %d characters).", name, MaxInterfaceNameLen), false
	case !interfacePattern.MatchString(name):
		return fmt.Sprintf("Invalid interface name %q", name),
			fmt.Sprintf("Interface names end up in CLI lines and device paths; use only %s, e.g. \"Ethernet1/1\".", interfaceChars), false
	}
	return "", "", true
}

// The rules of roce_pfc_interface.
var (
	PFCModeRule = oneOf("Invalid PFC mode",
		"Set mode to on, off or auto (the default is on; auto follows DCBX negotiation where the platform supports it).",
		PFCModeOn, PFCModeOff, PFCModeAuto)
	XoffRule = IntRule{"xoff_bytes", 1, NoMax,
		"Set xoff_bytes to the headroom in bytes at which the port sends PAUSE upstream (e.g. 122880), or leave it unset."}
	XonRule = IntRule{"xon_bytes", 0, NoMax,
		"Set xon_bytes to the buffer level in bytes at which the port resumes the priority (e.g. 61440), or leave it unset."}
	CableLengthRule = IntRule{"cable_length_m", 1, MaxCableLengthM,
		fmt.Sprintf("Set cable_length_m to the port's cable length in metres (1-%d), e.g. 40; headroom grows with it.", MaxCableLengthM)}
	WatchdogActionRule = oneOf("Invalid watchdog action", "Set action to drop (supported everywhere), forward or alert (SONiC only).",
		WatchdogDrop, WatchdogForward, WatchdogAlert)
	DetectionTimeRule = IntRule{"detection_time_ms", MinWatchdogDetectionMs, MaxWatchdogDetectionMs,
		fmt.Sprintf("Set detection_time_ms to %d-%d ms, at least the device's watchdog poll interval (e.g. 200).",
			MinWatchdogDetectionMs, MaxWatchdogDetectionMs)}
	RestorationTimeRule = IntRule{"restoration_time_ms", MinWatchdogRestorationMs, MaxWatchdogRestorationMs,
		fmt.Sprintf("Set restoration_time_ms to %d-%d ms (e.g. 400).", MinWatchdogRestorationMs, MaxWatchdogRestorationMs)}
)

// The rules of roce_nic_qos and roce_dcqcn_profile.
var (
	// NetdevNameRule is a host netdev: interface of roce_nic_qos and roce_dcqcn_profile.
	NetdevNameRule = StringRule{Doc: fmt.Sprintf("1-%d bytes: letters, digits, '_', '.' and '-', starting with a letter, digit or '_'", MaxNetdevLen),
		check: checkNetdevName}
	NICTrustRule = oneOf("Invalid trust", "Set trust to dscp or pcp (the default is dscp); a NIC classifies on one field only.",
		string(TrustDSCP), string(TrustPCP))
	PFCPriorityRule  = IntRule{"Priority", 0, MaxPriority, "List the PFC no-drop priorities, each from 0 to 7, e.g. [3]."}
	DSCPKeyRule      = keyRule(fmt.Sprintf(`"0" to "%d", without leading zeros`, MaxDSCP), ParseDSCPKey)
	DSCPPriorityRule = IntRule{"priority", 0, MaxPriority,
		"Map each DSCP to a priority from 0 to 7; unlisted DSCPs go to priority 0."}
	PriorityKeyRule = keyRule(fmt.Sprintf(`"0" to "%d", without leading zeros`, MaxPriority), ParsePriorityKey)
	PriorityTCRule  = IntRule{"traffic class", 0, MaxTrafficClass,
		"Map each priority to a traffic class from 0 to 7; unlisted priorities go to TC 0."}
	TCKeyRule    = keyRule(fmt.Sprintf(`"0" to "%d", without leading zeros`, MaxTrafficClass), ParseTCKey)
	ETSShareRule = IntRule{"bandwidth_percent", 0, 100,
		"Set bandwidth_percent to a share from 0 to 100; the non-strict shares sum to 100."}
	RoCEToSRule = IntRule{"roce_tos", 0, MaxRoCEToS,
		"roce_tos is the IP ToS byte (DSCP << 2 | ECN bits), 0-255; e.g. 106 is DSCP 26 with the ECN field 10 (ECN-capable transport)."}
	DCQCNPriorityRule = IntRule{"Priority", 0, MaxPriority,
		"List the priorities that get DCQCN (roce_rp and roce_np enabled), each from 0 to 7, e.g. [3]."}
	CNPDSCPRule     = IntRule{"cnp_dscp", 0, MaxDSCP, "Set cnp_dscp to the DSCP (0-63) the NIC marks CNPs with, e.g. 48."}
	CNPPriorityRule = IntRule{"cnp_priority", 0, MaxPriority, "Set cnp_priority to the priority (0-7) the NIC sends CNPs on, e.g. 6."}
)

func checkNetdevName(name string) (string, string, bool) {
	switch {
	case name == "":
		return "Empty interface name", netdevDetail, false
	case len(name) > MaxNetdevLen:
		return fmt.Sprintf("Interface name %q longer than %d bytes", name, MaxNetdevLen), netdevDetail, false
	case !netdevPattern.MatchString(name):
		return fmt.Sprintf("Invalid interface name %q", name), netdevDetail, false
	}
	return "", "", true
}

// DCQCNParamRule is the range of the DCQCN parameter name (an attribute of reaction_point or
// notification_point), false for a name that is not one.
func DCQCNParamRule(name string) (IntRule, bool) {
	r, ok := dcqcnRanges[name]
	if !ok {
		return IntRule{}, false
	}
	return IntRule{name, r.min, r.max, fmt.Sprintf("%s is %s.", name, r.detail)}, true
}

// Intent is an input that checks itself: a resource's intent, roce_profile's input.
type Intent interface {
	// Validate checks every rule.
	Validate() Problems
	check(c checks)
}

// all checks in against every rule (its Validate).
func all(in Intent) Problems {
	var ps Problems
	in.check(checks{&ps, true})
	return ps
}

// Relations checks in against the rules that relate its attributes only, leaving out the field
// rules: for a configuration whose schema validators checked those.
func Relations(in Intent) Problems {
	var ps Problems
	in.check(checks{&ps, false})
	return ps
}

// checks adds problems to ps. With fields false it leaves out those of the field rules (a
// schema checked them) but still tells whether a value passes, so that a relation skips what
// is invalid on its own (a traffic class out of range is not also "used twice").
type checks struct {
	ps     *Problems
	fields bool
}

func (c checks) add(at Path, summary, detail string) { c.ps.Add(at, summary, detail) }

// int checks v against r at at and reports whether it passes.
func (c checks) int(at Path, r IntRule, v int64) bool {
	summary, ok := r.Check(v)
	if !ok && c.fields {
		c.ps.Add(at, summary, r.Detail)
	}
	return ok
}

// str checks v against r at at and reports whether it passes.
func (c checks) str(at Path, r StringRule, v string) bool {
	summary, detail, ok := r.Check(v)
	if !ok && c.fields {
		c.ps.Add(at, summary, detail)
	}
	return ok
}

// ints checks each distinct value of a set against r, in order, returning those that pass.
func (c checks) ints(at Path, r IntRule, values []int) []int {
	var ok []int
	for _, v := range SortedSet(values) {
		if c.int(at, r, int64(v)) {
			ok = append(ok, v)
		}
	}
	return ok
}
