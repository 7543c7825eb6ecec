package mlx5

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/lab"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

func TestCountersScriptGolden(t *testing.T) {
	for name, script := range map[string]string{
		"counters-sudo.sh":   CountersScript([]string{"eth0"}, true),
		"counters-nosudo.sh": CountersScript([]string{"eth0", "eth1", "eth0"}, false), // eth0 once
		"counters-all.sh":    CountersScript(nil, false),
	} {
		if strings.Contains(script, "\n") {
			t.Errorf("the counters script spans lines: %s", script)
		}
		golden(t, name, script+"\n")
	}
}

// render prints Counters one attribute a line, null where the host has no counter.
func render(c Counters) string {
	num := platformtest.Null
	prios := func(m map[int]int64) string {
		var parts []string
		for prio := range 8 {
			v, ok := m[prio]
			parts = append(parts, fmt.Sprintf("%d=%s", prio, num(map[bool]*int64{true: &v, false: nil}[ok])))
		}
		return strings.Join(parts, " ")
	}
	out := fmt.Sprintf("pfc_rx_pause %s\npfc_tx_pause %s\necn_marked_packets %s\ndropped_packets %s\n"+
		"cnp_sent %s\ncnp_handled %s\nout_of_sequence %s\nroce_tx_packets %s\n",
		prios(c.PFCRxPause), prios(c.PFCTxPause), num(c.ECNMarked), num(c.Dropped), num(c.CNPSent), num(c.CNPHandled), num(c.OutOfSequence),
		num(c.RoCETxPackets))
	for _, name := range RetransmitCounters {
		v, ok := c.Retransmit[name]
		if !ok {
			out += name + " null\n"
			continue
		}
		out += fmt.Sprintf("%s %d\n", name, v)
	}
	return out
}

// renderAll prints each netdev's counters under its name, in name order.
func renderAll(got map[string]Counters) string { return platformtest.RenderEach(got, "netdev", render) }

