package nvued

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// spec is the part of NVUE's OpenAPI schema (Cumulus Linux 5.12, "NVUE OpenAPI Specification")
// the lab checks: the QoS objects roce_qos_policy and roce_pfc_interface write, with their
// keys, types and ranges. Objects of the schema the lab does not model are taken as they come.
type spec struct {
	fields   map[string]*spec // an object with these keys only
	keys     *keyRange        // a collection keyed by decimal numbers in a range...
	names    []string         // ...or by these names only...
	anyKey   bool             // ...or by any name
	elem     *spec            // a collection's values
	integer  *intRange
	enum     []string
	str, any bool
}

type keyRange struct{ min, max int }
type intRange struct{ min, max int64 }

func obj(f map[string]*spec) *spec   { return &spec{fields: f} }
func keyed(hi int, elem *spec) *spec { return &spec{keys: &keyRange{0, hi}, elem: elem} }
func named(elem *spec) *spec         { return &spec{anyKey: true, elem: elem} }
func integer(lo, hi int64) *spec     { return &spec{integer: &intRange{lo, hi}} }
func enum(v ...string) *spec         { return &spec{enum: v} }
func anything() *spec                { return &spec{any: true} }
func profile() *spec                 { return obj(map[string]*spec{"profile": {str: true}}) }
func empty() *spec                   { return obj(map[string]*spec{}) }
func onOff(v ...string) *spec        { return enum(v...) }

const maxInt = 1<<53 - 1

var enableDisable = []string{"enable", "disable"}

var qosSpec = obj(map[string]*spec{
	"mapping": named(obj(map[string]*spec{
		"trust":           enum("l2", "l3", "port", "both"),
		"port-default-sp": integer(0, 7),
		"dscp":            keyed(63, obj(map[string]*spec{"switch-priority": integer(0, 7)})),
		"pcp":             keyed(7, obj(map[string]*spec{"switch-priority": integer(0, 7)})),
	})),
	"egress-scheduler": named(obj(map[string]*spec{
		"traffic-class": keyed(7, obj(map[string]*spec{"mode": enum("dwrr", "strict"), "bw-percent": integer(0, 100)})),
	})),
	"congestion-control": named(obj(map[string]*spec{
		"traffic-class": keyed(7, obj(map[string]*spec{
			"ecn": onOff(enableDisable...), "red": onOff(enableDisable...),
			"min-threshold": integer(1, maxInt), "max-threshold": integer(1, maxInt), "probability": integer(0, 100),
		})),
	})),
	"pfc": named(obj(map[string]*spec{
		"switch-priority": keyed(7, empty()),
		"tx":              onOff(enableDisable...), "rx": onOff(enableDisable...),
		"xoff-threshold": integer(1, maxInt), "xon-threshold": integer(1, maxInt), "port-buffer": integer(1, maxInt),
		"cable-length": integer(1, 100000),
	})),
	"egress-queue-mapping": {names: []string{"default-global"}, elem: obj(map[string]*spec{
		"switch-priority": keyed(7, obj(map[string]*spec{"traffic-class": integer(0, 7)})),
	})},
	"roce": obj(map[string]*spec{
		"enable": onOff("on", "off"), "mode": enum("lossy", "lossless", "lossless-single-ipool"), "cable-length": integer(1, 100000),
	}),
	"traffic-pool": {names: []string{"default-lossy", "default-lossless", "roce-lossy", "roce-lossless", "mc-lossy"},
		elem: obj(map[string]*spec{"memory-percent": integer(1, 100), "switch-priority": keyed(7, empty())})},
	"pfc-watchdog":          obj(map[string]*spec{"polling-interval": integer(100, 5000), "robustness": integer(1, 1000)}),
	"advance-buffer-config": anything(),
	"egress-shaper":         anything(),
	"link-pause":            anything(),
	"remark":                anything(),
})

