package mlx5

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// DCBX modes as mlnx_qos prints them ("DCBX mode: OS controlled" / "Firmware controlled").
const (
	DCBXOS       = "os"
	DCBXFirmware = "firmware"
)

// HostState is what the read script found for one netdev: everything roce_nic_qos and
// roce_dcqcn_profile manage, plus what their checks need.
type HostState struct {
	Interface string
	Netdevs   []string // ls /sys/class/net, in the order printed
	LLDPad    bool     // lldpad runs (pgrep, or mlnx_qos's own warning)

	// From mlnx_qos -i IF -a, or on a host without it from iproute2's dcb (Tool). QoSError is
	// set when the tool failed or printed something this package cannot read; the fields below
	// are then incomplete.
	Tool            string // ToolMlnxQoS or ToolDCB
	QoSError        error
	QoSSkipped      bool      // a host read left mlnx_qos out (markSkipped): read the netdev alone
	DCBX            string    // DCBXOS, DCBXFirmware, "" when not printed
	Trust           string    // dscp, pcp, none
	DSCP2PrioShown  bool      // the dscp2prio block was printed (trust dscp only)
	DSCP2Prio       [64]int   // meaningful when DSCP2PrioShown; unlisted DSCPs read as 0
	DefaultPriority *int      // "default priority:" of mlnx_qos <= 2024-10, when set
	BufferSize      []int     // Receive buffer size (bytes), nil when not printed
	MaxBufferSize   *int      // the total_size= / max_buffer_size= suffix, when printed
	CableLen        int       // Cable len
	PFC             [8]bool   // PFC enabled per priority
	Prio2Buffer     []int     // the PFC "buffer" row, nil when omitted
	PrioTC          [8]int    // priority -> TC
	TSA             [8]string // per TC: ets, strict, vendor, unknown; "" when the TC was not printed
	BW              [8]int    // per TC: bandwidth percent of ETS TCs, else 0

	PCIAddress string // PCI_SLOT_NAME from the netdev's device uevent
	RDMADev    string // the RDMA device of the netdev, e.g. mlx5_0

	// RoCE ToS: the MLNX_OFED global traffic class of RDMADev port 1.
	ToSSupported bool // the traffic_class file exists
	RoCEToS      *int // "Global tclass=N"; nil when unset

	ECN bool   // the MLNX_OFED ecn tree exists (values were read for roce_rp and roce_np)
	RP  [8]int // roce_rp/enable/<prio>: 0, 1, or -1 when not read
	NP  [8]int // roce_np/enable/<prio>

	CCParams map[string]uint32 // cc_params of PCIAddress by file name; nil when none were read

	// Without the ecn tree (an inbox driver), the priorities DCQCN runs on are the firmware's
	// ROCE_CC_PRIO_MASK_P<n> (SetFirmware): its Current value, nil when not read; with the
	// reason it could not be read.
	CCPrioMask      *uint64
	CCPrioMaskError string
	Errors          map[string]string // per path (as printed, globs literal): the error text

	// Units are the provider's boot units on the host (roce-*.service under UnitDir), by name.
	Units map[string]*UnitFile
}

// Marker lines separating the sections of the read script's output.
const (
	markQoS    = "@@mlnx_qos"
	markFailed = "@@failed" // inside the mlnx_qos section: mlnx_qos exited non-zero
	// markSkipped, inside a host read's mlnx_qos section: the netdev is an SR-IOV VF, a
	// switchdev representor or an IPoIB interface, which the host read does not query.
	markSkipped = "@@skipped"
	markUevent  = "@@uevent"
	markIB      = "@@infiniband"
	markValues  = "@@values"
	markUnits   = "@@units"
	markLLDPad  = "@@lldpad"
	markNetdevs = "@@netdevs"
	markEnd     = "@@end"
)

var markers = []string{markQoS, markDCB, markUevent, markIB, markValues, markUnits, markLLDPad, markNetdevs, markEnd}

