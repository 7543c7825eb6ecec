package lab

// The adapters' non-volatile configuration and the tools that change it: Debian's mstconfig
// (mstflint 4.21, the bookworm package) and, with UseMFT, NVIDIA MFT's mlxconfig, built from
// the same source (mstflint mlxconfig/). Layout, texts and exit codes follow mstflint v4.21
// (mlxcfg_ui.cpp printOpening, printConfHeader, printSingleParam, setDevCfg, resetDevCfg),
// checked against the installed mstconfig where it can run without a device and against the
// public captures listed in mlx5-host.md. Each dual-port adapter (two PCI functions, one per
// port) has one configuration; a cold Reboot makes Next Boot current, and the driver's
// defaults at load come from the current values (DCQCN parameters, CNP DSCP and priority, the
// ECN priority mask).

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

// nvParam is one parameter of the tool's database.
type nvParam struct {
	name  string
	kind  byte // 'u' unsigned, 'e' enum, 'b' boolean (an enum False=0, True=1)
	bits  uint
	enums []string // enum names by value ("" for none)
	def   uint32
	min   uint32
	max   uint32 // 0: the field width's limit
}

// nvTable is the parameters a ConnectX-5 VPI adapter (MCX556A-ECA) shows, in the database's
// order, with the defaults of the real captures (mlx5-host.md). ROCE_CC_ALGORITHM is left
// out, as newer firmware hides it.
func nvTable() []nvParam {
	boolean := []string{"False", "True"}
	t := []nvParam{
		{name: "NUM_OF_VFS", kind: 'u', bits: 16, def: 0, max: 127},
		{name: "SRIOV_EN", kind: 'b', bits: 1, enums: boolean, def: 1},
		{name: "LINK_TYPE_P1", kind: 'e', bits: 2, enums: []string{"", "IB", "ETH"}, def: 2},
		{name: "LINK_TYPE_P2", kind: 'e', bits: 2, enums: []string{"", "IB", "ETH"}, def: 2},
	}
	for _, p := range []string{"_P1", "_P2"} {
		t = append(t, nvParam{name: "ROCE_CC_PRIO_MASK" + p, kind: 'u', bits: 8, def: 255})
	}
	for _, p := range []string{"_P1", "_P2"} {
		t = append(t,
			nvParam{name: "CLAMP_TGT_RATE_AFTER_TIME_INC" + p, kind: 'b', bits: 1, enums: boolean, def: 1},
			nvParam{name: "CLAMP_TGT_RATE" + p, kind: 'b', bits: 1, enums: boolean, def: 0},
			nvParam{name: "RPG_TIME_RESET" + p, kind: 'u', bits: 17, def: 300},
			nvParam{name: "RPG_BYTE_RESET" + p, kind: 'u', bits: 15, def: 32767},
			nvParam{name: "RPG_THRESHOLD" + p, kind: 'u', bits: 5, def: 1},
			nvParam{name: "RPG_MAX_RATE" + p, kind: 'u', bits: 32, def: 0},
			nvParam{name: "RPG_AI_RATE" + p, kind: 'u', bits: 17, def: 5},
			nvParam{name: "RPG_HAI_RATE" + p, kind: 'u', bits: 17, def: 50},
			nvParam{name: "RPG_GD" + p, kind: 'u', bits: 4, def: 11},
			nvParam{name: "RPG_MIN_DEC_FAC" + p, kind: 'u', bits: 8, def: 50, min: 1, max: 100},
			nvParam{name: "RPG_MIN_RATE" + p, kind: 'u', bits: 17, def: 1},
			nvParam{name: "RATE_TO_SET_ON_FIRST_CNP" + p, kind: 'u', bits: 17, def: 0},
			nvParam{name: "DCE_TCP_G" + p, kind: 'u', bits: 10, def: 1019, min: 1},
			nvParam{name: "DCE_TCP_RTT" + p, kind: 'u', bits: 17, def: 1, min: 1},
			nvParam{name: "RATE_REDUCE_MONITOR_PERIOD" + p, kind: 'u', bits: 17, def: 4, min: 1},
			nvParam{name: "INITIAL_ALPHA_VALUE" + p, kind: 'u', bits: 10, def: 1023},
			nvParam{name: "MIN_TIME_BETWEEN_CNPS" + p, kind: 'u', bits: 17, def: 0},
			nvParam{name: "CNP_802P_PRIO" + p, kind: 'u', bits: 3, def: 6},
			nvParam{name: "CNP_DSCP" + p, kind: 'u', bits: 6, def: 48},
		)
	}
	lldp := []string{"OFF", "MANDATORY", "ALL"}
	for _, p := range []string{"_P1", "_P2"} {
		t = append(t,
			nvParam{name: "LLDP_NB_DCBX" + p, kind: 'b', bits: 1, enums: boolean, def: 0},
			nvParam{name: "LLDP_NB_RX_MODE" + p, kind: 'e', bits: 2, enums: lldp, def: 0},
			nvParam{name: "LLDP_NB_TX_MODE" + p, kind: 'e', bits: 2, enums: lldp, def: 0},
		)
	}
	for _, p := range []string{"_P1", "_P2"} {
		t = append(t, nvParam{name: "DCBX_IEEE" + p, kind: 'b', bits: 1, enums: boolean, def: 1})
	}
	return t
}