var interfaceQoSSpec = obj(map[string]*spec{
	"mapping": profile(), "egress-scheduler": profile(), "congestion-control": profile(), "pfc": profile(),
	"link-pause": profile(), "egress-shaper": profile(), "remark": profile(),
	"pfc-watchdog": obj(map[string]*spec{"state": onOff(enableDisable...)}),
})

// checkPatch checks a PATCH body at path against the schema; "" when it conforms. The messages
// are python-jsonschema's, the " - '<path>'" after them connexion's; which keyword NVUE's own
// validator reports, and the wording of an out-of-range key, are assumed (cumulus-switch.md,
// "Schema checks at PATCH (400)").
func checkPatch(path []string, body any) string {
	for i := len(path) - 1; i >= 0; i-- {
		body = map[string]any{path[i]: body}
	}
	root, ok := body.(map[string]any)
	if !ok {
		return fmt.Sprintf("%s is not of type 'object'", show(body))
	}
	if q, ok := root["qos"]; ok {
		if msg := qosSpec.check(q, []string{"qos"}); msg != "" {
			return msg
		}
	}
	if ifs, ok := root["interface"].(map[string]any); ok {
		for _, name := range slices.Sorted(maps.Keys(ifs)) {
			m, ok := ifs[name].(map[string]any)
			if !ok {
				continue
			}
			if q, ok := m["qos"]; ok {
				if msg := interfaceQoSSpec.check(q, []string{"interface", name, "qos"}); msg != "" {
					return msg
				}
			}
		}
	}
	return ""
}

func (s *spec) check(v any, at []string) string {
	if v == nil || s.any {
		return "" // null unsets; unmodelled objects pass
	}
	where := func(msg string) string { return fmt.Sprintf("%s - '%s'", msg, strings.Join(at, ".")) }
	switch {
	case s.integer != nil:
		n, ok := v.(json.Number)
		i, err := n.Int64()
		if !ok || err != nil {
			return where(fmt.Sprintf("%s is not of type 'integer'", show(v)))
		}
		if i < s.integer.min {
			return where(fmt.Sprintf("%d is less than the minimum of %d", i, s.integer.min))
		}
		if i > s.integer.max {
			return where(fmt.Sprintf("%d is greater than the maximum of %d", i, s.integer.max))
		}
		return ""
	case s.enum != nil:
		if str, ok := v.(string); !ok || !slices.Contains(s.enum, str) {
			return where(fmt.Sprintf("%s is not one of %s", show(v), list(s.enum)))
		}
		return ""
	case s.str:
		if _, ok := v.(string); !ok {
			return where(fmt.Sprintf("%s is not of type 'string'", show(v)))
		}
		return ""
	}
	m, ok := v.(map[string]any)
	if !ok {
		return where(fmt.Sprintf("%s is not of type 'object'", show(v)))
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var sub *spec
		switch {
		case s.fields != nil:
			if sub = s.fields[k]; sub == nil {
				// OAS512 closes these objects with x-unevaluatedProperties: false.
				return where(fmt.Sprintf("Unevaluated properties are not allowed ('%s' was unexpected)", k))
			}
		case s.keys != nil:
			n, err := strconv.Atoi(k)
			if err != nil || strconv.Itoa(n) != k {
				return where(fmt.Sprintf("'%s' is not a 'integer'", k))
			}
			if n < s.keys.min || n > s.keys.max {
				// The lab's own words: NVUE checks keys against its x-propertyNames
				// schemas, and its text for a key out of range is not public.
				return where(fmt.Sprintf("%d is not a valid key (%d-%d)", n, s.keys.min, s.keys.max))
			}
			sub = s.elem
		case s.names != nil:
			if !slices.Contains(s.names, k) {
				return where(fmt.Sprintf("'%s' is not one of %s", k, list(s.names)))
			}
			sub = s.elem
		default:
			if !profileName.MatchString(k) {
				return where(fmt.Sprintf("'%s' is not a 'profile-name'", k))
			}
			sub = s.elem
		}
		if msg := sub.check(m[k], append(slices.Clone(at), k)); msg != "" {
			return msg
		}
	}
	return ""
}