// unitsRead is the command of the @@units section: every line of the provider's unit files
// and, through the .wants links systemctl enable makes, which units want them.
func unitsRead(root string) string {
	dir := shQuote(root + UnitDir + "/")
	return "grep -H . " + dir + "roce-*.service " + dir + "*.wants/roce-*.service 2>&1"
}

// ReadScript returns the one command that reads everything both resources need for ifname.
// Validate ifname first (ValidNetdev); it is quoted anyway.
func ReadScript(ifname string, sudo bool) string { return readScript("", ifname, sudo) }

// readScript is ReadScript on the host tree under root.
func readScript(root, ifname string, sudo bool) string {
	q := shQuote(ifname)
	net := func(rest string) string { return root + netPath(ifname, rest) }
	glob := func(path string) string { return shQuote(path) + "*" }
	values := []string{
		glob(net("/ecn/roce_rp/enable/")),
		glob(net("/ecn/roce_np/enable/")),
		glob(root+"/sys/kernel/debug/mlx5/") + "/cc_params/*",
		glob(net("/device/infiniband/")) + "/tc/1/traffic_class",
	}
	script := []string{
		// mlnx_qos where the host has it, else dcb (dcb.go).
		"echo " + markQoS, "! command -v mlnx_qos >/dev/null 2>&1 || mlnx_qos -i " + q + " -a 2>&1 || echo " + markFailed,
		"echo " + markDCB, dcbRead(q, "ls "+shQuote(net("/device/infiniband"))+" >/dev/null 2>&1"),
		"echo " + markUevent, "cat " + shQuote(net("/device/uevent")) + " 2>&1",
		"echo " + markIB, "ls " + shQuote(net("/device/infiniband")) + " 2>&1",
		"echo " + markValues, "grep -H . " + strings.Join(values, " ") + " 2>&1",
		"echo " + markUnits, unitsRead(root),
		"echo " + markLLDPad, "pgrep -x lldpad",
		"echo " + markNetdevs, "ls " + shQuote(root+"/sys/class/net") + " 2>&1",
		"echo " + markEnd,
	}
	return shWrap(strings.Join(script, "; "), sudo)
}

// ParseRead parses the output (stdout and stderr together) of ReadScript(ifname, ...). It fails
// only when out is not such an output at all (e.g. sudo refused to run it); what a section
// reports (mlnx_qos errors, missing or unreadable files) is recorded in the state for the
// checks.
func ParseRead(ifname string, out []byte) (*HostState, error) {
	sections, err := splitSections(string(out))
	if err != nil {
		return nil, err
	}
	return stateFromSections(ifname, sections), nil
}

// stateFromSections reads the sections of one netdev's read output (every marker present).
func stateFromSections(ifname string, sections map[string][]string) *HostState {
	s := &HostState{Interface: ifname, Errors: map[string]string{}}
	for i := range s.RP {
		s.RP[i], s.NP[i] = -1, -1
	}
	s.Netdevs = strings.Fields(strings.Join(sections[markNetdevs], "\n"))
	for _, l := range sections[markLLDPad] {
		if strings.TrimSpace(l) != "" {
			s.LLDPad = true
		}
	}
	for _, l := range sections[markUevent] {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "PCI_SLOT_NAME="); ok {
			s.PCIAddress = v
		}
		s.toolError(l)
	}
	for _, f := range sections[markIB] {
		if f = strings.TrimSpace(f); rdmaDevPattern.MatchString(f) && s.RDMADev == "" {
			s.RDMADev = f
		}
		s.toolError(f)
	}
	s.Tool = ToolMlnxQoS
	if len(sections[markDCB]) > 0 {
		s.QoSError = parseDCB(s, sections[markDCB])
	} else {
		s.QoSError = parseMlnxQoS(s, sections[markQoS])
	}
	s.parseValues(sections[markValues])
	s.Units = parseUnits(sections[markUnits])
	return s
}

