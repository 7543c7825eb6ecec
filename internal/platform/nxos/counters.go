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

// Counters are a port's counters as `show queuing interface` prints them; nil where it prints
// none.
type Counters struct {
	// PFCRx and PFCTx are the PFC frames received and sent, by CoS (RxCount, TxCount).
	PFCRx, PFCTx map[int]int64
	// Dropped is the "WRED/AFD & Tail Drop Pkts" of each QoS group, unicast plus multicast.
	Dropped map[int]int64
}

var (
	reQoSGroup = regexp.MustCompile(`^\|\s*QOS GROUP (\d+)\s*\|$`)
	reDropRow  = regexp.MustCompile(`^\|\s*WRED/AFD & Tail Drop Pkts\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|$`)
	rePFCRow   = regexp.MustCompile(`^\s*(\d+)\s+(\d+)\s+(\S+)\s+(\d+)\s+(\S+)\s+(\d+)\s*$`)
)

// ParseCounters parses the output of CountersCommand.
func ParseCounters(out string) (Counters, error) {
	c := Counters{}
	group, inPFC := -1, false
	count := func(s string) (int64, error) {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("show queuing interface: %q is not a count", s)
		}
		return v, nil
	}
	for _, line := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case reQoSGroup.MatchString(trimmed):
			group, _ = strconv.Atoi(reQoSGroup.FindStringSubmatch(trimmed)[1])
			inPFC = false
		case strings.HasPrefix(trimmed, "PFC_COS"):
			inPFC, group = true, -1
			c.PFCRx, c.PFCTx = map[int]int64{}, map[int]int64{}
		case inPFC && rePFCRow.MatchString(line):
			m := rePFCRow.FindStringSubmatch(line)
			cos, _ := strconv.Atoi(m[1])
			if cos > 7 {
				return Counters{}, fmt.Errorf("show queuing interface: PFC_COS %d is no CoS", cos)
			}
			tx, err := count(m[4])
			if err != nil {
				return Counters{}, err
			}
			rx, err := count(m[6])
			if err != nil {
				return Counters{}, err
			}
			c.PFCTx[cos], c.PFCRx[cos] = tx, rx
		case group >= 0 && reDropRow.MatchString(trimmed):
			m := reDropRow.FindStringSubmatch(trimmed)
			uc, err := count(m[1])
			if err != nil {
				return Counters{}, err
			}
			mc, err := count(m[2])
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
		return Counters{}, fmt.Errorf("show queuing interface: no PFC statistics and no QoS group counters in %q", firstLine(out))
	}
	return c, nil
}