// profileName is the lab's reading of NVUE's "profile-name" format (its pattern is not in the
// public OpenAPI copy): assumed.
var profileName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$`)

func show(v any) string {
	switch v := v.(type) {
	case string:
		return "'" + v + "'"
	case json.Number:
		return v.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func list(v []string) string {
	q := make([]string, len(v))
	for i, s := range v {
		q[i] = "'" + s + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}

type problem struct{ location, reason string }

// validate is what NVUE checks when it applies a revision (its config_invalid issues): the
// OpenAPI's QoS constraints and the rules NVIDIA's Quality of Service page states. The reasons
// are the lab's words (NVUE's are not public): assumed.
func validate(tree map[string]any, ports []string) []problem {
	var out []problem
	qos, _ := tree["qos"].(map[string]any)
	ifs, _ := tree["interface"].(map[string]any)
	pfc, _ := qos["pfc"].(map[string]any)
	if len(pfc) > 0 && !losslessBuffers(qos) {
		// OAS512 qos constraints: a PFC profile needs traffic-pool default-lossless or
		// roce-lossless, lossless advanced buffers, or RoCE in a lossless mode.
		out = append(out, problem{"qos.pfc", "PFC requires a lossless traffic pool or RoCE lossless mode (nv set qos roce)"})
	}
	scheds, _ := qos["egress-scheduler"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(scheds)) {
		sum := int64(0)
		prof, _ := scheds[name].(map[string]any)
		tcs, _ := prof["traffic-class"].(map[string]any)
		for _, tc := range tcs {
			if m, ok := tc.(map[string]any); ok && m["mode"] == "dwrr" {
				if n, ok := m["bw-percent"].(json.Number); ok {
					i, _ := n.Int64()
					sum += i
				}
			}
		}
		if sum > 100 {
			// "The combined total of values you assign to bw_percent must be less than or
			// equal to 100" (Quality of Service).
			out = append(out, problem{"qos.egress-scheduler." + name, fmt.Sprintf("bw-percent of the traffic classes adds up to %d, more than 100", sum)})
		}
	}
	for _, port := range slices.Sorted(maps.Keys(ifs)) {
		m, _ := ifs[port].(map[string]any)
		if strings.HasPrefix(port, "swp") && !slices.Contains(ports, port) {
			out = append(out, problem{"interface." + port, fmt.Sprintf("Interface %s does not exist on this switch", port)})
			continue
		}
		q, _ := m["qos"].(map[string]any)
		for _, kind := range []string{"mapping", "egress-scheduler", "congestion-control", "pfc"} {
			b, _ := q[kind].(map[string]any)
			name, _ := b["profile"].(string)
			if name == "" {
				continue
			}
			profiles, _ := qos[kind].(map[string]any)
			if _, ok := profiles[name]; !ok {
				out = append(out, problem{"interface." + port + ".qos." + kind + ".profile", fmt.Sprintf("%s profile %s does not exist", kind, name)})
			}
		}
		wd, _ := q["pfc-watchdog"].(map[string]any)
		_, hasPFC := q["pfc"]
		_, hasPause := q["link-pause"]
		if wd["state"] == "enable" && !hasPFC && !hasPause {
			// "You can only configure PFC watchdog on a port with PFC (or link pause)
			// configuration" (Quality of Service, PFC Watchdog).
			out = append(out, problem{"interface." + port + ".qos.pfc-watchdog", "PFC watchdog requires PFC or link pause on the interface"})
		}
	}
	return out
}

func losslessBuffers(qos map[string]any) bool {
	pools, _ := qos["traffic-pool"].(map[string]any)
	if _, ok := pools["default-lossless"]; ok {
		return true
	}
	if _, ok := pools["roce-lossless"]; ok {
		return true
	}
	roce, _ := qos["roce"].(map[string]any)
	return (roce["enable"] == "on" || roce["state"] == "enabled") && roce["mode"] != "lossy"
}