// render is how the tool prints a value (printValue): enum names as NAME(v), numbers plain.
func (p nvParam) render(v uint32) string {
	if p.kind != 'u' && int(v) < len(p.enums) && p.enums[v] != "" {
		return fmt.Sprintf("%s(%d)", p.enums[v], v)
	}
	return strconv.FormatUint(uint64(v), 10)
}

// parse is the set command's value parser (mlxcfg_param.cpp): unsigned numbers in C's base 0,
// enum values by number or case-insensitive name; the New column's text.
func (p nvParam) parse(s string) (uint32, string, string) {
	if p.kind == 'u' {
		v, err := strconv.ParseUint(s, 0, 64)
		if err != nil || strings.HasPrefix(s, "0o") || strings.HasPrefix(s, "0b") || strings.Contains(s, "_") {
			return 0, "", "Cannot parse the value"
		}
		if p.bits < 32 && v >= 1<<p.bits || v > 0xFFFFFFFF {
			return 0, "", fmt.Sprintf("The value %d is not valid,  as its size is %d bits", v, p.bits)
		}
		shown := strconv.FormatUint(v, 10)
		if s != shown {
			shown = fmt.Sprintf("%s(%d)", s, v)
		}
		return uint32(v), shown, ""
	}
	for v, n := range p.enums {
		if n != "" && (strings.EqualFold(s, n) || s == strconv.Itoa(v)) {
			return uint32(v), p.render(uint32(v)), ""
		}
	}
	return 0, "", "Unknown value " + s
}

// nvConfig is one adapter's configuration: Current (what the running firmware loaded) and
// Next Boot (the NVRAM).
type nvConfig struct {
	cur, next map[string]uint32
}

func newNVConfig() *nvConfig {
	c := &nvConfig{cur: map[string]uint32{}, next: map[string]uint32{}}
	for _, p := range nvTable() {
		c.cur[p.name], c.next[p.name] = p.def, p.def
	}
	return c
}

// nvOf is the configuration of port p's adapter (two ports per adapter); callers hold h.mu.
func (h *Host) nvOf(i int) *nvConfig {
	if h.nv == nil {
		h.nv = map[int]*nvConfig{}
	}
	c, ok := h.nv[i/2]
	if !ok {
		c = newNVConfig()
		h.nv[i/2] = c
	}
	return c
}

// applyNVLocked gives port i the driver's load-time values from its adapter's current
// configuration: the DCQCN parameters (cc_params and ecn share them), and the ECN enables
// from ROCE_CC_PRIO_MASK.
func (h *Host) applyNVLocked(i int) {
	p, nv, suffix := h.ports[i], h.nvOf(i), fmt.Sprintf("_P%d", i%2+1)
	for k, c := range ccParams {
		if c.ecnName == "" {
			continue
		}
		if v, ok := nv.cur[strings.ToUpper(c.ecnName)+suffix]; ok {
			p.cong.vals[k] = v
		}
	}
	mask := nv.cur["ROCE_CC_PRIO_MASK"+suffix]
	for _, point := range []string{"roce_rp", "roce_np"} {
		for prio := range 8 {
			p.cong.enable[point][prio] = mask >> prio & 1
		}
	}
}

// UseMFT makes the host have NVIDIA MFT's mlxconfig instead of mstflint's mstconfig.
func (h *Host) UseMFT() { h.mft.Store(true) }

// WarmReboot is a reboot that does not reload the NIC firmware: the driver's defaults and the
// enabled units as Reboot, but Next Boot values stay pending. (Assumed: field reports differ on
// which warm reboots reload the firmware; this one does not.)
func (h *Host) WarmReboot() {
	h.resetNICs()
	h.bootUnits(h.Interfaces(), true)
}

const (
	nvHeader  = "Configurations:"
	nvFooter  = "The '*' shows parameters with next value different from default/current value."
	nvApplied = "Applying... Done!\n-I- Please reboot machine to load new configurations.\n"
)

