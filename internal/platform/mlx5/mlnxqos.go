package mlx5

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Lines of `mlnx_qos -i IF -a` (mlnx-tools python/mlnx_qos pretty_print, 2017 to 2026). Lines
// are matched after trimming blanks on both ends: real output indents with a TAB, pasted
// captures with spaces, and the PFC rows end in three spaces.
var (
	reDSCPRow   = regexp.MustCompile(`^prio:([0-7]) dscp:((?:\d{1,2},)*\d{0,2})$`)
	reDefPrio   = regexp.MustCompile(`^prio:([0-7])$`)
	reBuffers   = regexp.MustCompile(`^Receive buffer size \(bytes\): ((?:\d+,){8})(?:(?:total_size|max_buffer_size)=(\d+))?$`)
	reCableLen  = regexp.MustCompile(`^Cable len: (\d+)$`)
	rePFCHeader = regexp.MustCompile(`^priority\s+0\s+1\s+2\s+3\s+4\s+5\s+6\s+7$`)
	rePFCRow    = regexp.MustCompile(`^(enabled|buffer)((?:\s+\d+){8})$`)
	reTC        = regexp.MustCompile(`^tc: ([0-7]) ratelimit: (.*), tsa:\s*(.*)$`)
	reTSA       = regexp.MustCompile(`^(?:ets, bw: (\d{1,3})%|(strict)|(vendor)|(unknown))$`)
	rePrioLine  = regexp.MustCompile(`^priority:\s+([0-7])$`)
	reNetlink   = regexp.MustCompile(`Netlink error: (.*)$`)
)

// qosParser is the state of a parse of mlnx_qos output.
type qosParser struct {
	s         *HostState
	inDSCP    bool // inside the dscp2prio block
	inDefault bool // after "default priority:"
	tc        int  // the TC whose "priority:" lines follow, -1 before the first
	nextTC    int  // the TC a bare TSA line (no "tc: N" prefix) belongs to
	seenPrio  [8]bool
	seenDSCP  map[int]int // DSCP -> the priority it was listed under
	seenPFC   bool
	failed    bool   // @@failed: mlnx_qos exited non-zero
	errText   string // last error line mlnx_qos printed
}

// parseMlnxQoS fills s from the lines of `mlnx_qos -i IF -a 2>&1` and returns why they cannot
// be trusted, if they cannot.
func parseMlnxQoS(s *HostState, lines []string) error {
	p := &qosParser{s: s, tc: -1, seenDSCP: map[int]int{}}
	for _, raw := range lines {
		if err := p.line(strings.TrimSpace(raw)); err != nil {
			return fmt.Errorf("mlnx_qos -i %s: %w", s.Interface, err)
		}
	}
	if err := p.finish(lines); err != nil {
		return fmt.Errorf("mlnx_qos -i %s: %w", s.Interface, err)
	}
	return nil
}

func (p *qosParser) line(l string) error {
	s := p.s
	if l == "" {
		return nil
	}
	switch {
	case strings.HasSuffix(l, markSkipped):
		s.QoSSkipped, p.failed = true, true
	case strings.HasSuffix(l, markFailed):
		p.failed = true
	case strings.HasPrefix(l, "****** WARNING: lldpad service is running"):
		s.LLDPad = true
	case l == "DCBX mode: OS controlled":
		s.DCBX = DCBXOS
	case l == "DCBX mode: Firmware controlled":
		s.DCBX = DCBXFirmware
	case strings.HasPrefix(l, "Priority trust state: "):
		s.Trust = strings.TrimPrefix(l, "Priority trust state: ")
		p.inDSCP, p.inDefault = false, false
	case l == "dscp2prio mapping:":
		p.inDSCP, s.DSCP2PrioShown = true, true
	case l == "default priority:":
		p.inDSCP, p.inDefault = false, true
	case p.inDSCP && reDSCPRow.MatchString(l):
		return p.dscpRow(reDSCPRow.FindStringSubmatch(l))
	case p.inDefault && reDefPrio.MatchString(l):
		v, _ := strconv.Atoi(reDefPrio.FindStringSubmatch(l)[1])
		s.DefaultPriority = &v
	default:
		p.inDSCP, p.inDefault = false, false
		return p.rest(l)
	}
	return nil
}

func (p *qosParser) dscpRow(m []string) error {
	prio, _ := strconv.Atoi(m[1])
	for _, f := range strings.Split(m[2], ",") {
		if f == "" {
			continue
		}
		d, _ := strconv.Atoi(f)
		if d > 63 {
			return fmt.Errorf("dscp2prio lists DSCP %d", d)
		}
		if first, dup := p.seenDSCP[d]; dup && first != prio {
			return fmt.Errorf("dscp2prio lists DSCP %d under priority %d and priority %d; remove one of the two app entries", d, first, prio)
		}
		p.seenDSCP[d] = prio
		p.s.DSCP2Prio[d] = prio
	}
	return nil
}

