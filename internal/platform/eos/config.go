package eos

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext"
)

// Unknown is the value a read reports for a number the device holds in a form that cannot be
// converted (ECN thresholds in segments or milliseconds, a watchdog timer written with options
// this provider does not write): no valid value, so a refresh shows a difference and the next
// apply rewrites it.
const Unknown = -1

// Config is what ParseRunningConfig keeps of a running-config: the effective global QoS maps
// (EOS defaults overridden by each `qos map` line), the qos profiles and every interface block.
type Config struct {
	// Family and Version are the switch's (show version, set by the caller): Family picks the
	// queue command PolicyLines writes.
	Family    Family `json:"-"`
	Model     string `json:"-"`
	Version   string `json:"-"`
	Hostname  string
	DSCPToTC  [64]int
	COSToTC   [8]int
	TCToQueue [8]int
	// Profiles and Interfaces are keyed by name as the running-config prints it.
	Profiles   map[string]*Profile
	Interfaces map[string]*Interface
}

// Profile is one `qos profile` block.
type Profile struct {
	Trust  string // "dscp", "cos", "" (no qos trust line, or another form)
	NoDrop []int  // priorities with `priority-flow-control priority N no-drop`, sorted
	Queues map[int]*TxQueue
	PFCOn  bool // `priority-flow-control on` inside the profile
}

// TxQueue is one `tx-queue N` (or `uc-tx-queue N`) block of a profile.
type TxQueue struct {
	BandwidthPercent *int
	// Priority is "strict" (an explicit `priority strict`), "none" (`no priority`) or "" (no
	// line: EOS's default, strict).
	Priority string
	ECN      *ECN
	ECNCount bool // `random-detect ecn count`: the queue counts what it marks
}

// ECN is a `random-detect ecn` line in bytes; a threshold in a unit bytes cannot express reads
// Unknown.
type ECN struct {
	MinBytes, MaxBytes int64
	Probability        int
	Weight             int // the averaging weight, -1 without one (EOS's default)
}

// Interface is one `interface` block, with the lines roce_qos_policy and roce_pfc_interface
// write.
type Interface struct {
	Name           string
	ServiceProfile string
	PFCOn          bool
	// Trust and NoDrop are the port's own `qos trust` and `priority-flow-control priority N
	// no-drop` lines (the way many EOS RoCE configurations are written), "" and nil without.
	Trust  string `json:",omitempty"`
	NoDrop []int  `json:",omitempty"`
	// FlowSend and FlowReceive are the `flowcontrol send|receive` values as printed ("on",
	// "off", ...), "" without a line.
	FlowSend, FlowReceive string
	Watchdog              *Watchdog // nil without any watchdog line
}

// Watchdog is the PFC watchdog lines of an interface. It is JSON-encodable for private state.
type Watchdog struct {
	Enabled bool   `json:"enabled"` // `priority-flow-control pause watchdog`
	Action  string `json:"action"`  // `... port action A`, "" without
	// Timer is the arguments of `... port timer` as read ("timeout 0.20 polling-interval auto
	// recovery-time 0.40"), "" without; TimeoutMs and RecoveryMs are its times (0 without).
	Timer      string `json:"timer"`
	TimeoutMs  int    `json:"timeout_ms"`
	RecoveryMs int    `json:"recovery_ms"`
}

// cosDefault is EOS's CoS -> traffic class map: CoS 0 (best effort) above CoS 1 (background).
var cosDefault = [8]int{1, 0, 2, 3, 4, 5, 6, 7}

// defaultDSCP is EOS's DSCP -> traffic class map: each DSCP's class selector (DSCP/8) taken
// through the CoS default.
func defaultDSCP() [64]int {
	var m [64]int
	for d := range m {
		m[d] = cosDefault[d/8]
	}
	return m
}

func defaultTCToQueue() [8]int { return [8]int{0, 1, 2, 3, 4, 5, 6, 7} }

func newConfig() *Config {
	return &Config{DSCPToTC: defaultDSCP(), COSToTC: cosDefault, TCToQueue: defaultTCToQueue(),
		Profiles: map[string]*Profile{}, Interfaces: map[string]*Interface{}}
}

// node is a configuration line and its block.
type node = clitext.Node

