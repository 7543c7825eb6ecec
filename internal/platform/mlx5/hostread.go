package mlx5

import (
	"fmt"
	"slices"
	"strings"
)

// Markers of the host read script (HostReadScript) besides those of the read script.
const (
	markNetdev   = "@@netdev " // followed by the netdev's name: opens its sections
	markCCParams = "@@cc_params"
)

// netdevMarkers open the sections of one netdev, hostMarkers those read once per host.
var (
	netdevMarkers = []string{markQoS, markDCB, markUevent, markIB, markValues}
	hostMarkers   = []string{markCCParams, markUnits, markLLDPad, markNetdevs, markEnd}
)

// HostReadScript returns the one command that reads what ReadScript reads, for every netdev of
// the host: a loop over /sys/class/net runs the per-netdev commands of ReadScript with "$i" in
// place of the name, each netdev's output opened by "@@netdev NAME"; then the host-wide ones
// run once: the cc_params of every PCI function (the glob ReadScript greps), pgrep lldpad, ls
// /sys/class/net. The RDMA traffic_class is read per netdev, through the netdev, as ReadScript
// does (a missing one is an error of that netdev). Besides ReadScript's subset it needs cd, for
// over a glob and "$i" inside double quotes. mlnx_qos runs only for netdevs with an RDMA device;
// for the others the state's QoSError says mlnx_qos failed, with no text of its own. Parse the
// output with ParseHostRead.
func HostReadScript(sudo bool) string { return hostReadScript("", sudo) }

// hostReadScript is HostReadScript on the host tree under root.
func hostReadScript(root string, sudo bool) string {
	net := root + "/sys/class/net"
	in := func(rest string) string { return loopNetPath(root, rest) }
	isVF, isOther, port := nicPort(root)
	values := []string{
		in("/ecn/roce_rp/enable/") + "*",
		in("/ecn/roce_np/enable/") + "*",
		in("/device/infiniband/") + "*" + shQuote("/tc/1/traffic_class"),
	}
	perNetdev := []string{
		`echo "` + markNetdev + `$i"`,
		// mlnx_qos (a Python program, slow to start) only where there is an RDMA device: a
		// Kubernetes host has hundreds of veths. Elsewhere the section says it failed. Nor for
		// SR-IOV VFs (device/physfn), switchdev representors (phys_port_name pfNvfM, pfNsfM)
		// or IPoIB netdevs (type 32): an SR-IOV node has tens to hundreds of them, none of
		// which carries the port's QoS; their sections say @@skipped, and a resource on one
		// reads it alone (ReadScript).
		"echo " + markQoS, port + ` && command -v mlnx_qos >/dev/null 2>&1 && mlnx_qos -i "$i" -a 2>&1 || echo ` + markFailed,
		isVF + " || " + isOther + " && echo " + markSkipped,
		// Without mlnx_qos, dcb for the same netdevs (dcb.go).
		"echo " + markDCB, dcbRead(`"$i"`, port),
		"echo " + markUevent, "cat " + in("/device/uevent") + " 2>&1",
		"echo " + markIB, "ls " + in("/device/infiniband") + " 2>&1",
		"echo " + markValues, "grep -H . " + strings.Join(values, " ") + " 2>&1",
	}
	host := []string{
		"echo " + markCCParams, "grep -H . " + shQuote(root+"/sys/kernel/debug/mlx5/") + "*/cc_params/* 2>&1",
		"echo " + markUnits, unitsRead(root),
		"echo " + markLLDPad, "pgrep -x lldpad",
		"echo " + markNetdevs, "ls " + shQuote(net) + " 2>&1",
		"echo " + markEnd,
	}
	script := "cd " + shQuote(net) + " && for i in *; do " + strings.Join(perNetdev, "; ") + "; done; " + strings.Join(host, "; ")
	return shWrap(script, sudo)
}

// loopNetPath is /sys/class/net/"$i"REST under root: a path of the netdev a script's loop is at.
func loopNetPath(root, rest string) string {
	return shQuote(root+"/sys/class/net/") + `"$i"` + shQuote(rest)
}

// nicPort returns the tests, on the netdev "$i" of a loop, for a netdev that is not a NIC port
// of its own: a VF (isVF), a representor or an IPoIB netdev (isOther: one grep over two files;
// type holds "32" for IPoIB, phys_port_name pfNvfM/pfNsfM for a representor; reading it fails
// with EOPNOTSUPP on a legacy-mode PF, which -s silences); and port, true for a NIC port: one
// with an RDMA device that is neither.
func nicPort(root string) (isVF, isOther, port string) {
	in := func(rest string) string { return loopNetPath(root, rest) }
	isVF = "ls " + in("/device/physfn") + " >/dev/null 2>&1"
	isOther = "grep -qsE " + shQuote(`^(32|pf[0-9]+[vs]f[0-9]+)$`) + " " + in("/type") + " " + in("/phys_port_name")
	port = "ls " + in("/device/infiniband") + " >/dev/null 2>&1 && ! " + isVF + " && ! " + isOther
	return isVF, isOther, port
}