// cmdNVTool is mstconfig and mlxconfig: [-d DEV] [-e] [-y] q|query [NAME...] | s|set N=V... |
// r|reset, and -v.
func (h *Host) cmdNVTool(tool string) sh.Program {
	return func(e *sh.Env, args []string) int {
		var dev, verb string
		verbose, yes := false, false
		i := 1
		for ; i < len(args) && verb == ""; i++ {
			switch a := args[i]; a {
			case "-d", "--dev":
				if i+1 >= len(args) {
					fmt.Fprintln(e.Stdout, "-E- missing device name")
					return 3
				}
				i++
				dev = args[i]
			case "-e", "--enable_verbosity":
				verbose = true
			case "-y", "--yes":
				yes = true
			case "-v", "--version":
				if tool == "mstconfig" {
					fmt.Fprintln(e.Stdout, "mstconfig, mstflint 4.21.0, Git SHA Hash: N/A")
				} else {
					fmt.Fprintln(e.Stdout, "lab: mlxconfig -v is not emulated")
				}
				return 0
			case "q", "query", "s", "set", "r", "reset":
				verb = a
			default:
				fmt.Fprintf(e.Stdout, "-E- invalid argument: %s\n", a)
				return 3
			}
		}
		rest := args[i:]
		switch {
		case verb == "":
			fmt.Fprintln(e.Stdout, "-E- No command found. For more information please read the help message:")
			return 3
		case dev == "" && (verb == "s" || verb == "set"):
			fmt.Fprintln(e.Stdout, "-E- set command expects device to be specified.")
			return 3
		case dev == "":
			fmt.Fprintln(e.Stdout, "-E- Failed to get devices.")
			return 3
		}
		if verb == "r" || verb == "reset" {
			if len(rest) > 0 {
				fmt.Fprintf(e.Stdout, "-E- reset command expects no argument but %d argument received\n", len(rest))
				return 3
			}
			fmt.Fprintf(e.Stdout, "\n Reset configuration for device %s? (y/n) [n] : ", dev)
			if !confirm(e, yes) {
				return 2
			}
			idx, ok := h.nvDevice(e, dev)
			if !ok {
				fmt.Fprint(e.Stdout, "Applying... Failed!\n-E- Failed to open the device\n")
				return 3
			}
			h.mu.Lock()
			for _, p := range nvTable() {
				h.nvOf(idx).next[p.name] = p.def
			}
			h.mu.Unlock()
			fmt.Fprint(e.Stdout, nvApplied)
			return 0
		}
		set := verb == "s" || verb == "set"
		var sets [][2]string
		if set {
			if len(rest) == 0 {
				fmt.Fprintf(e.Stdout, "-E- missing configuration arguments. For more information please run %s -h|--help.\n", tool)
				return 3
			}
			seen := map[string]bool{}
			for _, a := range rest {
				name, val, ok := strings.Cut(a, "=")
				if !ok || name == "" || val == "" || strings.Contains(val, "=") {
					fmt.Fprintf(e.Stdout, "-E- Invalid Configuration argument %s\n", strings.TrimSuffix(a, "="))
					return 3
				}
				if seen[name] {
					fmt.Fprintf(e.Stdout, "-E- Duplicate parameter, %s.\n", name)
					return 3
				}
				seen[name] = true
				sets = append(sets, [2]string{name, val})
			}
		}
		idx, ok := h.nvDevice(e, dev)
		if !ok {
			fmt.Fprintln(e.Stdout, "-E- Failed to open the device")
			return 3
		}
		return h.nvQueryOrSet(e, dev, idx, verbose, yes, set, rest, sets)
	}
}

// confirm is askUser: "y" with -y, else one line of standard input.
func confirm(e *sh.Env, yes bool) bool {
	if yes {
		fmt.Fprintln(e.Stdout, "y")
		return true
	}
	b, _ := io.ReadAll(e.Stdin)
	line, _, _ := strings.Cut(string(b), "\n")
	if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
		return true
	}
	fmt.Fprintln(e.Stdout, "-E- Aborted by user.")
	return false
}

// nvDevice resolves -d (BB:DD.F, DDDD:BB:DD.F, mlx5_N) to a port index; only root opens a
// device (assumed: no stderr line for the refusal).
func (h *Host) nvDevice(e *sh.Env, dev string) (int, bool) {
	for i, p := range h.ports {
		if dev == p.pci || "0000:"+dev == p.pci || dev == p.rdma {
			return i, e.Root
		}
	}
	if strings.HasPrefix(dev, "mlx") {
		fmt.Fprintf(e.Stderr, "read link: No such file or directory\nUnable to read link /sys/class/infiniband/%s/device\n", dev)
	} else if strings.HasPrefix(dev, "/dev/mst/") && h.mft.Load() {
		return -1, false
	} else if strings.HasPrefix(dev, "/dev/") {
		fmt.Fprintf(e.Stderr, "Unable to parse device name %s\n", dev)
	}
	return -1, false
}

