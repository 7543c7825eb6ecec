package fabric

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Limits of roce_nic_qos and roce_dcqcn_profile.
const (
	MaxPriority  = 7
	MaxRoCEToS   = 255
	MaxNetdevLen = 15 // IFNAMSIZ - 1
	MaxU32       = 1<<32 - 1
)

// netdevPattern is stricter than the kernel's dev_valid_name (1-15 bytes, not "." or "..", no
// '/', ':' or whitespace): the name ends up in shell commands run over SSH, so only characters
// no shell treats specially are allowed, and it cannot start with '-' (an option) or '.'.
var netdevPattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}$`)

// ValidNetdevName reports whether name is a netdev name the provider accepts.
func ValidNetdevName(name string) bool { return netdevPattern.MatchString(name) }

const netdevDetail = "Linux allows netdev names of 1-15 bytes without '/', ':' or blanks; because the name is " +
	"placed in shell commands run on the host over SSH, the provider further allows only letters, digits, " +
	"'_', '.' and '-', starting with a letter, digit or '_' (pattern ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}$), " +
	"so no shell metacharacter can appear. Use the name `ip link` shows, e.g. \"eth0\" or \"ens1f0np0\"."

// keyPattern accepts canonical decimal map keys: "0", "7", "63"; not "064", "+1", " 1" or "1.0".
var keyPattern = regexp.MustCompile(`^(0|[1-9][0-9]{0,2})$`)

func parseKey(what, k string, limit int) (int, error) {
	if !keyPattern.MatchString(k) {
		return 0, fmt.Errorf("%s key %q is not a decimal number without leading zeros: write keys as \"0\" to \"%d\"", what, k, limit)
	}
	v, _ := strconv.Atoi(k) // at most 3 digits: cannot fail
	if v > limit {
		return 0, fmt.Errorf("%s key %q is out of range 0-%d", what, k, limit)
	}
	return v, nil
}

// ParseDSCPKey parses a key of dscp_to_priority: "0" to "63", no leading zeros.
func ParseDSCPKey(k string) (int, error) { return parseKey("DSCP", k, MaxDSCP) }

// ParsePriorityKey parses a key of priority_to_tc: "0" to "7", no leading zeros.
func ParsePriorityKey(k string) (int, error) { return parseKey("Priority", k, MaxPriority) }

// ParseTCKey parses a key of ets: "0" to "7", no leading zeros.
func ParseTCKey(k string) (int, error) { return parseKey("Traffic class", k, MaxTrafficClass) }

// ParseKeys converts a Terraform map keyed by decimal strings into an int-keyed map. Every bad
// key is reported at at[key] (e.g. dscp_to_priority["064"]) and left out of the result.
func ParseKeys[V any](at Path, m map[string]V, parse func(string) (int, error)) (map[int]V, Problems) {
	var ps Problems
	out := make(map[int]V, len(m))
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v, err := parse(k)
		if err != nil {
			ps.Add(at.Key(k), "Invalid map key", err.Error()+".")
			continue
		}
		out[v] = m[k]
	}
	return out, ps
}

// Validate checks n against every rule of roce_nic_qos and returns all problems found. Map
// keys are already parsed (see ParseKeys); the paths render them in decimal.
func (n NICQoS) Validate() Problems { return all(n) }

func (n NICQoS) check(c checks) {
	c.str(Root("interface"), NetdevNameRule, n.Interface)
	c.str(Root("trust"), NICTrustRule, string(n.Trust))
	c.ints(Root("pfc_priorities"), PFCPriorityRule, n.PFCPriorities)
	n.validateDSCPMap(c)
	at := Root("priority_to_tc")
	for _, p := range slices.Sorted(maps.Keys(n.PriorityToTC)) {
		k := at.Key(strconv.Itoa(p))
		if c.str(k, PriorityKeyRule, strconv.Itoa(p)) {
			c.int(k, PriorityTCRule, int64(n.PriorityToTC[p]))
		}
	}
	if n.ETS != nil {
		validateETS(c, n.ETS)
	}
	if n.RoCEToS != nil {
		c.int(Root("roce_tos"), RoCEToSRule, int64(*n.RoCEToS))
	}
	checkPersist(c, n.Interface, n.Persist)
}

// checkPersist refuses a boot unit for a netdev whose name has a '-': systemd names the
// netdev's device unit with the '-' escaped (sys-subsystem-net-devices-a\x2db.device), a
// backslash the provider does not put in the shell commands it sends.
func checkPersist(c checks, ifname string, persist bool) {
	if persist && strings.Contains(ifname, "-") {
		c.add(Root("persist"), fmt.Sprintf("persist is not supported for netdev %q", ifname),
			"The boot unit that re-applies these settings binds to the netdev's systemd device unit, whose name escapes "+
				"the '-' of "+ifname+" with a backslash, which the provider does not send to a host. Set persist = false "+
				"(and re-apply after a reboot), or rename the netdev without '-' (e.g. with a udev rule or systemd .link file).")
	}
}

func (n NICQoS) validateDSCPMap(c checks) {
	at := Root("dscp_to_priority")
	if n.Trust == TrustPCP && len(n.DSCPToPriority) > 0 {
		c.add(at, "dscp_to_priority set with trust = pcp",
			"With trust = pcp the NIC classifies on the VLAN PCP and ignores DSCP; on mlx5 writing a DSCP mapping "+
				"even switches the port back to DSCP trust. Remove dscp_to_priority, or set trust = dscp.")
		return
	}
	for _, d := range slices.Sorted(maps.Keys(n.DSCPToPriority)) {
		k := at.Key(strconv.Itoa(d))
		if c.str(k, DSCPKeyRule, strconv.Itoa(d)) {
			c.int(k, DSCPPriorityRule, int64(n.DSCPToPriority[d]))
		}
	}
}

// validateETS checks the ets map, owned whole: unlisted TCs become ETS TCs with 0 %, so unless
// all eight TCs are strict the non-strict shares must sum to exactly 100 (mlx5 rejects an ETS
// configuration whose ETS TCs do not sum to 100).
func validateETS(c checks, ets map[int]ETSClass) {
	at := Root("ets")
	sum, strict, sumValid := 0, 0, true
	for _, tc := range slices.Sorted(maps.Keys(ets)) {
		e := ets[tc]
		k := at.Key(strconv.Itoa(tc))
		if !c.str(k, TCKeyRule, strconv.Itoa(tc)) {
			sumValid = false
			continue
		}
		switch {
		case e.BandwidthPercent == nil && !e.StrictPriority:
			c.add(k, "TC has neither bandwidth_percent nor strict_priority",
				"Set bandwidth_percent (an ETS share, 0-100) or strict_priority = true, or remove the TC (unlisted TCs get 0 %).")
			sumValid = false
		case e.BandwidthPercent != nil && e.StrictPriority:
			c.add(k.Attr("bandwidth_percent"), "bandwidth_percent set on a strict-priority TC",
				"A strict TC takes no bandwidth share (mlnx_qos requires 0 for it). Remove bandwidth_percent or strict_priority.")
			sumValid = false
		case e.StrictPriority:
			strict++
		default:
			if c.int(k.Attr("bandwidth_percent"), ETSShareRule, int64(*e.BandwidthPercent)) {
				sum += *e.BandwidthPercent
			} else {
				sumValid = false
			}
		}
	}
	if sumValid && strict < MaxTrafficClass+1 && sum != 100 {
		c.add(at, fmt.Sprintf("ETS bandwidth shares sum to %d%%, not 100%%", sum),
			"ets is owned whole: TCs not listed are ETS TCs with 0 %, and the shares of all non-strict TCs must sum to exactly 100. "+
				"Adjust bandwidth_percent, or make every TC strict.")
	}
}

// dcqcnRange is the accepted range of one DCQCN parameter. Every parameter is a u32 in the
// driver (cc_params files are parsed with kstrtou32); tighter ranges are NVIDIA's documented
// ones ("DCQCN CC Parameters", DOCA/MLNX_OFED documentation).
type dcqcnRange struct {
	min, max int64
	detail   string
}

var dcqcnRanges = map[string]dcqcnRange{
	"time_reset_us":                    {0, MaxU32, "microseconds between rate increases (rp_time_reset)"},
	"byte_reset":                       {0, MaxU32, "bytes sent between rate increases (rp_byte_reset)"},
	"threshold":                        {0, MaxU32, "rate-increase stage count (rp_threshold)"},
	"ai_rate_mbps":                     {0, MaxU32, "additive-increase step in Mbps (rp_ai_rate)"},
	"hai_rate_mbps":                    {0, MaxU32, "hyper-increase step in Mbps (rp_hai_rate)"},
	"min_rate_mbps":                    {1, MaxU32, "minimum QP rate in Mbps, at least 1 (rp_min_rate)"},
	"max_rate_mbps":                    {0, MaxU32, "maximum QP rate in Mbps, 0 = line rate (rp_max_rate)"},
	"dce_tcp_g":                        {0, 1023, "alpha gain, a fraction of 1024: 0-1023 (rp_dce_tcp_g)"},
	"dce_tcp_rtt_us":                   {1, 131071, "alpha update period in microseconds: 1-131071 (rp_dce_tcp_rtt)"},
	"initial_alpha":                    {1, 1023, "initial alpha, a fraction of 1024: 1-1023 (rp_initial_alpha_value)"},
	"rate_reduce_monitor_period_us":    {1, MaxU32, "microseconds between rate reductions, at least 1 (rp_rate_reduce_monitor_period)"},
	"min_dec_factor_percent":           {0, 100, "floor of a single rate cut, percent of the current rate kept: 0-100 (rp_min_dec_fac; 100 disables cuts)"},
	"gd":                               {0, MaxU32, "alpha to rate-cut shift, log2 (rp_gd)"},
	"rate_to_set_on_first_cnp_mbps":    {0, MaxU32, "rate on the first CNP in Mbps, 0 = unchanged (rp_rate_to_set_on_first_cnp)"},
	"clamp_target_rate":                {0, 1, "a boolean (rp_clamp_tgt_rate)"},
	"clamp_target_rate_after_time_inc": {0, 1, "a boolean (rp_clamp_tgt_rate_ati)"},
	"min_time_between_cnps_us":         {0, MaxU32, "microseconds between CNPs of a flow (np_min_time_between_cnps)"},
}

// Validate checks d against every rule of roce_dcqcn_profile and returns all problems found.
func (d DCQCN) Validate() Problems { return all(d) }

func (d DCQCN) check(c checks) {
	c.str(Root("interface"), NetdevNameRule, d.Interface)
	c.ints(Root("priorities"), DCQCNPriorityRule, d.Priorities)
	c.int(Root("cnp_dscp"), CNPDSCPRule, int64(d.CNPDSCP))
	c.int(Root("cnp_priority"), CNPPriorityRule, int64(d.CNPPriority))
	checkParams(c, Root("reaction_point"), d.ReactionPoint, ReactionPointParams)
	checkParams(c, Root("notification_point"), d.NotificationPoint, NotificationPointParams)
	lo, okLo := d.ReactionPoint["min_rate_mbps"]
	hi, okHi := d.ReactionPoint["max_rate_mbps"]
	if okLo && okHi && hi != 0 && lo > hi {
		c.add(Root("reaction_point").Attr("min_rate_mbps"),
			fmt.Sprintf("min_rate_mbps %d is above max_rate_mbps %d", lo, hi),
			"Set min_rate_mbps to at most max_rate_mbps, or set max_rate_mbps = 0 (line rate).")
	}
	checkPersist(c, d.Interface, d.Persist)
}

// checkParams checks each parameter's name and range: field rules (the schema has one
// attribute per parameter, each with its range).
func checkParams(c checks, at Path, params map[string]int64, known []string) {
	for _, name := range slices.Sorted(maps.Keys(params)) {
		r, ok := DCQCNParamRule(name)
		if !ok || !slices.Contains(known, name) {
			if c.fields {
				c.add(at.Attr(name), fmt.Sprintf("Unknown parameter %q", name), fmt.Sprintf("Use one of: %s.", quoteList(known)))
			}
			continue
		}
		c.int(at.Attr(name), r, params[name])
	}
}
