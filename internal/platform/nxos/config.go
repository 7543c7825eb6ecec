package nxos

import (
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext"
)

// Unknown is the value a read reports for a number the device holds in a form that cannot be
// converted (a threshold in an unknown unit, a class without `set qos-group`): no valid value,
// so a refresh shows a difference and the next apply rewrites it.
const Unknown = -1

// DefaultNetworkQoS is the system network-qos policy of a fresh Nexus 9000 (not printed by
// `show running-config ipqos`); an imported policy's destroy binds it back.
const DefaultNetworkQoS = "default-8q-nq-policy"

// classDefault is the class of a qos policy-map that takes what no other class matches.
const classDefault = "class-default"

// Config is what ParseRunningConfig keeps of `show running-config ipqos` (and of interface
// blocks, from any running-config section): class-maps and policy-maps type qos, the
// queuing and network-qos policy-maps, the `system qos` bindings and each interface's QoS and
// PFC lines. Maps are keyed by name as the running-config prints it.
type Config struct {
	// Chassis is what show version names (set by the caller; Chassis).
	Chassis     string `json:"-"`
	Hostname    string
	ClassMaps   map[string]*ClassMap
	QoSPolicies map[string]*QoSPolicyMap
	NetworkQoS  map[string]*NetworkQoSPolicy
	Queuing     map[string]*QueuingPolicy
	System      Bindings
	Interfaces  map[string]*Interface
}

// ClassMap is one `class-map type qos match-any|match-all NAME` block.
type ClassMap struct {
	MatchAll bool    // match-all (NX-OS's default when neither is given)
	Matches  []Match // in order
}

// Match is one `match` line of a class-map.
type Match struct {
	// Field is "dscp", "cos" or the word after `match` of a line this package does not write
	// (precedence, protocol, access-group, ...).
	Field string
	// Values are the DSCP or CoS values of the line, ascending (nil for other fields).
	Values []int
	// Text is the line after "match " as printed, for the `no match` that removes it.
	Text string
}

// QoSPolicyMap is one `policy-map type qos NAME` block.
type QoSPolicyMap struct {
	Classes []*QoSClass // in configured order; class-default included when printed
}

// QoSClass is one `class NAME` of a qos policy-map.
type QoSClass struct {
	Name     string
	QoSGroup *int // `set qos-group N`
}

// NetworkQoSPolicy is one `policy-map type network-qos NAME` block; Classes is keyed by the
// traffic class of the system class (c-8q-nqN; c-8q-nq-default is 0).
type NetworkQoSPolicy struct {
	Classes map[int]*NQClass
}

// NQClass is one `class type network-qos c-8q-nq...` block.
type NQClass struct {
	PauseCOS []int // `pause pfc-cos LIST`, ascending
	MTU      *int
}

// QueuingPolicy is one `policy-map type queuing NAME` block: egress classes c-out-8q-qN and
// ingress classes c-in-qN, keyed by traffic class (the -default classes are 0).
type QueuingPolicy struct {
	Out map[int]*QueueClass
	In  map[int]*QueueClass
}

// QueueClass is one `class type queuing ...` block.
type QueueClass struct {
	BandwidthRemaining *int // `bandwidth remaining percent P`
	BandwidthPercent   *int // `bandwidth percent P`
	PriorityLevel      *int // `priority level L`
	WRED               *WRED
	Pause              *Pause
}

// WRED is a `random-detect` line, thresholds in bytes (Unknown in a unit bytes cannot express,
// or absent as in `random-detect threshold burst-optimized ecn`).
type WRED struct {
	MinBytes, MaxBytes int64
	Probability        int  // drop-probability, Unknown when absent
	Weight             int  // Unknown when absent; neither written differently nor compared
	ECN                bool // `ecn`: marks instead of dropping
}

// Pause is a `pause buffer-size B pause-threshold X resume-threshold Y` line, in bytes.
type Pause struct {
	BufferSize, PauseThreshold, ResumeThreshold int64
}

