package mlx5

// roce_nic_firmware: the adapter's non-volatile configuration, read and written with NVIDIA
// MFT's mlxconfig or mstflint's mstconfig (Debian's package; the same source and texts), the
// tools NVIDIA's nic-configuration-operator drives too. Both take the RDMA device (mlx5_N) as
// -d, which the netdev's device/infiniband directory names, so one command finds the device
// and queries it. The read tries mlxconfig, then mstconfig; a host with neither says so.
//
// mlxconfig -e q prints, per parameter, the Default, the Current (what the running firmware
// loaded) and the Next Boot value (the NVRAM); set changes Next Boot only, and the firmware
// loads it at the next cold reboot or firmware reset. The provider never reboots a host:
// PendingReboot says a managed Next Boot value differs from Current.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Firmware tools, in the order the read tries them.
var firmwareTools = []string{"mlxconfig", "mstconfig"}

const (
	markFWDevice = "@@device "
	markFWTool   = "@@tool "
)

// FirmwareReadScript returns the one command that queries the configuration of ifname's
// adapter: with mlxconfig when the host has it, else (or when its query fails) with mstconfig,
// so a host with both tools runs one query, not two (each is a slow start). Validate ifname
// first (ValidNetdev).
func FirmwareReadScript(ifname string, sudo bool) string { return firmwareReadScript("", ifname, sudo) }

// firmwareReadScript is FirmwareReadScript on the host tree under root.
func firmwareReadScript(root, ifname string, sudo bool) string {
	query := func(t string) string { return t + ` -d "$d" -e q 2>&1` }
	first, second := firmwareTools[0], firmwareTools[1]
	// ((command -v first && query first) || for: the second only when the first is absent or
	// failed. A for over one word is the shell's grouping here (the lab's sh has no braces).
	tools := "echo " + markFWTool + first + "; command -v " + first + " >/dev/null 2>&1 && " + query(first) +
		" || for t in " + second + `; do echo "` + markFWTool + `$t"; ` + strings.Replace(query(second), second, `"$t"`, 1) + "; done"
	script := "cd " + shQuote(root+netPath(ifname, "/device/infiniband")) + ` && for d in *; do echo "` + markFWDevice + `$d"; ` +
		tools + "; done; echo " + markEnd
	return shWrap(script, sudo)
}

// FirmwareParam is one row of the query: the values as the tool prints them (ETH(2), True(1),
// 255).
type FirmwareParam struct {
	Default, Current, Next string
}

// FirmwareState is what the read found.
type FirmwareState struct {
	Device string // the RDMA device the tool was given, e.g. mlx5_0
	Tool   string // mlxconfig or mstconfig
	Params map[string]FirmwareParam
	Order  []string // parameter names as the tool listed them
}

// FirmwareName is a parameter name as the tools print it.
var FirmwareName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// ParseFirmwareRead parses FirmwareReadScript's output: the first tool whose section holds a
// configuration table. Errors say what the host lacks.
func ParseFirmwareRead(ifname string, out []byte) (*FirmwareState, error) {
	text := strings.ReplaceAll(string(out), "\r\n", "\n")
	if !strings.Contains(text, markEnd) {
		if strings.Contains(text, "sudo:") {
			return nil, fmt.Errorf("sudo -n refused to run the firmware query: %s", strings.TrimSpace(text))
		}
		return nil, fmt.Errorf("%s has no RDMA device to query the firmware configuration through: %s", ifname, strings.TrimSpace(text))
	}
	device := ""
	sections := map[string][]string{}
	tool := ""
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, markFWDevice):
			if device == "" {
				device = strings.TrimPrefix(line, markFWDevice)
			}
			tool = ""
		case strings.HasPrefix(line, markFWTool):
			tool = strings.TrimPrefix(line, markFWTool)
		case line == markEnd:
			tool = ""
		case tool != "" && device != "":
			sections[tool] = append(sections[tool], line)
		}
	}
	if device != "" && device != "*" && !rdmaDevPattern.MatchString(device) {
		return nil, fmt.Errorf("%s's RDMA device has a name the provider does not send to a host: %q", ifname, device)
	}
	if device == "" || device == "*" {
		return nil, fmt.Errorf("%s has no RDMA device (no %s): the firmware configuration is reached through it", ifname, netPath(ifname, "/device/infiniband"))
	}
	var problems []string
	for _, t := range firmwareTools {
		lines := sections[t]
		st, err := parseFirmwareTable(lines)
		if err == nil {
			st.Device, st.Tool = device, t
			return st, nil
		}
		if joined := strings.Join(lines, "\n"); strings.TrimSpace(joined) == "" || strings.Contains(joined, ": not found") {
			continue
		}
		problems = append(problems, fmt.Sprintf("%s -d %s -e q: %v", t, device, err))
	}
	if len(problems) == 0 {
		return nil, fmt.Errorf("neither mlxconfig (NVIDIA MFT) nor mstconfig (mstflint, e.g. Debian's package mstflint) is installed on the host")
	}
	return nil, fmt.Errorf("%s", strings.Join(problems, "; "))
}

