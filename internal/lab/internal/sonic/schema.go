package sonic

// What the SONiC switch accepts in CONFIG_DB: the QoS, buffer and PFC tables, each following its
// model in sonic-net/sonic-buildimage src/sonic-yang-models/yang-models (named per table below),
// which is what SONiC's YANG validation (GCU, `config apply-patch`, sonic-gnmi's validated
// writes) enforces. TestSONiCRulesAgreeWithSONiCYANG holds the lab to the models themselves,
// change by change, under yanglint. Where the lab is looser it says so: DEVICE_METADATA fields
// other than the few typed below take any string.

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// check validates one value (or key, or field name); d is the whole candidate CONFIG_DB, for
// references.
type check func(d configDB, v string) error

// issue is a violation of a cross-field rule, on one field of an object.
type issue struct{ field, msg string }

type tableSchema struct {
	yang      string           // the sonic-yang-models file the rules come from
	key       check            // the key's syntax and references
	fields    map[string]check // the known fields; nil for tables whose field names are data
	field     check            // when fields is nil: the rule for field names (map keys, ports)
	value     check            // when fields is nil: the rule for their values
	mandatory []string
	object    func(d configDB, key string, f map[string]string) []issue
}

var sonicTables = map[string]tableSchema{
	"DSCP_TO_TC_MAP":                     mapTable("sonic-dscp-tc-map.yang", "DSCP", 63, "traffic class", 15),
	"DOT1P_TO_TC_MAP":                    mapTable("sonic-dot1p-tc-map.yang", "DOT1P priority", 7, "traffic class", 15),
	"TC_TO_QUEUE_MAP":                    mapTable("sonic-tc-queue-map.yang", "traffic class", 15, "queue", 9),
	"TC_TO_PRIORITY_GROUP_MAP":           mapTable("sonic-tc-priority-group-map.yang", "traffic class", 15, "priority group", 7),
	"MAP_PFC_PRIORITY_TO_QUEUE":          mapTable("sonic-pfc-priority-queue-map.yang", "PFC priority", 7, "queue", 7),
	"PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": mapTable("sonic-pfc-priority-priority-group-map.yang", "PFC priority", 7, "priority group", 7),
	"TC_TO_DSCP_MAP":                     mapTable("sonic-tc-dscp-map.yang", "traffic class", 15, "DSCP", 63),
	"TC_TO_DOT1P_MAP":                    mapTable("sonic-tc-dot1p-map.yang", "traffic class", 15, "DOT1P priority", 7),
	"SCHEDULER": {
		yang: "sonic-scheduler.yang",
		key:  text(1, 0),
		fields: map[string]check{
			"type":       oneOf("DWRR", "WRR", "STRICT"),
			"weight":     uintIn(1, 100),
			"priority":   uintIn(0, 9),
			"meter_type": oneOf("packets", "bytes"),
			"cir":        uintIn(0, math.MaxUint64),
			"pir":        uintIn(0, math.MaxUint64),
			"cbs":        uintIn(0, math.MaxUint32),
			"pbs":        uintIn(0, math.MaxUint32),
		},
		object: schedulerRules,
	},
	"WRED_PROFILE": {
		yang:   "sonic-wred-profile.yang",
		key:    pattern(`[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}`, "a WRED profile name"),
		fields: wredFields(),
		object: wredRules,
	},
	"QUEUE": {
		yang: "sonic-queue.yang",
		key:  portAnd("CPU", text(1, 0)), // qindex is a plain string in sonic-queue.yang (its pattern check is commented out)
		fields: map[string]check{
			"scheduler":    ref("SCHEDULER"),
			"wred_profile": ref("WRED_PROFILE"),
		},
	},
	"PORT_QOS_MAP": {
		yang: "sonic-port-qos-map.yang",
		key:  portOr("global"),
		fields: map[string]check{
			"dscp_to_tc_map":   ref("DSCP_TO_TC_MAP"),
			"dot1p_to_tc_map":  ref("DOT1P_TO_TC_MAP"),
			"tc_to_queue_map":  ref("TC_TO_QUEUE_MAP"),
			"tc_to_pg_map":     ref("TC_TO_PRIORITY_GROUP_MAP"),
			"pfc_to_queue_map": ref("MAP_PFC_PRIORITY_TO_QUEUE"),
			"pfc_to_pg_map":    ref("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"),
			"tc_to_dscp_map":   ref("TC_TO_DSCP_MAP"),
			"tc_to_dot1p_map":  ref("TC_TO_DOT1P_MAP"),
			"scheduler":        ref("SCHEDULER"),
			"pfc_enable":       pattern(`([0-7](,[0-7])*)?`, "a comma-separated list of priorities 0-7"),
			"pfcwd_sw_enable":  pattern(`([0-7](,[0-7])*)?`, "a comma-separated list of priorities 0-7"),
		},
	},
	"BUFFER_POOL": {
		yang: "sonic-buffer-pool.yang",
		key:  text(1, 0),
		fields: map[string]check{
			"type":       oneOf("ingress", "egress", "both"),
			"mode":       oneOf("static", "dynamic"),
			"size":       uintIn(0, math.MaxUint64),
			"xoff":       uintIn(0, math.MaxUint64),
			"percentage": uintIn(0, math.MaxUint8),
		},
		mandatory: []string{"type", "mode"},
		object:    bufferPoolRules,
	},
	"BUFFER_PROFILE": {
		yang: "sonic-buffer-profile.yang",
		key:  text(1, 0),
		fields: map[string]check{
			"pool":                  ref("BUFFER_POOL"),
			"size":                  uintIn(0, math.MaxUint64),
			"static_th":             uintIn(0, math.MaxUint64),
			"dynamic_th":            intIn(-8, 7),
			"xon":                   uintIn(0, math.MaxUint64),
			"xoff":                  uintIn(0, math.MaxUint64),
			"xon_offset":            uintIn(0, math.MaxUint64),
			"headroom_type":         oneOf("static", "dynamic"),
			"packet_discard_action": oneOf("drop", "trim"),
		},
		mandatory: []string{"pool", "size"},
	},
	"BUFFER_PG": {
		yang:   "sonic-buffer-pg.yang",
		key:    portAnd("", indexRange("priority group", 7)),
		fields: map[string]check{"profile": refOrNull("BUFFER_PROFILE")},
	},
	"BUFFER_QUEUE": {
		yang:   "sonic-buffer-queue.yang",
		key:    portAnd("", indexRange("queue index", 15)),
		fields: map[string]check{"profile": ref("BUFFER_PROFILE")},
	},
	"CABLE_LENGTH": {
		yang:  "sonic-cable-length.yang",
		key:   pattern(`[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}`, "a cable length list name"),
		field: portRef,
		value: pattern(`[0-9]+m`, `a length in metres such as "40m"`),
	},
	"PFC_WD": {
		yang: "sonic-pfcwd.yang",
		key:  portOr("GLOBAL"),
		fields: map[string]check{
			"action":           oneOf("drop", "forward", "alert"),
			"detection_time":   uintIn(100, 5000),
			"restoration_time": uintIn(100, 60000),
			"pfc_stat_history": oneOf("enable", "disable"),
			"POLL_INTERVAL":    uintIn(100, 1000),
		},
		object: pfcwdRules,
	},
	"PORT": {
		yang: "sonic-port.yang",
		key:  text(1, 128),
		fields: map[string]check{
			"alias":         text(1, 128),
			"lanes":         text(1, 128),
			"speed":         uintIn(1, 1600000),
			"mtu":           uintIn(68, 9216),
			"admin_status":  oneOf("up", "down"),
			"index":         uintIn(0, math.MaxUint16),
			"description":   text(0, 255),
			"fec":           oneOf("rs", "fc", "none", "auto"),
			"autoneg":       oneOf("on", "off"),
			"link_training": oneOf("on", "off"),
			"pfc_asym":      oneOf("on", "off"),
		},
		mandatory: []string{"lanes", "speed"},
	},
	"DEVICE_METADATA": {
		yang: "sonic-device_metadata.yang",
		key:  oneOf("localhost"),
		fields: map[string]check{
			"hostname":             text(1, 255),
			"hwsku":                text(1, 255),
			"platform":             text(1, 255),
			"mac":                  pattern(`[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}`, "a MAC address"),
			"type":                 text(1, 255),
			"bgp_asn":              uintIn(1, math.MaxUint32),
			"buffer_model":         oneOf("traditional", "dynamic"),
			"default_pfcwd_status": oneOf("enable", "disable"),
		},
	},
	"DEFAULT_LOSSLESS_BUFFER_PARAMETER": {
		yang: "sonic-default-lossless-buffer-parameter.yang",
		key:  pattern(`[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}`, "a list name"),
		fields: map[string]check{
			"default_dynamic_th":   intIn(-8, 7),
			"over_subscribe_ratio": uintIn(0, math.MaxUint16),
		},
		mandatory: []string{"default_dynamic_th"},
	},
	"LOSSLESS_TRAFFIC_PATTERN": {
		yang: "sonic-lossless-traffic-pattern.yang",
		key:  pattern(`[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}`, "a list name"),
		fields: map[string]check{
			"mtu":                     uintIn(1, 9216),
			"small_packet_percentage": uintIn(0, 100),
		},
		mandatory: []string{"mtu", "small_packet_percentage"},
	},
	"FLEX_COUNTER_TABLE": {
		yang: "sonic-flex_counter.yang",
		key: oneOf("BUFFER_POOL_WATERMARK", "DEBUG_COUNTER", "PFCWD", "PG_DROP", "PG_WATERMARK", "PORT", "PORT_RATES",
			"PORT_BUFFER_DROP", "QUEUE", "QUEUE_WATERMARK", "RIF", "RIF_RATES", "ACL", "TUNNEL", "WRED_ECN_QUEUE", "WRED_ECN_PORT", "SWITCH"),
		fields: map[string]check{
			"FLEX_COUNTER_STATUS":       oneOf("enable", "disable"),
			"FLEX_COUNTER_DELAY_STATUS": oneOf("true", "false"),
			"POLL_INTERVAL":             uintIn(100, math.MaxUint32),
		},
	},
}

