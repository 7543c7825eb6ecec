package mlx5

// Counters for roce_interface_counters and roce_fabric_counters: one command reads the
// counters of every netdev asked for, or of every NIC port of the host, and needs no
// privilege. CountersScript([]string{"eth0", "eth1"}, false) is (one line; D is
// /sys/class/net/"$i"/device/infiniband, the nine hw_counters files as below):
//
//	sh -c 'for i in eth0 eth1; do echo "@@netdev $i" && echo @@ethtool && ethtool -S "$i" 2>&1;
//	echo @@hw_counters && grep -H . D/*/ports/1/hw_counters/np_ecn_marked_roce_packets
//	D/*/ports/1/hw_counters/np_cnp_sent D/*/ports/1/hw_counters/rp_cnp_handled
//	D/*/ports/1/hw_counters/out_of_sequence D/*/ports/1/hw_counters/packet_seq_err
//	D/*/ports/1/hw_counters/implied_nak_seq_err D/*/ports/1/hw_counters/local_ack_timeout_err
//	D/*/ports/1/hw_counters/duplicate_request D/*/ports/1/hw_counters/roce_adp_retrans 2>&1;
//	done; echo @@netdevs; ls /sys/class/net 2>&1; echo @@end'
//
// Each name is quoted with shQuote (and validated by the caller, ValidNetdev); inside the loop
// it is only ever "$i" in double quotes, taken literally. With no names the loop runs over
// every netdev of the host (cd /sys/class/net && for i in *) and each of its two commands is
// guarded by the host read's test for a NIC port (nicPort: an RDMA device, not a VF, a
// representor or an IPoIB netdev), so a Kubernetes host's veths cost one ls each and the
// representors, which share the uplink's RDMA device and port 1 hw_counters, are not read as
// if they were the uplink. With sudo it is `sudo -n sh -c '...'`, like the other scripts.
// Besides the shell subset in doc.go (the host read's for loop, cd, "$i", !, grep -qsE) it uses
// `ethtool -S IF` (ETHTOOL_GSTATS, allowed to any user): "NIC statistics:", then one
// "     NAME: VALUE" line per counter, names from mlx5e's en_stats.c. The hw_counters files are
// mlx5_ib's port counters (counters.c), world-readable, one decimal each. The output is, per
// netdev, "@@netdev NAME", @@ethtool and @@hw_counters; then, once, @@netdevs (the host's
// netdevs, so that a name the host lacks is said to be missing) and @@end.
//
// # Decisions (DESIGN.md, roce_interface_counters)
//
//   - PFC: rx_prio<N>_pause / tx_prio<N>_pause (pause frames received / sent on priority N).
//     mlx5e prints them only for priorities with PFC enabled, so the maps hold exactly those
//     priorities; the others are null (no counter), not 0.
//   - ecn_marked_packets: hw_counters/np_ecn_marked_roce_packets, the RoCE packets that
//     arrived CE-marked at this notification point (what DCQCN reacts to). Not rx_prio<N>_marked
//     (per_port_buff_congest): that counts packets the NIC's own receive buffer marked, needs
//     the sbcam capability and is per priority.
//   - dropped_packets: rx_discards_phy + tx_discards_phy (RFC 2863 ifInDiscards and
//     ifOutDiscards of the physical port: buffer drops in either direction); null when the
//     driver prints neither.
//   - cnp_sent / cnp_handled / out_of_sequence: hw_counters np_cnp_sent, rp_cnp_handled,
//     out_of_sequence. A counter whose file is missing (no RDMA device, an older driver, a
//     firmware without congestion-counter queries) is null.
//   - Retransmission (RetransmitCounters): hw_counters packet_seq_err (NAK-sequence errors
//     received: the requester goes back and resends), implied_nak_seq_err, local_ack_timeout_err
//     (the ack timer expired: resent), duplicate_request (the responder saw a resent request),
//     roce_adp_retrans (adaptive retransmissions, ConnectX-6 and later), each null where the
//     device has no such file; the first three are the requester's retransmission triggers
//     (RetransmitTriggers). RoCETxPackets is ethtool's tx_vport_rdma_unicast_packets, the RDMA
//     packets the port sent, against which a retransmit rate is taken.
//   - Every port (no names): the netdevs nicPort accepts, the same ports the host read queries
//     with mlnx_qos.

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Counters are one read of a netdev's counters. Nil pointers and absent map keys are counters
// the host does not provide.
type Counters struct {
	PFCRxPause map[int]int64 // priority -> pause frames received; only PFC-enabled priorities
	PFCTxPause map[int]int64 // priority -> pause frames sent
	ECNMarked  *int64
	Dropped    *int64
	CNPSent    *int64
	CNPHandled *int64

	OutOfSequence *int64

	// Retransmit holds the RetransmitCounters the device has, by hw_counters name.
	Retransmit    map[string]int64
	RoCETxPackets *int64
}