func TestParseCountersGolden(t *testing.T) {
	for name, ifnames := range map[string][]string{
		"counters-sample": {"eth0"}, "counters-lab": {"eth0", "eth1"}, "counters-all-lab": nil,
	} {
		got, err := ParseCounters(ifnames, fixture(t, name+".txt"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		golden(t, name+".parsed", renderAll(got))
	}
	// One netdev of a read of two.
	got, err := ParseCounters([]string{"eth1"}, fixture(t, "counters-lab.txt"))
	if err != nil || len(got) != 1 || got["eth1"].Dropped == nil {
		t.Errorf("eth1 alone: %v, %v", got, err)
	}
}

func TestParseCountersErrors(t *testing.T) {
	const host = "@@netdevs\neth0\nlo\n@@end\n"
	ok := "@@netdev eth0\n@@ethtool\nNIC statistics:\n     rx_discards_phy: 3\n@@hw_counters\n" + host
	for out, want := range map[string]string{
		"@@netdev eth0\n@@ethtool\nsh: 1: ethtool: not found\n@@hw_counters\n" + host:                            "ethtool is not installed",
		"@@netdev eth0\n@@ethtool\nCannot get stats strings information: No such device\n@@hw_counters\n" + host: "ethtool -S eth0 printed no statistics: Cannot get stats strings information: No such device",
		"sudo: a password is required\n": "sudo -n refused to run the counters script (sudo: a password is required)",
		"":                               "printed nothing",
		"@@netdev eth0\n@@ethtool\nNIC statistics:\n":                                                                   "lacks the @@netdevs marker",
		"@@netdev eth0\n@@ethtool\nNIC statistics:\n" + host:                                                            "netdev eth0: the counters script's output lacks the @@hw_counters marker",
		"@@netdev eth0\n@@ethtool\nNIC statistics:\n     rx_discards_phy: 99999999999999999999\n@@hw_counters\n" + host: "is not a counter",
		"@@netdevs\neth0\n@@end\n":                                                                                      "the counters script's output has no section for netdev eth0",
	} {
		if _, err := ParseCounters([]string{"eth0"}, []byte(out)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseCounters(%q): %v, want an error with %q", out, err, want)
		}
	}
	got, err := ParseCounters([]string{"eth0"}, []byte(ok))
	c := got["eth0"]
	if err != nil || c.Dropped == nil || *c.Dropped != 3 || len(c.PFCRxPause) != 0 || c.CNPSent != nil {
		t.Errorf("only rx_discards_phy: %+v, %v", c, err)
	}
	// A netdev the host lacks is named with those it has, before ethtool's own complaint.
	if _, err := ParseCounters([]string{"eth0", "eth9"}, []byte(ok)); err == nil ||
		err.Error() != `the host has no netdev "eth9" (its netdevs: eth0, lo)` {
		t.Errorf("a missing netdev: %v", err)
	}
	// Every port of a host with none.
	if _, err := ParseCounters(nil, []byte(host)); err == nil ||
		err.Error() != "the host has no NIC port with an RDMA device (its netdevs: eth0, lo)" {
		t.Errorf("no NIC port: %v", err)
	}
	// A name twice in the output (a backslash garbled by dash's echo) is refused.
	if _, err := ParseCounters(nil, []byte(strings.Replace(ok, host, "", 1)+ok)); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a netdev twice: %v", err)
	}
	// Another netdev's files (a glob gone wrong) and the global pause block are not this
	// netdev's per-priority counters.
	got, err = ParseCounters([]string{"eth0"}, []byte("@@netdev eth0\n@@ethtool\nNIC statistics:\n     rx_global_pause: 5\n     rx_prio3_pause_duration: 7\n"+
		"@@hw_counters\n/sys/class/net/eth1/device/infiniband/mlx5_1/ports/1/hw_counters/np_cnp_sent:9\n"+host))
	if c := got["eth0"]; err != nil || len(c.PFCRxPause) != 0 || c.CNPSent != nil || c.Dropped != nil {
		t.Errorf("foreign lines: %s, %v", render(c), err)
	}
}

// The scripts run through a real /bin/sh with a stub ethtool, under a root whose path needs
// quoting: two netdevs named, then every port of a host that also has a VF, a representor, a
// veth without an RDMA device and lo, of which only the two NIC ports are read.
func TestCountersScriptRunsInRealShell(t *testing.T) {
	h := newHost(t, "eth0")
	text := goldenfile.Read(t, "testdata/counters-lab.txt")
	ethtoolOut := text[strings.Index(text, "NIC statistics:"):strings.Index(text, "@@hw_counters")]
	base := filepath.Dir(h.root)
	h.file(filepath.Join(base, "ethtool.out"), ethtoolOut, 0o644)
	h.file(filepath.Join(base, "bin", "ethtool"), "#!/bin/sh\n"+`[ "$1" = -S ] || exit 9; echo "ethtool $2" >> "$STUB_LOG"
case "$2" in
eth0|eth1) cat "$(dirname "$0")/../ethtool.out";;
*) echo 'Cannot get stats strings information: No such device' >&2; exit 96;;
esac
`, 0o755)
	net := h.root + "/sys/class/net/"
	h.file(net+"eth0/device/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent", "7\n", 0o444)
	h.file(net+"eth0/device/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence", "2\n", 0o444)
	h.file(net+"eth1/device/infiniband/mlx5_1/ports/1/hw_counters/np_cnp_sent", "11\n", 0o444)
	h.file(net+"eth0v0/device/physfn/uevent", "", 0o644)
	h.file(net+"eth0v0/device/infiniband/mlx5_2/ports/1/hw_counters/np_cnp_sent", "5\n", 0o444)
	h.file(net+"eth0pf0vf0/phys_port_name", "pf0vf0\n", 0o444)
	h.file(net+"eth0pf0vf0/device/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent", "7\n", 0o444)
	h.file(net+"veth0/type", "1\n", 0o444)
	for _, sudo := range []bool{false, true} {
		out, log, err := h.run(countersScript(h.root, []string{"eth0", "eth1"}, sudo))
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if sudo != strings.Contains(log, "sudo sh") || !strings.Contains(log, "ethtool eth0\nethtool eth1\n") {
			t.Errorf("sudo %v ran: %q", sudo, log)
		}
		got, err := ParseCounters([]string{"eth0", "eth1"}, []byte(out))
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		c := got["eth0"]
		if c.PFCRxPause[3] != 20000 || c.CNPSent == nil || *c.CNPSent != 7 || *c.OutOfSequence != 2 || c.ECNMarked != nil ||
			*got["eth1"].CNPSent != 11 || got["eth1"].OutOfSequence != nil {
			t.Errorf("parsed %s from\n%s", renderAll(got), out)
		}
	}
	out, log, err := h.run(countersScript(h.root, nil, false))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if log != "ethtool eth0\nethtool eth1\n" {
		t.Errorf("every port ran ethtool on: %q\n%s", log, out)
	}
	got, err := ParseCounters(nil, []byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got) != 2 || *got["eth0"].CNPSent != 7 || *got["eth1"].CNPSent != 11 {
		t.Errorf("every port: %s from\n%s", renderAll(got), out)
	}
	// A netdev the host lacks, among others it has.
	out, _, _ = h.run(countersScript(h.root, []string{"eth1", "eth7"}, false))
	if _, err := ParseCounters([]string{"eth1", "eth7"}, []byte(out)); err == nil ||
		!strings.HasPrefix(err.Error(), `the host has no netdev "eth7" (its netdevs: eth0, eth0pf0vf0, eth0v0, eth1, lo, veth0)`) {
		t.Errorf("eth7: %v\n%s", err, out)
	}
}

// On a lab host the counters move: PFC pauses only for PFC priorities and only in a storm.
func TestCountersOnLab(t *testing.T) {
	l, err := lab.Start(t.Context(), lab.Options{Hosts: map[string]int{"mlx5": 1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Stop)
	h := l.Host("mlx5-1")
	h.AddVFs(1) // VFs and representors are not NIC ports: every port is eth0 and eth1
	read := func(sudo bool) Counters {
		t.Helper()
		out, errOut, status := h.Run(CountersScript(nil, sudo))
		if status != 0 || errOut != "" {
			t.Fatalf("exit %d: %s", status, errOut)
		}
		got, err := ParseCounters(nil, []byte(out))
		if err != nil {
			t.Fatal(err)
		}
		if names := slices.Sorted(maps.Keys(got)); !slices.Equal(names, []string{"eth0", "eth1"}) {
			t.Fatalf("every port of the host: %v", names)
		}
		return got["eth1"]
	}
	before := read(false)
	if len(before.PFCRxPause) != 0 || before.Dropped == nil || *before.Dropped != 0 || before.CNPSent == nil {
		t.Fatalf("fresh host: %s", render(before))
	}
	if _, errOut, status := h.Run("sudo -n mlnx_qos -i eth1 --pfc 0,0,0,1,0,0,0,0"); status != 0 {
		t.Fatal(errOut)
	}
	if err := h.Storm("eth1", true); err != nil {
		t.Fatal(err)
	}
	var during, later Counters
	pairs := func() map[string][2]*int64 {
		return map[string][2]*int64{
			"ecn": {before.ECNMarked, later.ECNMarked}, "dropped": {before.Dropped, later.Dropped},
			"cnp sent": {before.CNPSent, later.CNPSent}, "cnp handled": {before.CNPHandled, later.CNPHandled},
			"out of sequence": {before.OutOfSequence, later.OutOfSequence},
		}
	}
	grown := func() bool {
		for _, pair := range pairs() {
			if pair[1] == nil || *pair[1] <= *pair[0] {
				return false
			}
		}
		return later.PFCRxPause[3] > during.PFCRxPause[3]
	}
	// The storm's counters grow with time: wait until they have, then assert what was waited for.
	platformtest.Eventually(func() bool { during = read(true); return during.PFCRxPause[3] != 0 })
	platformtest.Eventually(func() bool { later = read(false); return grown() })
	if len(later.PFCRxPause) != 1 || later.PFCRxPause[3] <= during.PFCRxPause[3] ||
		during.PFCRxPause[3] == 0 || later.PFCTxPause[3] != 0 {
		t.Errorf("pauses during the storm: %s then %s", render(during), render(later))
	}
	for name, pair := range pairs() {
		if *pair[1] <= *pair[0] {
			t.Errorf("%s did not grow: %d -> %d", name, *pair[0], *pair[1])
		}
	}
}