// deviceMetadataFields are the other leaves of sonic-device_metadata.yang's localhost container;
// the lab takes any string in them.
var deviceMetadataFields = []string{"asic_id", "default_bgp_status", "docker_routing_config_mode", "deployment_id",
	"frr_mgmt_framework_config", "synchronous_mode", "yang_config_validation", "cloudtype", "region", "sub_role",
	"downstream_subrole", "resource_type", "mgmt_type", "cluster", "subtype", "peer_switch", "storage_device", "asic_name",
	"switch_id", "switch_type", "max_cores", "dhcp_server", "bgp_adv_lo_prefix_as_128", "suppress", "rack_mgmt_map",
	"timezone", "create_only_config_db_buffers", "bgp_router_id", "chassis_hostname", "slice_type", "location_type",
	"nexthop_group", "ring_thread_enabled", "orch_northbond_dash_zmq_enabled", "syslog_with_osversion", "syslog_counter",
	"has_sonic_dhcpv4_relay", "zebra_nexthop", "use_template_render_for_restore", "dpu_auto_recovery", "bmc_if_name",
	"bmc_if_addr", "bmc_addr", "bmc_net_mask"}

func init() {
	for _, f := range deviceMetadataFields {
		sonicTables["DEVICE_METADATA"].fields[f] = text(0, 0)
	}
}