// Bindings are the service-policies of `system qos` or of an interface ("" without a line).
type Bindings struct {
	QoSInput      string `json:",omitempty"`
	QueuingOutput string `json:",omitempty"`
	QueuingInput  string `json:",omitempty"`
	NetworkQoS    string `json:",omitempty"` // system qos only
}

// Interface is one `interface` block, with the lines roce_qos_policy and roce_pfc_interface
// write.
type Interface struct {
	Bindings
	// PFCMode is the arguments of `priority-flow-control mode` as printed ("on", "on
	// send-tlv"), "" without the line (NX-OS's default, auto, is not printed).
	PFCMode string `json:",omitempty"`
	// Watchdog is the argument of `priority-flow-control watch-dog-interval` ("on", "off"),
	// "" without the line.
	Watchdog string `json:",omitempty"`
	// FlowSend and FlowReceive are the `flowcontrol send|receive` values, "" without a line.
	FlowSend    string `json:",omitempty"`
	FlowReceive string `json:",omitempty"`
}

func newConfig() *Config {
	return &Config{ClassMaps: map[string]*ClassMap{}, QoSPolicies: map[string]*QoSPolicyMap{},
		NetworkQoS: map[string]*NetworkQoSPolicy{}, Queuing: map[string]*QueuingPolicy{}, Interfaces: map[string]*Interface{}}
}

// node is a configuration line and its block.
type node = clitext.Node

// ParseRunningConfig reads `show running-config ipqos` (or `show running-config`) text. It
// tolerates any order, the "!Command:"/"!Time:" header and "!" lines, the `version` line,
// blank lines, CRLF and unknown lines and blocks; it fails only on a malformed line of the QoS
// subset this package relies on. Lines apply in order, so `no` forms replayed after a block
// undo it, as on the switch.
func ParseRunningConfig(text string) (*Config, error) {
	c := newConfig()
	for _, n := range clitext.Tree(text) {
		if err := c.global(n); err != nil {
			return nil, fmt.Errorf("nxos: running-config line %q: %w", n.Line, err)
		}
	}
	return c, nil
}

func (c *Config) global(n *node) error {
	f := strings.Fields(n.Line)
	switch {
	case len(f) == 2 && f[0] == "hostname":
		c.Hostname = f[1]
	case len(f) >= 4 && f[0] == "class-map" && f[1] == "type" && f[2] == "qos":
		return c.classMap(f[3:], n.Children)
	case len(f) == 5 && f[0] == "no" && f[1] == "class-map" && f[2] == "type" && f[3] == "qos":
		delete(c.ClassMaps, f[4])
	case len(f) == 4 && f[0] == "policy-map" && f[1] == "type":
		return c.policyMap(f[2], f[3], n.Children)
	case len(f) == 5 && f[0] == "no" && f[1] == "policy-map" && f[2] == "type":
		c.deletePolicyMap(f[3], f[4])
	case len(f) == 2 && f[0] == "system" && f[1] == "qos":
		return clitext.EachLine(n.Children, func(f []string) error { c.System.line(f); return nil })
	case len(f) == 2 && f[0] == "interface":
		i, ok := c.Interfaces[f[1]]
		if !ok {
			i = &Interface{}
			c.Interfaces[f[1]] = i
		}
		return clitext.EachLine(n.Children, func(f []string) error { i.line(f); return nil })
	}
	return nil
}

// classMap reads `class-map type qos [match-any|match-all] NAME` (f starts after "qos").
func (c *Config) classMap(f []string, body []*node) error {
	matchAll, name := true, f[0]
	if len(f) == 2 && (f[0] == "match-any" || f[0] == "match-all") {
		matchAll, name = f[0] == "match-all", f[1]
	} else if len(f) != 1 {
		return nil
	}
	cm, ok := c.ClassMaps[name]
	if !ok {
		cm = &ClassMap{MatchAll: matchAll}
		c.ClassMaps[name] = cm
	}
	return clitext.EachLine(body, cm.line)
}