// parseFirmwareTable reads a query's table: the header names the columns.
func parseFirmwareTable(lines []string) (*FirmwareState, error) {
	st := &FirmwareState{Params: map[string]FirmwareParam{}}
	var cols []string
	var errs []string
	for _, raw := range lines {
		line := strings.TrimRight(raw, " ")
		switch {
		case strings.HasPrefix(line, "-E- "):
			errs = append(errs, strings.TrimPrefix(line, "-E- "))
		case strings.HasPrefix(line, "Configurations:"):
			hdr := strings.Fields(strings.ReplaceAll(strings.TrimPrefix(line, "Configurations:"), "Next Boot", "Next"))
			cols = hdr
		case cols != nil && strings.HasPrefix(line, "The '*' shows"):
		case cols != nil && line != "":
			f := strings.Fields(line)
			if f[0] == "*" {
				f = f[1:]
			}
			if len(f) != len(cols)+1 || !FirmwareName.MatchString(f[0]) {
				return nil, fmt.Errorf("unreadable row %q", line)
			}
			var p FirmwareParam
			for i, c := range cols {
				switch c {
				case "Default":
					p.Default = f[i+1]
				case "Current":
					p.Current = f[i+1]
				case "Next":
					p.Next = f[i+1]
				}
			}
			if p.Current == "" {
				p.Current = p.Next // firmware that cannot read its current values: assume loaded
			}
			st.Params[f[0]] = p
			st.Order = append(st.Order, f[0])
		}
	}
	switch {
	case len(errs) > 0:
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	case cols == nil:
		return nil, fmt.Errorf("no configuration table in %q", strings.TrimSpace(strings.Join(lines, "\n")))
	}
	return st, nil
}

// FirmwareValue is a value as the tool prints or takes it: NAME(n), n, 0xN, or an enum name.
var FirmwareValue = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*(?:\([0-9]+\))?|[0-9]+|0[xX][0-9a-fA-F]+)$`)

// fwNumber is the number in a value: n of NAME(n), or the value itself in C's base 0.
func fwNumber(v string) (uint64, bool) {
	if i := strings.IndexByte(v, '('); i >= 0 && strings.HasSuffix(v, ")") {
		v = v[i+1 : len(v)-1]
	}
	n, err := strconv.ParseUint(v, 0, 64)
	return n, err == nil
}

// FirmwareEqual reports whether a configured value means what the device shows: the same
// number, or the same enum name in any case (ETH, eth and ETH(2) are all ETH(2)).
func FirmwareEqual(want, shown string) bool {
	if a, ok := fwNumber(want); ok {
		b, ok := fwNumber(shown)
		return ok && a == b
	}
	name, _, _ := strings.Cut(shown, "(")
	return strings.EqualFold(want, name)
}

// setValue is what the tool takes for a configured value: the number of NAME(n) (the tool
// refuses that form), anything else as written.
func setValue(v string) string {
	if strings.Contains(v, "(") {
		n, _ := fwNumber(v)
		return strconv.FormatUint(n, 10)
	}
	return v
}

// FirmwareSetScript returns the one command that sets values (name -> value, validated with
// FirmwareName and FirmwareValue) on st's device with st's tool, -y answering its prompt.
func FirmwareSetScript(st *FirmwareState, values map[string]string, order []string, sudo bool) string {
	w := &script{sudo: sudo}
	args := []string{st.Tool, "-d", st.Device, "-y", "set"}
	for _, name := range order {
		args = append(args, name+"="+setValue(values[name]))
	}
	w.run(args...)
	return w.String()
}

// ValidFirmwareName reports whether name can be a parameter name (upper case, digits, _).
func ValidFirmwareName(name string) bool { return FirmwareName.MatchString(name) }

// SetApplied reports whether a set command's output says the tool wrote the configuration.
func SetApplied(out string) bool { return strings.Contains(out, "Applying... Done!") }

// SetError is the tool's own reason for a failed set: its -E- lines.
func SetError(out string) string {
	var errs []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "-E- ") {
			errs = append(errs, strings.TrimPrefix(l, "-E- "))
		}
	}
	if len(errs) == 0 {
		return strings.TrimSpace(out)
	}
	return strings.Join(errs, "; ")
}
