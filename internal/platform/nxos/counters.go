package nxos

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Counters on NX-OS (DESIGN.md, roce_interface_counters), from `show queuing interface <if>`
// (testdata/counters/README.md): the PFC statistics (frames sent and received per CoS) and,
// per QoS group, the egress block's "WRED/AFD & Tail Drop Pkts" (unicast and multicast).
// The captured output has no ECN-marked row, so ECN marks are not read.

var portName = regexp.MustCompile(`^Ethernet[1-9][0-9]{0,2}/[1-9][0-9]{0,2}(/[1-9][0-9]{0,2})?$`)

// ValidPort says whether name is an NX-OS front-panel port (Ethernet1/1, Ethernet1/1/1 for a
// breakout), the only names CountersCommand puts on a command line.
func ValidPort(name string) bool { return portName.MatchString(name) }

// CountersCommand is the read of port's counters; port must be ValidPort.
func CountersCommand(port string) string { return "show queuing interface " + port }

// AllCountersCommand reads every port's counters: without an interface, NX-OS prints each
// port's `show queuing interface <if>` in turn (ParseAllCounters says what of that is assumed).
const AllCountersCommand = "show queuing interface"

// Counters are a port's counters as `show queuing interface` prints them; nil where it prints
// none.
type Counters struct {
	// PFCRx and PFCTx are the PFC frames received and sent, by CoS (RxCount, TxCount).
	PFCRx, PFCTx map[int]int64
	// Dropped is the "WRED/AFD & Tail Drop Pkts" of each QoS group, unicast plus multicast.
	Dropped map[int]int64
}

var (
	// A QoS group's egress block: numbered (a queue), or the CONTROL and SPAN groups NX-OS
	// lists after them (NX-API's eq-qosgrp "CONTROL QOS GROUP" / "SPAN QOS GROUP"), whose drops
	// are no queue's.
	reQoSGroup = regexp.MustCompile(`^\|\s*(?:(?:CONTROL|SPAN) )?QOS GROUP(?: (\d{1,2}))?\s*\|$`)
	reDropRow  = regexp.MustCompile(`^\|\s*WRED/AFD & Tail Drop Pkts\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|$`)
	rePFCRow   = regexp.MustCompile(`^\s*(\d+)\s+(\d+)\s+(\S+)\s+(\d+)\s+(\S+)\s+(\d+)\s*$`)
	// The headers naming the port a block is of: the egress part's (where printed) and the
	// ingress part's, which the capture shows.
	reEgressFor  = regexp.MustCompile(`^Egress Queuing for (\S+)`)
	reIngressFor = regexp.MustCompile(`^Ingress Queuing for (\S+)$`)
)

// ParseCounters parses the output of CountersCommand.
func ParseCounters(out string) (Counters, error) {
	return parseCounters(lines(out))
}

// ParseAllCounters parses the output of AllCountersCommand: the counters of each interface it
// prints, by name. A port's block is its output of CountersCommand: the egress counters, then
// "Ingress Queuing for <if>", the ingress part and the PFC statistics. The capture holds one
// port's; that the device-wide form repeats it per port is assumed (NX-API's form of the command
// has a row per interface, TABLE_queuing_interface), so a block is told by its
// "Ingress Queuing for" line, and by an "Egress Queuing for <if>" line where NX-OS prints one,
// which must name the same port.
func ParseAllCounters(out string) (map[string]Counters, error) {
	type block struct {
		lines           []string
		egress, ingress string
	}
	var blocks []*block
	cur := &block{}
	for _, line := range lines(out) {
		trimmed := strings.TrimSpace(line)
		egress := reEgressFor.FindStringSubmatch(trimmed)
		ingress := reIngressFor.FindStringSubmatch(trimmed)
		// The next port begins at its egress header, or, where there is none, at its first QoS
		// group (or its ingress header) after this port's ingress part.
		if egress != nil || (cur.ingress != "" && (ingress != nil || reQoSGroup.MatchString(trimmed))) {
			blocks = append(blocks, cur)
			cur = &block{}
		}
		if egress != nil {
			cur.egress = egress[1]
		}
		if ingress != nil {
			cur.ingress = ingress[1]
		}
		cur.lines = append(cur.lines, line)
	}
	blocks = append(blocks, cur)

	all := map[string]Counters{}
	for _, b := range blocks {
		c, err := parseCounters(b.lines)
		switch {
		case b.ingress == "" && err != nil:
			continue // no counters: the "slot 1" banner, rules
		case b.ingress == "":
			return nil, fmt.Errorf("show queuing interface: counters of no interface (no \"Ingress Queuing for\" line after %q)", firstLine(strings.Join(b.lines, "\n")))
		case b.egress != "" && b.egress != b.ingress:
			return nil, fmt.Errorf("show queuing interface: the egress counters of %s are followed by the ingress counters of %s", b.egress, b.ingress)
		case err != nil:
			return nil, fmt.Errorf("%s: %w", b.ingress, err)
		}
		if _, dup := all[b.ingress]; dup {
			return nil, fmt.Errorf("show queuing interface: %s is printed twice", b.ingress)
		}
		all[b.ingress] = c
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("show queuing interface: no interface's counters in %q", firstLine(out))
	}
	return all, nil
}

func lines(out string) []string { return strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") }

// parseCounters reads one port's output.
func parseCounters(lines []string) (Counters, error) {
	c := Counters{}
	group, inPFC := -1, false
	// counts reads two columns of a row, each a count.
	counts := func(a, b string) (int64, int64, error) {
		var v [2]int64
		for i, s := range []string{a, b} {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return 0, 0, fmt.Errorf("show queuing interface: %q is not a count", s)
			}
			v[i] = n
		}
		return v[0], v[1], nil
	}
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		switch {
		case reQoSGroup.MatchString(trimmed):
			group, inPFC = -1, false
			if n := reQoSGroup.FindStringSubmatch(trimmed)[1]; n != "" {
				group, _ = strconv.Atoi(n)
			}
		case strings.HasPrefix(trimmed, "PFC_COS"):
			inPFC, group = true, -1
			c.PFCRx, c.PFCTx = map[int]int64{}, map[int]int64{}
		case inPFC && rePFCRow.MatchString(line):
			m := rePFCRow.FindStringSubmatch(line)
			cos, _ := strconv.Atoi(m[1])
			if cos > 7 {
				return Counters{}, fmt.Errorf("show queuing interface: PFC_COS %d is no CoS", cos)
			}
			tx, rx, err := counts(m[4], m[6])
			if err != nil {
				return Counters{}, err
			}
			c.PFCTx[cos], c.PFCRx[cos] = tx, rx
		case group >= 0 && reDropRow.MatchString(trimmed):
			m := reDropRow.FindStringSubmatch(trimmed)
			uc, mc, err := counts(m[1], m[2])
			if err != nil {
				return Counters{}, err
			}
			if uc > math.MaxInt64-mc {
				return Counters{}, fmt.Errorf("show queuing interface: %d + %d is beyond a count", uc, mc)
			}
			if c.Dropped == nil {
				c.Dropped = map[int]int64{}
			}
			c.Dropped[group] = uc + mc
		}
	}
	if c.PFCRx == nil && c.Dropped == nil {
		return Counters{}, fmt.Errorf("show queuing interface: no PFC statistics and no QoS group counters in %q", firstLine(strings.Join(lines, "\n")))
	}
	return c, nil
}