// unitLine splits a line of the @@units section, `UnitDir/[TARGET.wants/]roce-NAME.service:LINE`
// (grep -r's FILE:LINE), into the target whose .wants link it is ("" for the unit file
// itself), the unit and the line. It is the pattern
// ^UnitDir/(?:([^/:]+)\.wants/)?(roce-[^/:]+\.service):(.*)$ without a regular expression:
// a host's read holds a line per line of each of its units (16 units of a host of 8 NICs), and
// the regular expression's backtracking over them was most of the provider's CPU in refreshing
// 64 such hosts (DESIGN.md, Performance).
func unitLine(l string) (wants, unit, line string, ok bool) {
	rest, ok := strings.CutPrefix(l, UnitDir+"/")
	if !ok {
		return "", "", "", false
	}
	path, line, ok := strings.Cut(rest, ":") // no part of the path holds ':'
	if !ok || strings.ContainsAny(line, "\n") {
		return "", "", "", false
	}
	dir, unit, linked := strings.Cut(path, "/")
	if !linked {
		unit = path
	} else if wants, ok = strings.CutSuffix(dir, ".wants"); !ok || wants == "" {
		return "", "", "", false
	}
	name, ok := strings.CutPrefix(unit, "roce-")
	if !ok || strings.Contains(unit, "/") {
		return "", "", "", false
	}
	if name, ok = strings.CutSuffix(name, ".service"); !ok || name == "" {
		return "", "", "", false
	}
	return wants, unit, line, true
}

// parseUnits reads the @@units section: "FILE:line" for each line of each unit, the .wants
// links naming the unit that wants it. grep's errors (no unit at all, a dangling link) are
// no unit.
func parseUnits(lines []string) map[string]*UnitFile {
	units := map[string]*UnitFile{}
	get := func(name string) *UnitFile {
		u, ok := units[name]
		if !ok {
			u = &UnitFile{}
			units[name] = u
		}
		return u
	}
	for _, l := range lines {
		wants, unit, line, ok := unitLine(l)
		switch {
		case !ok:
		case wants == "":
			get(unit).Lines = append(get(unit).Lines, line)
		case !slices.Contains(get(unit).Wanted, wants):
			get(unit).Wanted = append(get(unit).Wanted, wants)
		}
	}
	for name, u := range units {
		if len(u.Lines) == 0 {
			delete(units, name) // a link whose file is gone
		}
	}
	return units
}

var (
	rdmaDevPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
	reToolError    = regexp.MustCompile(`^(?:cat|ls): (?:cannot access )?'?(/.+?)'?: ([^:]+)$`)
)

// toolError records an error line of cat or ls ("cat: PATH: ERROR", "ls: cannot access 'PATH':
// ERROR") in s.Errors.
func (s *HostState) toolError(l string) {
	if m := reToolError.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
		s.Errors[m[1]] = m[2]
	}
}

// cutAtMarkers cuts out at the marker lines: each marker found holds the lines after it until
// the next. A marker may stand on a line of its own or be glued to the end of a line whose
// command printed no final newline. A repeated marker, or markEnd before any other, ends the
// cut (what follows is not the script's).
func cutAtMarkers(out string, markers []string) map[string][]string {
	sections := map[string][]string{}
	current := ""
	for _, line := range strings.Split(out, "\n") {
		mark := ""
		for _, m := range markers {
			if strings.HasSuffix(line, m) {
				mark, line = m, strings.TrimSuffix(line, m)
				break
			}
		}
		if current != "" && (line != "" || mark == "") {
			sections[current] = append(sections[current], line)
		}
		if mark == "" {
			continue
		}
		if _, dup := sections[mark]; dup || mark == markEnd && current == "" {
			break
		}
		sections[mark], current = []string{}, mark
	}
	return sections
}

// splitSections cuts out at the marker lines. A marker glued to the end of a line whose command
// printed no final newline is split off.
func splitSections(out string) (map[string][]string, error) {
	out = strings.ReplaceAll(out, "\r\n", "\n")
	sections := cutAtMarkers(out, markers)
	for _, m := range markers {
		// @@dcb sits between two markers, so a cut-short output lacks a later one too; outputs
		// recorded before the section existed read as a host with mlnx_qos.
		if _, ok := sections[m]; !ok && m != markDCB {
			return nil, readScriptError(out, m)
		}
	}
	return sections, nil
}