func (h *Host) nvQueryOrSet(e *sh.Env, dev string, idx int, verbose, yes, set bool, names []string, sets [][2]string) int {
	table := nvTable()
	byName := map[string]nvParam{}
	for _, p := range table {
		byName[p.name] = p
	}
	h.mu.Lock()
	nv := h.nvOf(idx)
	cur, next := map[string]uint32{}, map[string]uint32{}
	for k, v := range nv.cur {
		cur[k] = v
	}
	for k, v := range nv.next {
		next[k] = v
	}
	h.mu.Unlock()

	w := e.Stdout
	fmt.Fprint(w, "\nDevice #1:\n----------\n\n")
	fmt.Fprintf(w, "%-16s%-16s\n", "Device type:", "ConnectX5")
	fmt.Fprintf(w, "%-16s%-16s\n", "Name:", "MCX556A-ECA_Ax")
	fmt.Fprintf(w, "%-16s%-16s\n", "Description:", "ConnectX-5 VPI adapter card; EDR IB (100Gb/s) and 100GbE; dual-port QSFP28; PCIe3.0 x16; tall bracket; ROHS R6")
	fmt.Fprintf(w, "%-16s%-16s\n", "Device:", dev)
	fmt.Fprintln(w)
	header := fmt.Sprintf("%-16s%38s", nvHeader, "Next Boot")
	if verbose {
		header = fmt.Sprintf("%-16s%36s%16s%18s", nvHeader, "Default", "Current", "Next Boot")
	}
	if set {
		header += "       New"
	}
	fmt.Fprintln(w, header)

	var rows []nvParam
	newVals := map[string]uint32{}
	newShown := map[string]string{}
	switch {
	case set:
		for _, s := range sets {
			p, ok := byName[s[0]]
			if !ok {
				fmt.Fprintf(w, "-E- Unknown Parameter: %s\n", s[0])
				return 3
			}
			v, shown, msg := p.parse(s[1])
			if msg != "" {
				fmt.Fprintf(w, "-E- %s\n", msg)
				return 3
			}
			rows, newVals[p.name], newShown[p.name] = append(rows, p), v, shown
		}
	case len(names) > 0:
		for _, n := range names {
			p, ok := byName[n]
			if !ok {
				fmt.Fprintf(w, "-E- Unknown Parameter: %s\n", n)
				return 3
			}
			rows = append(rows, p)
		}
	default:
		rows = table
	}
	marked := false
	for _, p := range rows {
		cols := []string{p.render(next[p.name])}
		mark := false
		if verbose {
			cols = []string{p.render(p.def), p.render(cur[p.name]), p.render(next[p.name])}
			mark = next[p.name] != p.def || next[p.name] != cur[p.name]
		}
		if set {
			cols = append(cols, newShown[p.name])
		}
		prefix := "         "
		if mark {
			prefix, marked = "*        ", true
		}
		line := prefix + fmt.Sprintf("%-36s", p.name)
		for k, c := range cols {
			if k > 0 && len(cols[k-1]) > 16 {
				line += " "
			}
			line += fmt.Sprintf("%-16s", c)
		}
		fmt.Fprintln(w, line)
	}
	if marked {
		fmt.Fprintln(w, nvFooter)
	}
	if !set {
		return 0
	}
	fmt.Fprint(w, "\n Apply new Configuration? (y/n) [n] : ")
	if !confirm(e, yes) {
		return 2
	}
	for _, p := range rows {
		v := newVals[p.name]
		limit := p.max
		if limit == 0 && p.bits < 32 {
			limit = 1<<p.bits - 1
		}
		switch {
		case p.max != 0 && v > p.max:
			fmt.Fprintf(w, "Applying... Failed!\n-E- Parameter %s' value is larger than maximum allowed %d\n", p.name, limit)
			return 3
		case v < p.min:
			fmt.Fprintf(w, "Applying... Failed!\n-E- Parameter %s' value is smaller than minimum allowed %d\n", p.name, p.min)
			return 3
		}
	}
	h.mu.Lock()
	for _, p := range rows {
		h.nvOf(idx).next[p.name] = newVals[p.name]
	}
	h.mu.Unlock()
	fmt.Fprint(w, nvApplied)
	return 0
}
