package eos

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
)

// Counters on EOS (DESIGN.md, roce_interface_counters), from eAPI JSON whose layouts ANTA's unit
// tests hold (testdata/counters/README.md):
//
//   - `show qos interfaces ecn counters queue | json`: intfQueueCounters.<if>.queueCounters,
//     a string per tx-queue, "-" for a queue that counts no ECN marks (no `random-detect ecn
//     count`);
//   - `show interfaces counters discards | json`: interfaces.<if>.inDiscards/outDiscards.
//
// Both are read without an interface, as ANTA's VerifyInterfacesECNCounters and
// VerifyInterfaceDiscards read them: EOS prints every interface, so the counters of any number
// of ports cost the same two commands (roce_fabric_counters' one read per device), and ANTA
// takes an interface the output does not list as not found.
//
// EOS's per-priority PFC counters (`show interfaces <if> priority-flow-control counters detail`)
// are not read: no capture of their output was found, so the priorities stay nil rather than
// parsed from a guessed layout.

var portName = regexp.MustCompile(`^Ethernet[1-9][0-9]{0,2}(/[1-9][0-9]{0,2}){0,2}$`)

// ValidPort says whether name is an EOS front-panel port (Ethernet1, Ethernet3/1, Ethernet3/1/1):
// the only names the driver asks counters of, and the interfaces of the device-wide outputs that
// are ports (not Port-Channel1, Vxlan1, Management1).
func ValidPort(name string) bool { return portName.MatchString(name) }

// CountersCommands are the reads of every interface's counters, in the order ParseCounters takes
// their outputs.
func CountersCommands() []string {
	return []string{
		"show qos interfaces ecn counters queue | json",
		"show interfaces counters discards | json",
	}
}

// Counters are an interface's counters as EOS reports them; nil where it reports none.
type Counters struct {
	// ECNMarked is the ECN-marked packets of each tx-queue that counts them.
	ECNMarked map[int]int64
	// InDiscards and OutDiscards are the interface's discards.
	InDiscards, OutDiscards *int64
}

// ParseCounters parses the outputs of CountersCommands: the counters of every interface either
// output lists, by EOS's name for it. An interface only one output lists has only its counters.
func ParseCounters(ecnJSON, discardsJSON string) (map[string]Counters, error) {
	var ecn struct {
		Intfs map[string]struct {
			Queues map[string]string `json:"queueCounters"`
		} `json:"intfQueueCounters"`
	}
	if err := json.Unmarshal([]byte(ecnJSON), &ecn); err != nil {
		return nil, fmt.Errorf("show qos interfaces ecn counters queue | json: %w", err)
	}
	var disc struct {
		Intfs map[string]struct {
			In  *int64 `json:"inDiscards"`
			Out *int64 `json:"outDiscards"`
		} `json:"interfaces"`
	}
	if err := json.Unmarshal([]byte(discardsJSON), &disc); err != nil {
		return nil, fmt.Errorf("show interfaces counters discards | json: %w", err)
	}
	out := make(map[string]Counters, len(disc.Intfs))
	for intf, q := range ecn.Intfs {
		c := Counters{ECNMarked: map[int]int64{}}
		for name, v := range q.Queues {
			n, err := strconv.Atoi(name)
			if err != nil || n < 0 || n > 7 {
				return nil, fmt.Errorf("show qos interfaces ecn counters queue: %s queue %q is not a tx-queue", intf, name)
			}
			if v == "-" {
				continue // the queue counts no marks
			}
			marks, err := strconv.ParseInt(v, 10, 64)
			if err != nil || marks < 0 {
				return nil, fmt.Errorf("show qos interfaces ecn counters queue: %s queue %s counter %q is not a count", intf, name, v)
			}
			c.ECNMarked[n] = marks
		}
		out[intf] = c
	}
	for intf, d := range disc.Intfs {
		for _, v := range []*int64{d.In, d.Out} {
			if v != nil && *v < 0 {
				return nil, fmt.Errorf("show interfaces counters discards: %s: %d is not a count", intf, *v)
			}
		}
		c := out[intf]
		c.InDiscards, c.OutDiscards = d.In, d.Out
		out[intf] = c
	}
	return out, nil
}