func readScriptError(out, missing string) error {
	text := strings.TrimSpace(out)
	if i := strings.IndexByte(text, '\n'); i >= 0 && missing == markQoS {
		text = text[:i]
	}
	switch {
	case strings.HasPrefix(text, "sudo:"):
		return fmt.Errorf("sudo -n refused to run the read script (%s): allow this user to run sh, mlnx_qos and tee "+
			"through sudo without a password, or set sudo = false for the device", text)
	case text == "":
		return errors.New("the read script printed nothing: the host's shell did not run it")
	case missing == markQoS:
		return fmt.Errorf("the read script's output does not start with %s: %q", markQoS, text)
	}
	return fmt.Errorf("the read script's output ends before the %s marker (the host cut it short)", missing)
}

var (
	reECNValue = regexp.MustCompile(`^/sys/class/net/([^/]+)/ecn/(roce_rp|roce_np)/enable/([0-7]):(.*)$`)
	reCCValue  = regexp.MustCompile(`^/sys/kernel/debug/mlx5/([^/]+)/cc_params/([^/:]+):(.*)$`)
	reToSValue = regexp.MustCompile(`^/sys/class/net/([^/]+)/device/infiniband/([^/]+)/tc/1/traffic_class:(.*)$`)
	reGlobalTC = regexp.MustCompile(`^Global tclass=(\d+)$`)
	reGrepErr  = regexp.MustCompile(`^grep: (.+): ([^:]+)$`)
)

// parseValues reads the grep -H lines: "path:value", or "grep: path: error" for a path (a glob
// left literal when nothing matched) that could not be read.
func (s *HostState) parseValues(lines []string) {
	tosMissing := false
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if m := reGrepErr.FindStringSubmatch(l); m != nil {
			path := m[1]
			s.Errors[path] = m[2]
			tosMissing = tosMissing || strings.HasSuffix(path, "/traffic_class") && m[2] == "No such file or directory"
			continue
		}
		if m := reECNValue.FindStringSubmatch(l); m != nil && m[1] == s.Interface {
			s.setECN(m[2], m[3], m[4])
		} else if m := reCCValue.FindStringSubmatch(l); m != nil && m[1] == s.PCIAddress && s.PCIAddress != "" {
			s.setCC(m[2], m[3])
		} else if m := reToSValue.FindStringSubmatch(l); m != nil && m[1] == s.Interface {
			if g := reGlobalTC.FindStringSubmatch(strings.TrimSpace(m[3])); g != nil {
				// A class beyond the ToS byte (999, or digits past int64 that Atoi clipped to
				// MaxInt64) is garbage, not roce_tos: an error of the file. Regression seeds:
				// testdata/fuzz/FuzzParseRead/tclass-*.
				v, err := strconv.Atoi(g[1])
				if err != nil || v > fabric.MaxRoCEToS {
					s.Errors[tosPath(s.Interface, m[2])] = fmt.Sprintf("unexpected value %q", m[3])
					continue
				}
				s.RoCEToS = &v
			}
		}
	}
	s.ToSSupported = s.RDMADev != "" && !tosMissing
	unread := [8]int{-1, -1, -1, -1, -1, -1, -1, -1}
	s.ECN = s.RP != unread && s.NP != unread
}

func (s *HostState) setECN(point, prio, value string) {
	p, _ := strconv.Atoi(prio) // [0-7] by the pattern
	v, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil || v < 0 || v > 1 {
		s.Errors[ecnPath(s.Interface, point, p)] = fmt.Sprintf("unexpected value %q", value)
		return
	}
	if point == pointRP {
		s.RP[p] = v
	} else {
		s.NP[p] = v
	}
}

func (s *HostState) setCC(file, value string) {
	v, err := strconv.ParseUint(strings.TrimSpace(value), 10, 32)
	if err != nil {
		s.Errors[ccDir(s.PCIAddress)+"/"+file] = fmt.Sprintf("unexpected value %q", value)
		return
	}
	if s.CCParams == nil {
		s.CCParams = map[string]uint32{}
	}
	s.CCParams[file] = uint32(v)
}