// ParseRunningConfig reads `show running-config` text. It tolerates any order, "!" comments,
// unknown lines and blocks, CRLF and "end"; it fails only on a malformed line of the QoS
// subset this package relies on.
func ParseRunningConfig(text string) (*Config, error) {
	return fromTree(clitext.Tree(text))
}

// fromTree applies the top-level lines in order, as the switch would on a replay.
func fromTree(top []*node) (*Config, error) {
	c := newConfig()
	for _, n := range top {
		if err := c.global(n); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *Config) global(n *node) error {
	f := strings.Fields(n.Line)
	var err error
	switch {
	case len(f) == 2 && f[0] == "hostname":
		c.Hostname = f[1]
	case len(f) > 2 && f[0] == "qos" && f[1] == "map":
		err = c.qosMap(f[2:])
	case len(f) == 3 && f[0] == "qos" && f[1] == "profile":
		err = c.profile(f[2]).apply(n.Children)
	case len(f) == 2 && f[0] == "interface":
		err = clitext.EachLine(n.Children, c.iface(f[1]).line)
	}
	if err != nil {
		return fmt.Errorf("eos: running-config line %q: %w", n.Line, err)
	}
	return nil
}

func (c *Config) profile(name string) *Profile {
	p, ok := c.Profiles[name]
	if !ok {
		p = &Profile{Queues: map[int]*TxQueue{}}
		c.Profiles[name] = p
	}
	return p
}

func (c *Config) iface(name string) *Interface {
	i, ok := c.Interfaces[name]
	if !ok {
		i = &Interface{Name: name}
		c.Interfaces[name] = i
	}
	return i
}

// apply reads a profile body; errors name the line at fault.
func (p *Profile) apply(lines []*node) error {
	for _, n := range lines {
		if err := p.line(n); err != nil {
			return fmt.Errorf("%q: %w", n.Line, err)
		}
	}
	return nil
}

func (p *Profile) line(n *node) error {
	f := strings.Fields(n.Line)
	switch {
	case len(f) == 3 && f[0] == "qos" && f[1] == "trust":
		p.Trust = f[2]
	case len(f) == 3 && f[0] == "no" && f[1] == "qos" && f[2] == "trust":
		p.Trust = ""
	case len(f) == 2 && (f[0] == "tx-queue" || f[0] == "uc-tx-queue"):
		q, err := clitext.Number(f[1], 0, 7)
		if err != nil {
			return err
		}
		if p.Queues[q] == nil {
			p.Queues[q] = &TxQueue{}
		}
		return clitext.EachLine(n.Children, p.Queues[q].line)
	case len(f) == 2 && f[0] == "priority-flow-control" && f[1] == "on":
		p.PFCOn = true
	case len(f) == 3 && f[0] == "no" && f[1] == "priority-flow-control" && f[2] == "on":
		p.PFCOn = false
	case len(f) == 4 && f[0] == "priority-flow-control" && f[1] == "priority":
		return p.noDrop(f[2], f[3] == "no-drop")
	case len(f) == 4 && f[0] == "no" && f[1] == "priority-flow-control" && f[2] == "priority":
		return p.noDrop(f[3], false)
	}
	return nil
}

// noDrop sets or clears priority s in the profile's no-drop set.
func (p *Profile) noDrop(s string, on bool) error {
	var err error
	p.NoDrop, err = setNoDrop(p.NoDrop, s, on)
	return err
}

// setNoDrop sets or clears priority s in a no-drop set, keeping it sorted.
func setNoDrop(set []int, s string, on bool) ([]int, error) {
	prio, err := clitext.Number(s, 0, 7)
	if err != nil {
		return set, err
	}
	var out []int
	for v := range 8 {
		if (v == prio && on) || (v != prio && slices.Contains(set, v)) {
			out = append(out, v)
		}
	}
	return out, nil
}

func (q *TxQueue) line(f []string) error {
	switch {
	case len(f) == 3 && f[0] == "bandwidth" && f[1] == "percent":
		return clitext.SetNumber(&q.BandwidthPercent, f[2], 0, 100)
	case len(f) >= 2 && f[0] == "no" && f[1] == "bandwidth" && (len(f) == 2 || f[2] == "percent"):
		q.BandwidthPercent = nil
	case len(f) == 2 && f[0] == "priority" && f[1] == "strict":
		q.Priority = "strict"
	case len(f) == 2 && f[0] == "no" && f[1] == "priority":
		q.Priority = "none"
	case len(f) == 3 && f[0] == "random-detect" && f[1] == "ecn" && f[2] == "count":
		q.ECNCount = true
	case len(f) == 4 && f[0] == "no" && f[1] == "random-detect" && f[2] == "ecn" && f[3] == "count":
		q.ECNCount = false
	case len(f) > 2 && f[0] == "random-detect" && f[1] == "ecn":
		e, ok, err := parseECN(f[2:])
		if ok {
			q.ECN = e
		}
		return err
	case len(f) == 3 && f[0] == "no" && f[1] == "random-detect" && f[2] == "ecn":
		q.ECN = nil
	}
	return nil
}

func (i *Interface) line(f []string) error {
	switch {
	case len(f) == 2 && f[0] == "service-profile":
		i.ServiceProfile = f[1]
	case len(f) == 2 && f[0] == "no" && f[1] == "service-profile":
		i.ServiceProfile = ""
	case len(f) == 2 && f[0] == "priority-flow-control" && f[1] == "on":
		i.PFCOn = true
	case len(f) == 3 && f[0] == "no" && f[1] == "priority-flow-control" && f[2] == "on":
		i.PFCOn = false
	case len(f) == 3 && f[0] == "qos" && f[1] == "trust":
		i.Trust = f[2]
	case len(f) == 3 && f[0] == "no" && f[1] == "qos" && f[2] == "trust":
		i.Trust = ""
	case len(f) == 4 && f[0] == "priority-flow-control" && f[1] == "priority":
		var err error
		i.NoDrop, err = setNoDrop(i.NoDrop, f[2], f[3] == "no-drop")
		return err
	case len(f) == 4 && f[0] == "no" && f[1] == "priority-flow-control" && f[2] == "priority":
		var err error
		i.NoDrop, err = setNoDrop(i.NoDrop, f[3], false)
		return err
	case len(f) == 3 && f[0] == "flowcontrol" && f[1] == "send":
		i.FlowSend = f[2]
		return writableWords(f[2:])
	case len(f) == 3 && f[0] == "flowcontrol" && f[1] == "receive":
		i.FlowReceive = f[2]
		return writableWords(f[2:])
	case len(f) >= 3 && f[0] == "priority-flow-control" && f[1] == "pause" && f[2] == "watchdog":
		if err := writableWords(f[3:]); err != nil {
			return err
		}
		return i.watchdog(f[3:], true)
	case len(f) >= 4 && f[0] == "no" && f[1] == "priority-flow-control" && f[2] == "pause" && f[3] == "watchdog":
		return i.watchdog(f[4:], false)
	}
	return nil
}

// writableWords refuses the words of a PFC line PFCLines writes back verbatim as the port's
// prior (a flowcontrol value, the watchdog's action and timer) when one holds a control
// character or one of ; | ! # ?: EOS prints no such value, and written back it would end the
// line, start a comment or ask the CLI for help. Such a line is garbage, not configuration to
// restore; PFCLines has no error to refuse it later. (PolicyLines checks its own lines:
// clitext.Writable.) Regression seeds: testdata/fuzz/FuzzParseRunningConfig/*-unsafe.
func writableWords(f []string) error {
	for _, w := range f {
		if strings.ContainsAny(w, ";|!#?") || strings.ContainsFunc(w, unicode.IsControl) {
			return fmt.Errorf("%q is not a value this provider can write back to the CLI", w)
		}
	}
	return nil
}

// watchdog applies `[no] priority-flow-control pause watchdog [port action A | port timer ...]`.
func (i *Interface) watchdog(f []string, set bool) error {
	if i.Watchdog == nil {
		i.Watchdog = &Watchdog{}
	}
	w := i.Watchdog
	switch {
	case len(f) == 0:
		w.Enabled = set
	case len(f) >= 2 && f[0] == "port" && f[1] == "action":
		w.Action = ""
		if set && len(f) == 3 {
			w.Action = f[2]
		}
	case len(f) >= 2 && f[0] == "port" && f[1] == "timer":
		if !set {
			w.Timer, w.TimeoutMs, w.RecoveryMs = "", 0, 0
			return nil
		}
		return w.timer(f[2:])
	}
	return nil
}
