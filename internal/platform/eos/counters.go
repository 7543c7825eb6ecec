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
//   - `show qos interfaces <if> ecn counters queue | json`: intfQueueCounters.<if>.queueCounters,
//     a string per tx-queue, "-" for a queue that counts no ECN marks (no `random-detect ecn
//     count`);
//   - `show interfaces <if> counters discards | json`: interfaces.<if>.inDiscards/outDiscards.
//
// EOS's per-priority PFC counters (`show interfaces <if> priority-flow-control counters detail`)
// are not read: no capture of their output was found, so the priorities stay nil rather than
// parsed from a guessed layout.

var portName = regexp.MustCompile(`^Ethernet[1-9][0-9]{0,2}(/[1-9][0-9]{0,2}){0,2}$`)

// ValidPort says whether name is an EOS front-panel port (Ethernet1, Ethernet3/1, Ethernet3/1/1),
// the only names CountersCommands puts on a command line.
func ValidPort(name string) bool { return portName.MatchString(name) }

// CountersCommands are the reads of port's counters, in the order ParseCounters takes their
// outputs. port must be ValidPort.
func CountersCommands(port string) []string {
	return []string{
		"show qos interfaces " + port + " ecn counters queue | json",
		"show interfaces " + port + " counters discards | json",
	}
}

// Counters are a port's counters as EOS reports them; nil where it reports none.
type Counters struct {
	// ECNMarked is the ECN-marked packets of each tx-queue that counts them.
	ECNMarked map[int]int64
	// InDiscards and OutDiscards are the port's discards.
	InDiscards, OutDiscards *int64
}

// ParseCounters parses the outputs of CountersCommands(port).
func ParseCounters(port, ecnJSON, discardsJSON string) (Counters, error) {
	var ecn struct {
		Intfs map[string]struct {
			Queues map[string]string `json:"queueCounters"`
		} `json:"intfQueueCounters"`
	}
	if err := json.Unmarshal([]byte(ecnJSON), &ecn); err != nil {
		return Counters{}, fmt.Errorf("show qos interfaces %s ecn counters queue | json: %w", port, err)
	}
	var disc struct {
		Intfs map[string]struct {
			In  *int64 `json:"inDiscards"`
			Out *int64 `json:"outDiscards"`
		} `json:"interfaces"`
	}
	if err := json.Unmarshal([]byte(discardsJSON), &disc); err != nil {
		return Counters{}, fmt.Errorf("show interfaces %s counters discards | json: %w", port, err)
	}
	var c Counters
	if q, ok := ecn.Intfs[port]; ok {
		c.ECNMarked = map[int]int64{}
		for name, v := range q.Queues {
			n, err := strconv.Atoi(name)
			if err != nil || n < 0 || n > 7 {
				return Counters{}, fmt.Errorf("show qos interfaces %s ecn counters queue: queue %q is not a tx-queue", port, name)
			}
			if v == "-" {
				continue // the queue counts no marks
			}
			marks, err := strconv.ParseInt(v, 10, 64)
			if err != nil || marks < 0 {
				return Counters{}, fmt.Errorf("show qos interfaces %s ecn counters queue: queue %s counter %q is not a count", port, name, v)
			}
			c.ECNMarked[n] = marks
		}
	}
	if d, ok := disc.Intfs[port]; ok {
		for _, v := range []*int64{d.In, d.Out} {
			if v != nil && *v < 0 {
				return Counters{}, fmt.Errorf("show interfaces %s counters discards: %d is not a count", port, *v)
			}
		}
		c.InDiscards, c.OutDiscards = d.In, d.Out
	}
	if _, ok := disc.Intfs[port]; !ok {
		if _, ok := ecn.Intfs[port]; !ok {
			return Counters{}, fmt.Errorf("the switch reports no counters of interface %s", port)
		}
	}
	return c, nil
}