// mapTable is a QoS map: a named object whose fields map one index to another.
func mapTable(yang, from string, fromMax uint64, to string, toMax uint64) tableSchema {
	return tableSchema{
		yang:  yang,
		key:   pattern(`[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}`, "a map name (letters, digits, - and _, at most 32)"),
		field: decimal(from, fromMax),
		value: decimal(to, toMax),
	}
}

func wredFields() map[string]check {
	f := map[string]check{"ecn": oneOf("ecn_none", "ecn_green", "ecn_yellow", "ecn_red",
		"ecn_green_yellow", "ecn_green_red", "ecn_yellow_red", "ecn_all")}
	for _, c := range wredColours {
		f[c+"_min_threshold"] = uintIn(0, math.MaxUint64)
		f[c+"_max_threshold"] = uintIn(0, math.MaxUint64)
		f[c+"_drop_probability"] = uintIn(0, 100)
		f["wred_"+c+"_enable"] = oneOf("true", "false")
	}
	return f
}

var wredColours = []string{"green", "yellow", "red"}

func uintIn(lo, hi uint64) check {
	return integerIn(lo, hi, func(v string) (uint64, error) { return strconv.ParseUint(v, 10, 64) })
}

func intIn(lo, hi int64) check {
	return integerIn(lo, hi, func(v string) (int64, error) { return strconv.ParseInt(v, 10, 64) })
}

