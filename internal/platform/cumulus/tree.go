package cumulus

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Tree is the part of a switch's applied NVUE configuration this package reads: GET
// /nvue_v1/qos and /nvue_v1/interface with rev=applied. Keys NVUE has and this package does not
// know are ignored on read and never written.
type Tree struct {
	QoS       QoS
	Interface map[string]Interface
}

// QoS is the qos object. Profile collections are keyed by profile name; switch priorities,
// traffic classes, DSCPs and PCPs are string keys ("3"), as NVUE has them.
type QoS struct {
	Mapping            map[string]*Mapping       `json:"mapping,omitempty"`
	EgressScheduler    map[string]*Scheduler     `json:"egress-scheduler,omitempty"`
	CongestionControl  map[string]*Congestion    `json:"congestion-control,omitempty"`
	PFC                map[string]*PFCProfile    `json:"pfc,omitempty"`
	EgressQueueMapping map[string]*QueueMapping  `json:"egress-queue-mapping,omitempty"`
	Roce               map[string]any            `json:"roce,omitempty"`
	TrafficPool        map[string]map[string]any `json:"traffic-pool,omitempty"`
}

// Mapping is a qos mapping profile: trust l2 (PCP), l3 (DSCP), both, or port.
type Mapping struct {
	Trust string        `json:"trust,omitempty"`
	DSCP  map[string]SP `json:"dscp,omitempty"`
	PCP   map[string]SP `json:"pcp,omitempty"`
}

// SP is one classification entry.
type SP struct {
	SwitchPriority int `json:"switch-priority"`
}

// Scheduler is a qos egress-scheduler profile.
type Scheduler struct {
	TrafficClass map[string]ETS `json:"traffic-class,omitempty"`
}

// ETS schedules one traffic class: mode strict, or dwrr with bw-percent.
type ETS struct {
	Mode      string `json:"mode,omitempty"`
	BWPercent *int   `json:"bw-percent,omitempty"`
}

// Congestion is a qos congestion-control profile.
type Congestion struct {
	TrafficClass map[string]ECNConfig `json:"traffic-class,omitempty"`
}

// ECNConfig marks (and with red, drops) on one traffic class; thresholds in bytes.
type ECNConfig struct {
	ECN          string `json:"ecn,omitempty"`
	RED          string `json:"red,omitempty"`
	MinThreshold *int64 `json:"min-threshold,omitempty"`
	MaxThreshold *int64 `json:"max-threshold,omitempty"`
	Probability  *int   `json:"probability,omitempty"`
}

// PFCProfile is a qos pfc profile.
type PFCProfile struct {
	SwitchPriority map[string]struct{} `json:"switch-priority,omitempty"`
	Tx             string              `json:"tx,omitempty"`
	Rx             string              `json:"rx,omitempty"`
	XoffThreshold  *int64              `json:"xoff-threshold,omitempty"`
	XonThreshold   *int64              `json:"xon-threshold,omitempty"`
	PortBuffer     *int64              `json:"port-buffer,omitempty"`
	CableLength    *int                `json:"cable-length,omitempty"`
}

// QueueMapping is the egress-queue-mapping profile (NVUE has only default-global).
type QueueMapping struct {
	SwitchPriority map[string]TC `json:"switch-priority,omitempty"`
}

// TC is one egress-queue-mapping entry.
type TC struct {
	TrafficClass int `json:"traffic-class"`
}

// Interface is one entry of the interface object; only its qos bindings matter here.
type Interface struct {
	Type string        `json:"type,omitempty"`
	QoS  *InterfaceQoS `json:"qos,omitempty"`
}

// InterfaceQoS binds profiles to a port.
type InterfaceQoS struct {
	Mapping           *Binding `json:"mapping,omitempty"`
	EgressScheduler   *Binding `json:"egress-scheduler,omitempty"`
	CongestionControl *Binding `json:"congestion-control,omitempty"`
	PFC               *Binding `json:"pfc,omitempty"`
	PFCWatchdog       *State   `json:"pfc-watchdog,omitempty"`
}

// Binding names the profile a port uses.
type Binding struct {
	Profile string `json:"profile,omitempty"`
}

// State is an enable/disable switch.
type State struct {
	State string `json:"state,omitempty"`
}

// NVUE's enable/disable values (Cumulus Linux 5.12 OpenAPI; 5.15 renames some to
// enabled/disabled, which reads accept).
const (
	enable  = "enable"
	disable = "disable"
)

func enabled(s string) bool { return s == enable || s == "enabled" }

// ParseTree parses the bodies of GET /nvue_v1/qos?rev=applied and GET
// /nvue_v1/interface?rev=applied.
func ParseTree(qos, iface []byte) (*Tree, error) {
	t := &Tree{Interface: map[string]Interface{}}
	if err := json.Unmarshal(qos, &t.QoS); err != nil {
		return nil, fmt.Errorf("NVUE qos: %w", err)
	}
	if len(iface) > 0 {
		if err := json.Unmarshal(iface, &t.Interface); err != nil {
			return nil, fmt.Errorf("NVUE interface: %w", err)
		}
	}
	return t, nil
}

// key renders a switch priority, traffic class, DSCP or PCP as NVUE's string key.
func key(n int) string { return strconv.Itoa(n) }

// number reads such a key; ok is false for anything but a decimal in [0, limit).
func number(k string, limit int) (int, bool) {
	n, err := strconv.Atoi(k)
	if err != nil || n < 0 || n >= limit || key(n) != k {
		return 0, false
	}
	return n, true
}