// rest handles the lines after the trust block.
func (p *qosParser) rest(l string) error {
	s := p.s
	switch {
	case reBuffers.MatchString(l):
		m := reBuffers.FindStringSubmatch(l)
		s.BufferSize = ints(strings.Split(strings.TrimSuffix(m[1], ","), ","))
		if m[2] != "" {
			v, _ := strconv.Atoi(m[2])
			s.MaxBufferSize = &v
		}
	case reCableLen.MatchString(l):
		s.CableLen, _ = strconv.Atoi(reCableLen.FindStringSubmatch(l)[1])
	case l == "PFC configuration:" || rePFCHeader.MatchString(l):
	case rePFCRow.MatchString(l):
		m := rePFCRow.FindStringSubmatch(l)
		v := ints(strings.Fields(m[2]))
		if m[1] == "buffer" {
			s.Prio2Buffer = v
			return nil
		}
		for i, e := range v {
			if e > 1 {
				return fmt.Errorf("PFC enabled row has %d", e)
			}
			s.PFC[i] = e == 1
		}
		p.seenPFC = true
	case reTC.MatchString(l):
		m := reTC.FindStringSubmatch(l)
		p.tc, _ = strconv.Atoi(m[1])
		p.nextTC = p.tc + 1
		return p.tsa(m[3], l)
	case reTSA.MatchString(l):
		// Printed without "tc: N ratelimit: R, " when the rate limit could not be read; with -a
		// every version prints the TCs in order 0..7.
		if p.nextTC > 7 {
			return fmt.Errorf("unexpected line %q", l)
		}
		p.tc, p.nextTC = p.nextTC, p.nextTC+1
		return p.tsa(l, l)
	case rePrioLine.MatchString(l):
		prio, _ := strconv.Atoi(rePrioLine.FindStringSubmatch(l)[1])
		if p.tc < 0 || p.seenPrio[prio] {
			return fmt.Errorf("unexpected line %q", l)
		}
		s.PrioTC[prio], p.seenPrio[prio] = p.tc, true
	case isErrorLine(l):
		p.errText = l // the last one: mlnx_qos exits after the fatal one
	}
	return nil
}

func (p *qosParser) tsa(t, line string) error {
	if t == "" { // the TSA could not be read
		return nil
	}
	m := reTSA.FindStringSubmatch(t)
	if m == nil {
		return fmt.Errorf("unexpected TSA in %q", line)
	}
	switch {
	case m[1] != "":
		bw, _ := strconv.Atoi(m[1])
		if bw > 100 {
			return fmt.Errorf("bandwidth %d%% in %q", bw, line)
		}
		p.s.TSA[p.tc], p.s.BW[p.tc] = "ets", bw
	default:
		p.s.TSA[p.tc] = m[2] + m[3] + m[4]
	}
	return nil
}

// isErrorLine recognises what mlnx_qos, Python or the shell print when mlnx_qos fails.
func isErrorLine(l string) bool {
	for _, s := range []string{"Netlink error", "not supported on your system", "not found", "No such",
		"Permission denied", "Operation not permitted", "Traceback", "Error", "error:", "must be root"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// finish checks that everything the resources compare was printed.
func (p *qosParser) finish(lines []string) error {
	s := p.s
	if s.DCBX == "" || p.failed {
		return p.failure(lines)
	}
	var missing []string
	if s.Trust == "" {
		missing = append(missing, `"Priority trust state"`)
	}
	if !p.seenPFC {
		missing = append(missing, "the PFC enabled row")
	}
	for prio, ok := range p.seenPrio {
		if !ok {
			missing = append(missing, fmt.Sprintf("the TC of priority %d", prio))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("output lacks %s", strings.Join(missing, ", "))
	}
	return nil
}

// failure explains output without a DCBX line, or from an mlnx_qos that exited non-zero.
func (p *qosParser) failure(lines []string) error {
	text := p.errText
	if text == "" {
		for _, l := range lines {
			if l = strings.TrimSpace(l); l != "" && !strings.HasSuffix(l, markFailed) && !strings.HasSuffix(l, markSkipped) {
				text = l
				break
			}
		}
	}
	switch {
	case text == "":
		return errors.New("printed nothing")
	case strings.Contains(text, "mlnx_qos") && (strings.Contains(text, "not found") || strings.Contains(text, "No such file")):
		return fmt.Errorf("mlnx_qos is not installed on the host (%s): install mlnx-tools (part of MLNX_OFED / DOCA-OFED)", text)
	case strings.Contains(text, "Operation not permitted") || strings.Contains(text, "Permission denied"):
		return fmt.Errorf("%s: mlnx_qos needs root to change settings; set sudo = true for the device", text)
	case reNetlink.MatchString(text):
		return fmt.Errorf("the kernel refused the DCB netlink request: %s", text)
	case strings.Contains(text, "not supported on your system"):
		return fmt.Errorf("%s: the interface does not exist or its driver has no DCB (IEEE 802.1Qaz) support", text)
	}
	return fmt.Errorf("failed: %s", text)
}

func ints(fields []string) []int {
	out := make([]int, len(fields))
	for i, f := range fields {
		out[i], _ = strconv.Atoi(f) // fields matched \d+
	}
	return out
}