// ParseHostRead parses the output (stdout and stderr together) of HostReadScript: one state per
// netdev section, keyed by name, each what ParseRead(name, output of ReadScript(name, ...)) gives
// on the same host (the host-wide sections are shared: Netdevs, LLDPad, the cc_params of the
// netdev's PCI address). Netdevs without an mlx5 device (lo) are there, with their errors. It
// fails only when out is not such an output at all, as ParseRead does.
//
// dash's echo interprets backslashes, so a netdev whose name has one (never a ValidNetdev) may
// be listed under a garbled name, or left out when the garbling cut its section; a garbled name
// that collides with another netdev's fails the parse.
func ParseHostRead(out []byte) (map[string]*HostState, error) {
	text := strings.ReplaceAll(string(out), "\r\n", "\n")
	netdevs := map[string]map[string][]string{}
	var order []string
	host := map[string][]string{}
	var cur map[string][]string // the sections being filled: a netdev's or host
	sec, seen := "", false
	add := func(l string) {
		if sec != "" {
			cur[sec] = append(cur[sec], l)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if k := strings.Index(line, markNetdev); k >= 0 {
			if line[:k] != "" {
				add(line[:k])
			}
			name := line[k+len(markNetdev):]
			if _, dup := netdevs[name]; dup {
				return nil, fmt.Errorf("the read script's output has netdev %q twice (a netdev name with a backslash?)", name)
			}
			if len(host) > 0 {
				return nil, fmt.Errorf("the read script's output is garbled: %s%s after %s", markNetdev, name, markCCParams)
			}
			cur, sec, seen = map[string][]string{}, "", true
			netdevs[name], order = cur, append(order, name)
			continue
		}
		line, mark := cutMarker(line)
		if line != "" || mark == "" {
			add(line)
		}
		if mark == "" {
			continue
		}
		seen = true
		isHost := slices.Contains(hostMarkers, mark)
		if isHost && len(host) == 0 {
			cur = host
		}
		if _, dup := cur[mark]; dup || cur == nil || !isHost && len(host) > 0 {
			return nil, fmt.Errorf("the read script's output is garbled at %s", mark)
		}
		cur[mark], sec = []string{}, mark
		if mark == markEnd {
			break
		}
	}
	if !seen {
		return nil, noMarkerError(text)
	}
	for _, m := range hostMarkers {
		if _, ok := host[m]; !ok {
			return nil, readScriptError(text, m)
		}
	}
	states := make(map[string]*HostState, len(order))
	for _, name := range order {
		nd, complete := netdevs[name], true
		for _, m := range netdevMarkers {
			_, ok := nd[m]
			complete = complete && (ok || m == markDCB) // optional, as in splitSections
		}
		if !complete && ValidNetdev(name) {
			return nil, fmt.Errorf("the read script's output for netdev %s lacks a section", name)
		} else if !complete {
			continue
		}
		sections := map[string][]string{
			markQoS: nd[markQoS], markDCB: nd[markDCB], markUevent: nd[markUevent], markIB: nd[markIB],
			markValues: slices.Concat(nd[markValues], host[markCCParams]),
			markUnits:  host[markUnits], markLLDPad: host[markLLDPad], markNetdevs: host[markNetdevs], markEnd: host[markEnd],
		}
		states[name] = stateFromSections(name, sections)
	}
	return states, nil
}

// cutMarker splits a marker of the host read script off the end of line (a marker glued to
// output that lacked its final newline), as splitSections does.
func cutMarker(line string) (string, string) {
	for _, m := range netdevMarkers {
		if strings.HasSuffix(line, m) {
			return strings.TrimSuffix(line, m), m
		}
	}
	for _, m := range hostMarkers {
		if strings.HasSuffix(line, m) {
			return strings.TrimSuffix(line, m), m
		}
	}
	return line, ""
}

// noMarkerError explains an output without a single marker: sudo refused, nothing ran, or
// something else answered.
func noMarkerError(text string) error {
	first := strings.TrimSpace(text)
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	if first == "" || strings.HasPrefix(first, "sudo:") {
		return readScriptError(text, markQoS)
	}
	return fmt.Errorf("the read script's output does not start with %s: %q", strings.TrimSpace(markNetdev), first)
}