// RetransmitCounters are the hw_counters that tell of RoCE retransmission.
var RetransmitCounters = []string{"packet_seq_err", "implied_nak_seq_err", "local_ack_timeout_err", "duplicate_request", "roce_adp_retrans"}

// RetransmitTriggers are the requester-side counters each of which means a retransmission.
var RetransmitTriggers = []string{"packet_seq_err", "implied_nak_seq_err", "local_ack_timeout_err"}

// Section markers of the counters script's output, per netdev (after markNetdev NAME); the
// host's markNetdevs and markEnd close it.
const (
	markEthtool    = "@@ethtool"
	markHWCounters = "@@hw_counters"
)

var (
	netdevCounterMarkers = []string{markEthtool, markHWCounters, markEnd}
	hostCounterMarkers   = []string{markNetdevs, markEnd}
)

// hwCounterFiles are the hw_counters files the script reads.
var hwCounterFiles = append([]string{"np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "out_of_sequence"}, RetransmitCounters...)

// CountersScript returns the one command that reads the counters of ifnames, or of every NIC
// port of the host when ifnames is empty. Validate the names first (ValidNetdev); they are
// quoted anyway. A name given twice is read once.
func CountersScript(ifnames []string, sudo bool) string { return countersScript("", ifnames, sudo) }

// countersScript is CountersScript on the host tree under root.
func countersScript(root string, ifnames []string, sudo bool) string {
	dir := loopNetPath(root, "/device/infiniband/") + "*/ports/1/hw_counters/"
	files := make([]string, len(hwCounterFiles))
	for i, f := range hwCounterFiles {
		files[i] = dir + f
	}
	ethtool := `echo "` + markNetdev + `$i" && echo ` + markEthtool + ` && ethtool -S "$i" 2>&1`
	hw := "echo " + markHWCounters + " && grep -H . " + strings.Join(files, " ") + " 2>&1"
	host := "echo " + markNetdevs + "; ls " + shQuote(root+"/sys/class/net") + " 2>&1; echo " + markEnd
	if len(ifnames) == 0 {
		_, _, port := nicPort(root)
		loop := "cd " + shQuote(root+"/sys/class/net") + " && for i in *; do " +
			port + " && " + ethtool + "; " + port + " && " + hw + "; done"
		return shWrap(loop+"; "+host, sudo)
	}
	var words []string
	seen := map[string]bool{}
	for _, n := range ifnames {
		if !seen[n] {
			seen[n] = true
			words = append(words, shQuote(n))
		}
	}
	loop := "for i in " + strings.Join(words, " ") + "; do " + ethtool + "; " + hw + "; done"
	return shWrap(loop+"; "+host, sudo)
}

var (
	reStatLine = regexp.MustCompile(`^\s+([A-Za-z0-9_.\-]+): (\d+)$`)
	rePause    = regexp.MustCompile(`^(rx|tx)_prio([0-7])_pause$`)
	reHWLine   = regexp.MustCompile(`^(.*)/device/infiniband/[^/]+/ports/1/hw_counters/([a-z_]+):(\d+)$`)
)

// ParseCounters parses the output (stdout and stderr together) of CountersScript(ifnames,
// ...): the counters of each netdev read, by name; with no names, of every NIC port the host
// has. It fails when a netdev asked for is not on the host (naming those it has), when ethtool
// printed no statistics for one (not installed, no such device), or when out is not such an
// output at all (sudo refused, nothing ran).
func ParseCounters(ifnames []string, out []byte) (map[string]Counters, error) {
	text := strings.ReplaceAll(string(out), "\r\n", "\n")
	host, err := scriptSections(text, "counters", hostCounterMarkers)
	if err != nil {
		return nil, err
	}
	chunks, order, err := netdevChunks(text)
	if err != nil {
		return nil, err
	}
	netdevs := strings.Fields(strings.Join(host[markNetdevs], "\n"))
	want := ifnames
	if len(want) == 0 {
		if len(order) == 0 {
			return nil, fmt.Errorf("the host has no NIC port with an RDMA device (its netdevs: %s)", strings.Join(netdevs, ", "))
		}
		want = order
	}
	got := make(map[string]Counters, len(want))
	for _, name := range want {
		if _, done := got[name]; done {
			continue
		}
		if !slices.Contains(netdevs, name) {
			return nil, fmt.Errorf("the host has no netdev %q (its netdevs: %s)", name, strings.Join(netdevs, ", "))
		}
		chunk, ok := chunks[name]
		if !ok {
			return nil, fmt.Errorf("the counters script's output has no section for netdev %s", name)
		}
		c, err := parseNetdevCounters(name, chunk+"\n"+markEnd+"\n")
		if err != nil {
			return nil, err
		}
		got[name] = c
	}
	return got, nil
}

// netdevChunks cuts the per-netdev part of the output at its "@@netdev NAME" lines (a marker
// may be glued to the end of a line whose command printed no final newline), up to the host's
// @@netdevs: each netdev's text by name, and the names in order.
func netdevChunks(text string) (map[string]string, []string, error) {
	if i := strings.LastIndex(text, markNetdevs); i >= 0 {
		text = text[:i]
	}
	chunks := map[string]string{}
	var order []string
	parts := strings.Split(text, markNetdev)
	for _, part := range parts[1:] {
		name, body, _ := strings.Cut(part, "\n")
		if _, dup := chunks[name]; dup {
			// dash's echo interprets backslashes: a name with one (never a ValidNetdev) may
			// come out garbled into another's.
			return nil, nil, fmt.Errorf("the counters script's output has netdev %q twice", name)
		}
		chunks[name], order = body, append(order, name)
	}
	return chunks, order, nil
}

// parseNetdevCounters parses one netdev's sections (closed by markEnd).
func parseNetdevCounters(ifname, out string) (Counters, error) {
	sections, err := scriptSections(out, "counters", netdevCounterMarkers)
	if err != nil {
		return Counters{}, fmt.Errorf("netdev %s: %w", ifname, err)
	}
	c := Counters{PFCRxPause: map[int]int64{}, PFCTxPause: map[int]int64{}}
	stats, err := ethtoolStats(ifname, sections[markEthtool])
	if err != nil {
		return Counters{}, err
	}
	for name, v := range stats {
		if m := rePause.FindStringSubmatch(name); m != nil {
			prio := int(m[2][0] - '0')
			if m[1] == "rx" {
				c.PFCRxPause[prio] = v
			} else {
				c.PFCTxPause[prio] = v
			}
		}
	}
	rx, okRx := stats["rx_discards_phy"]
	tx, okTx := stats["tx_discards_phy"]
	if okRx || okTx {
		// Two counters near 2^63 summed to a negative count. Regression seed:
		// testdata/fuzz/FuzzParseCounters/discards-overflow.
		if rx > math.MaxInt64-tx {
			return Counters{}, fmt.Errorf("ethtool -S %s: rx_discards_phy %d + tx_discards_phy %d is not a counter", ifname, rx, tx)
		}
		c.Dropped = ptr(rx + tx)
	}
	if v, ok := stats["tx_vport_rdma_unicast_packets"]; ok {
		c.RoCETxPackets = ptr(v)
	}
	hw := map[string]int64{}
	for _, l := range sections[markHWCounters] {
		m := reHWLine.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil || !strings.HasSuffix(m[1], "/sys/class/net/"+ifname) {
			continue // "grep: PATH: No such file or directory": that counter is null
		}
		v, err := strconv.ParseInt(m[3], 10, 64)
		if err != nil {
			return Counters{}, fmt.Errorf("hw_counters/%s of %s: %q is not a counter", m[2], ifname, m[3])
		}
		hw[m[2]] = v
	}
	for name, dst := range map[string]**int64{
		"np_ecn_marked_roce_packets": &c.ECNMarked, "np_cnp_sent": &c.CNPSent,
		"rp_cnp_handled": &c.CNPHandled, "out_of_sequence": &c.OutOfSequence,
	} {
		if v, ok := hw[name]; ok {
			*dst = ptr(v)
		}
	}
	c.Retransmit = map[string]int64{}
	for _, name := range RetransmitCounters {
		if v, ok := hw[name]; ok {
			c.Retransmit[name] = v
		}
	}
	return c, nil
}

// ethtoolStats reads `ethtool -S` output into name -> value.
func ethtoolStats(ifname string, lines []string) (map[string]int64, error) {
	text := strings.TrimSpace(strings.Join(lines, "\n"))
	first, _, _ := strings.Cut(text, "\n")
	switch {
	case strings.HasSuffix(first, "ethtool: not found"):
		return nil, fmt.Errorf("ethtool is not installed on the host or not on the login user's PATH (%s): "+
			"install the ethtool package, or set sudo = true so that /usr/sbin is searched", first)
	case first != "NIC statistics:":
		return nil, fmt.Errorf("ethtool -S %s printed no statistics: %s", ifname, firstLines(text, 3))
	}
	stats := map[string]int64{}
	for _, l := range lines {
		m := reStatLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		v, err := strconv.ParseInt(m[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("ethtool -S %s: %s = %q is not a counter", ifname, m[1], m[2])
		}
		stats[m[1]] = v
	}
	return stats, nil
}

// noSudoHint says, per script, what sudo = false means for it.
var noSudoHint = map[string]string{
	"counters": " (counters need no privilege)",
	"LLDP":     " (lldpcli then needs the login user in lldpd's group, _lldpd on Debian and Ubuntu)",
}

// scriptSections cuts the output of a script that echoes markers (the last is markEnd) at the
// marker lines (each on a line of its own, or glued to the end of a line whose command printed
// no final newline). script names it in errors.
func scriptSections(out, script string, markers []string) (map[string][]string, error) {
	out = strings.ReplaceAll(out, "\r\n", "\n")
	sections := cutAtMarkers(out, markers)
	for _, m := range markers {
		if _, ok := sections[m]; ok {
			continue
		}
		text := strings.TrimSpace(out)
		switch {
		case strings.HasPrefix(text, "sudo:"):
			return nil, fmt.Errorf("sudo -n refused to run the %s script (%s): allow this user to run sh "+
				"through sudo without a password, or set sudo = false for the device%s", script, firstLines(text, 1), noSudoHint[script])
		case text == "":
			return nil, fmt.Errorf("the %s script printed nothing: the host's shell did not run it", script)
		}
		return nil, fmt.Errorf("the %s script's output lacks the %s marker: %s", script, m, firstLines(text, 3))
	}
	return sections, nil
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, " / ")
}

func ptr(v int64) *int64 { return &v }