func (cm *ClassMap) line(f []string) error {
	no := len(f) > 0 && f[0] == "no"
	if no {
		f = f[1:]
	}
	if len(f) < 2 || f[0] != "match" {
		return nil
	}
	m := Match{Field: f[1], Text: strings.Join(f[1:], " ")}
	if m.Field == "dscp" || m.Field == "cos" {
		vs, err := parseValues(f[2:], m.Field)
		if err != nil {
			return err
		}
		m.Values = vs
	}
	kept := cm.Matches[:0:0]
	for _, old := range cm.Matches {
		if old.Field != m.Field || (old.Text != m.Text && !equalValues(old, m)) {
			kept = append(kept, old)
		}
	}
	if !no {
		kept = append(kept, m)
	}
	cm.Matches = kept
	return nil
}

// equalValues reports whether two dscp or cos lines match the same values ("0-2" and "0,1,2").
func equalValues(a, b Match) bool {
	if a.Values == nil || b.Values == nil || len(a.Values) != len(b.Values) {
		return false
	}
	for i := range a.Values {
		if a.Values[i] != b.Values[i] {
			return false
		}
	}
	return true
}

func (c *Config) policyMap(kind, name string, body []*node) error {
	switch kind {
	case "qos":
		pm, ok := c.QoSPolicies[name]
		if !ok {
			pm = &QoSPolicyMap{}
			c.QoSPolicies[name] = pm
		}
		return pm.apply(body)
	case "network-qos":
		pm, ok := c.NetworkQoS[name]
		if !ok {
			pm = &NetworkQoSPolicy{Classes: map[int]*NQClass{}}
			c.NetworkQoS[name] = pm
		}
		return pm.apply(body)
	case "queuing":
		pm, ok := c.Queuing[name]
		if !ok {
			pm = &QueuingPolicy{Out: map[int]*QueueClass{}, In: map[int]*QueueClass{}}
			c.Queuing[name] = pm
		}
		return pm.apply(body)
	}
	return nil
}

func (c *Config) deletePolicyMap(kind, name string) {
	switch kind {
	case "qos":
		delete(c.QoSPolicies, name)
	case "network-qos":
		delete(c.NetworkQoS, name)
	case "queuing":
		delete(c.Queuing, name)
	}
}

func (b *Bindings) line(f []string) {
	no := len(f) > 0 && f[0] == "no"
	if no {
		f = f[1:]
	}
	if len(f) < 3 || f[0] != "service-policy" || f[1] != "type" {
		return
	}
	var field *string
	switch {
	case f[2] == "network-qos":
		field, f = &b.NetworkQoS, f[3:]
	case len(f) >= 4 && f[2] == "qos" && f[3] == "input":
		field, f = &b.QoSInput, f[4:]
	case len(f) >= 4 && f[2] == "queuing" && f[3] == "output":
		field, f = &b.QueuingOutput, f[4:]
	case len(f) >= 4 && f[2] == "queuing" && f[3] == "input":
		field, f = &b.QueuingInput, f[4:]
	default:
		return
	}
	switch {
	case no && (len(f) == 0 || f[0] == *field):
		*field = ""
	case !no && len(f) > 0:
		*field = f[0]
	}
}

func (i *Interface) line(f []string) {
	no := len(f) > 0 && f[0] == "no"
	rest := f
	if no {
		rest = f[1:]
	}
	switch {
	case len(rest) > 0 && rest[0] == "service-policy":
		i.Bindings.line(f)
	case len(rest) >= 2 && rest[0] == "priority-flow-control" && rest[1] == "mode":
		i.PFCMode = ""
		if !no {
			i.PFCMode = strings.Join(rest[2:], " ")
		}
	case len(rest) >= 2 && rest[0] == "priority-flow-control" && rest[1] == "watch-dog-interval":
		i.Watchdog = ""
		if !no && len(rest) == 3 {
			i.Watchdog = rest[2]
		}
	case len(rest) >= 2 && rest[0] == "flowcontrol" && (rest[1] == "send" || rest[1] == "receive"):
		v := ""
		if !no && len(rest) == 3 {
			v = rest[2]
		}
		if rest[1] == "send" {
			i.FlowSend = v
		} else {
			i.FlowReceive = v
		}
	}
}