// integerIn checks that a field is a decimal integer in [lo, hi], as parse reads it.
func integerIn[N int64 | uint64](lo, hi N, parse func(string) (N, error)) check {
	return func(_ configDB, v string) error {
		n, err := parse(v)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("%q is not an integer in %d..%d", v, lo, hi)
		}
		return nil
	}
}

// decimal is an index written as YANG patterns such as "6[0-3]|[1-5][0-9]?|[0-9]?" spell
// it: plain decimal, no sign, no leading zero.
func decimal(what string, maxValue uint64) check {
	return func(_ configDB, v string) error {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n > maxValue || strconv.FormatUint(n, 10) != v {
			return fmt.Errorf("%q is not a %s 0-%d", v, what, maxValue)
		}
		return nil
	}
}

func oneOf(values ...string) check {
	return func(_ configDB, v string) error {
		for _, want := range values {
			if v == want {
				return nil
			}
		}
		return fmt.Errorf("%q is not one of %s", v, strings.Join(values, ", "))
	}
}

// pattern is a YANG pattern: implicitly anchored.
func pattern(expr, what string) check {
	re := regexp.MustCompile(`^(?:` + expr + `)$`)
	return func(_ configDB, v string) error {
		if !re.MatchString(v) {
			return fmt.Errorf("%q is not %s (pattern %s)", v, what, expr)
		}
		return nil
	}
}

// text is a string of minLen..maxLen bytes (maxLen 0: unbounded).
func text(minLen, maxLen int) check {
	return func(_ configDB, v string) error {
		switch {
		case maxLen == 0 && len(v) < minLen:
			return fmt.Errorf("%q must be at least %d characters long", v, minLen)
		case maxLen > 0 && (len(v) < minLen || len(v) > maxLen):
			return fmt.Errorf("%q must be %d to %d characters long", v, minLen, maxLen)
		}
		return nil
	}
}

// indexRange is "N" or "N-M" with N <= M <= maxIndex, as QUEUE and BUFFER_PG keys write queues
// and priority groups.
func indexRange(what string, maxIndex uint64) check {
	one := decimal(what, maxIndex)
	return func(d configDB, v string) error {
		lo, hi, isRange := strings.Cut(v, "-")
		if err := one(d, lo); err != nil {
			return err
		}
		if !isRange {
			return nil
		}
		if err := one(d, hi); err != nil {
			return err
		}
		if a, b := atoiOr(lo, 0), atoiOr(hi, 0); a > b {
			return fmt.Errorf("%q is not a range of %s: %d > %d", v, what, a, b)
		}
		return nil
	}
}

// ref is a leafref to a key of table: the bare key. The "[TABLE|key]" form older
// config_db.json files carry is no key of the table, and the models refuse it (leafref).
func ref(table string) check {
	return func(d configDB, v string) error {
		key := v
		if !d.has(table, key) {
			return fmt.Errorf("%q refers to %s|%s, which does not exist (leafref)", v, table, key)
		}
		return nil
	}
}

// refOrNull is a leafref that also takes "NULL" (BUFFER_PG profile under the dynamic buffer
// model: buffermgrd computes the lossless profile).
func refOrNull(table string) check {
	r := ref(table)
	return func(d configDB, v string) error {
		if v == "NULL" {
			return nil
		}
		return r(d, v)
	}
}

var portRef = func(d configDB, v string) error {
	if !d.has("PORT", v) {
		return fmt.Errorf("%q is not a port: PORT|%s does not exist (leafref)", v, v)
	}
	return nil
}

// portOr is a port key or one literal ("global", "GLOBAL").
func portOr(literal string) check {
	return func(d configDB, v string) error {
		if v == literal {
			return nil
		}
		if err := portRef(d, v); err != nil {
			return fmt.Errorf("%w; or %q", err, literal)
		}
		return nil
	}
}

// portAnd is a "<port>|<index>" key; literal, when set, is a non-port name allowed as well.
func portAnd(literal string, index check) check {
	return func(d configDB, v string) error {
		port, idx, ok := strings.Cut(v, "|")
		if !ok || strings.Contains(idx, "|") {
			return fmt.Errorf("%q is not <port>|<index> (multi-ASIC keys host|asic|port|index are not served)", v)
		}
		if port != literal || literal == "" {
			if err := portRef(d, port); err != nil {
				return err
			}
		}
		return index(d, idx)
	}
}

func atoiOr(s string, def uint64) uint64 {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return def
	}
	return n
}
