package mlx5

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// clockedHost is a fresh host whose counters run on a fake clock, starting at zero.
func clockedHost(t *testing.T) (*hostEnv, *traffic.ManualClock) {
	t.Helper()
	e, clk := newHostEnv(t), traffic.NewManualClock()
	e.h.mu.Lock()
	e.h.clock = clk.Now
	for _, p := range e.h.ports {
		p.ctr.reset(clk.Now())
	}
	e.h.mu.Unlock()
	return e, clk
}

// stats parses `ethtool -S` output into name -> value, checking the format on the way.
func stats(t *testing.T, out string) map[string]uint64 {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "NIC statistics:" {
		t.Fatalf("first line %q", lines[0])
	}
	line := regexp.MustCompile(`^     ([a-z0-9_]+): (\d+)$`)
	m := map[string]uint64{}
	for _, l := range lines[1:] {
		g := line.FindStringSubmatch(l)
		if g == nil {
			t.Fatalf("line %q is not ethtool's format", l)
		}
		if _, dup := m[g[1]]; dup {
			t.Fatalf("%s printed twice", g[1])
		}
		m[g[1]], _ = strconv.ParseUint(g[2], 10, 64)
	}
	return m
}

// stormedHost is a clocked host whose eth0, PFC on priority 3, ran 10 s of traffic and then
// 2 s of a storm (the state the golden files capture).
func stormedHost(t *testing.T) *hostEnv {
	t.Helper()
	e, clk := clockedHost(t)
	e.Must("sudo -n mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0 > /dev/null")
	clk.Advance(10 * time.Second)
	if err := e.h.Storm("eth0", true); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Second)
	return e
}

func TestEthtoolStatsGolden(t *testing.T) {
	e := stormedHost(t)
	got := e.Must("ethtool -S eth0") // no privilege needed
	golden.Check(t, "testdata/ethtool-S-pfc3-storm.golden", got)
	s := stats(t, got)
	for name, want := range map[string]uint64{
		"rx_prio3_pause": 20000, "rx_prio3_pause_duration": 1900000, "tx_prio3_pause": 0, "rx_prio3_pause_transition": 200,
		"rx_discards_phy": 200, "tx_discards_phy": 800, "rx_packets": 12000, "rx_prio3_packets": 24000000,
		"rx_mac_control_phy": 20000,
	} {
		if s[name] != want {
			t.Errorf("%s = %d, want %d", name, s[name], want)
		}
	}
}

// The names and their order are the driver's: the sample's prio-3 rendering appears in the
// same order, and the PFC block only for PFC priorities.
func TestEthtoolStatsLayout(t *testing.T) {
	raw, err := os.ReadFile("testdata/mlx5-ethtool-S-counters.txt")
	if err != nil {
		t.Fatal(err)
	}
	var sample []string
	for _, l := range strings.Split(string(raw), "\n") {
		if name, ok := strings.CutPrefix(l, "     "); ok {
			sample = append(sample, name[:strings.Index(name, ":")])
		}
	}
	if len(sample) != 13 {
		t.Fatalf("sample has %d names", len(sample))
	}
	e := newHostEnv(t)
	order := func(out string) map[string]int {
		pos := map[string]int{}
		for i, l := range strings.Split(out, "\n") {
			if name, _, ok := strings.Cut(strings.TrimSpace(l), ":"); ok {
				pos[name] = i
			}
		}
		return pos
	}
	off := order(e.Must("ethtool -S eth0"))
	for _, absent := range []string{"rx_prio3_pause", "rx_prio0_pause", "tx_prio3_pause_duration"} {
		if _, ok := off[absent]; ok {
			t.Errorf("PFC off, yet %s is printed", absent)
		}
	}
	if _, ok := off["rx_global_pause"]; !ok {
		t.Error("PFC off: the global pause block is missing")
	}
	e.Must("sudo -n mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0 > /dev/null")
	on := order(e.Must("ethtool -S eth0"))
	last := -1
	for _, name := range sample {
		i, ok := on[name]
		if !ok || i <= last {
			t.Fatalf("%s missing or out of the sample's order (at %d, previous at %d)", name, i, last)
		}
		last = i
	}
	if _, ok := on["rx_global_pause"]; ok || on["tx_prio7_packets"] > on["rx_prio3_pause"] {
		t.Error("PFC on 3: global block printed, or the PFC block is not after the traffic block")
	}
	if _, ok := on["rx_prio4_pause"]; ok {
		t.Error("rx_prio4_pause printed with PFC off on 4")
	}
	if err := e.h.Storm("eth7", true); err == nil || !strings.Contains(err.Error(), `mlx5-1 has no interface "eth7" (interfaces: eth0, eth1)`) {
		t.Errorf("storm on a missing netdev: %v", err)
	}
}

func TestEthtoolErrors(t *testing.T) {
	e := newHostEnv(t)
	const bad = "ethtool: bad command line argument(s)\nFor more information run ethtool -h\n"
	e.Expect("ethtool -i eth0", "", bad, 1)
	e.Expect("ethtool eth0", "", bad, 1)
	e.Expect("ethtool -S", "", bad, 1)
	e.Expect("ethtool -S eth0 --all-groups", "", bad, 1)
	e.Expect("ethtool", "", bad, 1)
	e.Expect("ethtool -S eth9", "", "Cannot get stats strings information: No such device\n", 96)
	e.Expect("ethtool -S lo", "", "no stats available\n", 94)
	e.Expect("ethtool -S abcdefghijklmnopq", "", "ioctl-only request, device name longer than 15 not supported\n", 1)
	if out := e.Must("/usr/sbin/ethtool --statistics eth1 | grep -c prio"); out != "64\n" {
		t.Errorf("eth1 prio lines: %q", out)
	}
}

// The error paths that need no ConnectX match Debian's ethtool (6.1 in bookworm): a name longer
// than IFNAMSIZ-1, lo (no driver statistics), a missing netdev, a bad command line.
func TestEthtoolMatchesDebian(t *testing.T) {
	bin := realTool(t, "ethtool", "ethtool", "/usr/sbin", "/sbin")
	h := startHost(t, "")
	for _, c := range []string{"ethtool -S abcdefghijklmnop", "ethtool -S lo", "ethtool --statistics lo",
		"ethtool -S nosuch0", "ethtool -S", "ethtool"} {
		out, errOut, st := runReal(t, bin, c)
		if lo, le, ls := h.Run(c); lo != out || le != errOut || ls != st {
			t.Errorf("%s:\nlab  %q %q %d\nreal %q %q %d", c, lo, le, ls, out, errOut, st)
		}
	}
}

// hw counters: one world-readable decimal per file under the RDMA device's port 1.
func TestHWCounters(t *testing.T) {
	e, clk := clockedHost(t)
	const glob = "/sys/class/net/eth0/device/infiniband/*/ports/1/hw_counters/*"
	read := func() map[string]uint64 {
		t.Helper()
		m := map[string]uint64{}
		for _, l := range strings.Split(strings.TrimSpace(e.Must("grep -H . "+glob)), "\n") {
			path, v, _ := strings.Cut(l, ":")
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil || !strings.HasPrefix(path, "/sys/class/net/eth0/device/infiniband/mlx5_0/ports/1/hw_counters/") {
				t.Fatalf("line %q", l)
			}
			m[path[strings.LastIndex(path, "/")+1:]] = n
		}
		return m
	}
	clk.Advance(time.Second)
	first := read()
	if len(first) != len(hwCounterNames)+1 || first["lifespan"] != 10 {
		t.Fatalf("%d files: %v", len(first), first)
	}
	clk.Advance(time.Second)
	second := read()
	for name, want := range map[string]uint64{"np_cnp_sent": 90, "rp_cnp_handled": 80, "np_ecn_marked_roce_packets": 100, "out_of_sequence": 0, "rp_cnp_ignored": 0} {
		if second[name] != want || name != "out_of_sequence" && name != "rp_cnp_ignored" && second[name] <= first[name] {
			t.Errorf("%s: %d then %d, want it growing to %d", name, first[name], second[name], want)
		}
	}
	if err := e.h.Storm("eth0", true); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	if got := e.Must("cat /sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent /sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence"); got != "18135\n50\n" {
		t.Errorf("during a storm: %q", got)
	}
	e.Expect("echo 5 > /sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan", "",
		"sh: 1: cannot create /sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan: Permission denied\n", 2)
	e.Must("echo 5 | sudo -n tee /sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan > /dev/null")
	e.Expect("echo 99999 | sudo -n tee /sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan", "99999\n",
		"tee: /sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan: Invalid argument\n", 1)
	e.Expect("echo 1 | sudo -n tee /sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent", "1\n",
		"tee: /sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent: Permission denied\n", 1)

	// A reboot reloads the driver: counters from zero, no storm, lifespan back to 10.
	e.h.Reboot()
	clk.Advance(time.Second)
	after := read()
	if after["np_cnp_sent"] != 45 || after["out_of_sequence"] != 0 || after["lifespan"] != 10 {
		t.Errorf("after reboot: %v", after)
	}
}

// Pauses count only while a storm is on and only on priorities with PFC enabled at the time.
func TestStormPauses(t *testing.T) {
	e, clk := clockedHost(t)
	pauses := func() (p3, p4 uint64, has4 bool) {
		s := stats(t, e.Must("ethtool -S eth1"))
		v4, ok := s["rx_prio4_pause"]
		return s["rx_prio3_pause"], v4, ok
	}
	e.Must("sudo -n mlnx_qos -i eth1 --pfc 0,0,0,1,0,0,0,0 > /dev/null")
	clk.Advance(5 * time.Second)
	if p3, _, _ := pauses(); p3 != 0 {
		t.Errorf("no storm, yet %d pauses", p3)
	}
	if err := e.h.Storm("eth1", true); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	e.Must("sudo -n mlnx_qos -i eth1 --pfc 0,0,0,1,1,0,0,0 > /dev/null")
	clk.Advance(time.Second)
	if p3, p4, _ := pauses(); p3 != 20000 || p4 != 10000 {
		t.Errorf("after 2 s of storm (prio 4 on for the last): prio3 %d, prio4 %d", p3, p4)
	}
	if err := e.h.Storm("eth1", false); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	if p3, p4, _ := pauses(); p3 != 20000 || p4 != 10000 {
		t.Errorf("storm over, yet pauses grew: %d %d", p3, p4)
	}
	if s := stats(t, e.Must("ethtool -S eth0")); s["rx_discards_phy"] != 0 {
		t.Error("the storm reached eth0")
	}
	e.h.Reboot()
	if _, _, has4 := pauses(); has4 {
		t.Error("PFC survived the reboot")
	}
}

// countersScript is what the provider's mlx5 counter read sends for eth0 and eth1, without
// sudo (platform/mlx5 CountersScript), and countersAllScript its read of every NIC port of
// the host; their outputs on a host with PFC on 3 during a storm on eth0 are the fixtures of
// that package's parser tests (testdata/counters-lab.txt and counters-all-lab.txt there).
const (
	countersHW = `/sys/class/net/"$i"/device/infiniband/*/ports/1/hw_counters/np_ecn_marked_roce_packets ` +
		`/sys/class/net/"$i"/device/infiniband/*/ports/1/hw_counters/np_cnp_sent ` +
		`/sys/class/net/"$i"/device/infiniband/*/ports/1/hw_counters/rp_cnp_handled ` +
		`/sys/class/net/"$i"/device/infiniband/*/ports/1/hw_counters/out_of_sequence ` +
		`/sys/class/net/"$i"/device/infiniband/*/ports/1/hw_counters/packet_seq_err ` +
		`/sys/class/net/"$i"/device/infiniband/*/ports/1/hw_counters/implied_nak_seq_err ` +
		`/sys/class/net/"$i"/device/infiniband/*/ports/1/hw_counters/local_ack_timeout_err ` +
		`/sys/class/net/"$i"/device/infiniband/*/ports/1/hw_counters/duplicate_request ` +
		`/sys/class/net/"$i"/device/infiniband/*/ports/1/hw_counters/roce_adp_retrans 2>&1`
	countersHost = `; echo @@netdevs; ls /sys/class/net 2>&1; echo @@end'`
	countersPort = `ls /sys/class/net/"$i"/device/infiniband >/dev/null 2>&1 && ` +
		`! ls /sys/class/net/"$i"/device/physfn >/dev/null 2>&1 && ` +
		`! grep -qsE '\''^(32|pf[0-9]+[vs]f[0-9]+)$'\'' /sys/class/net/"$i"/type /sys/class/net/"$i"/phys_port_name && `
	countersScript = `sh -c 'for i in eth0 eth1; do echo "@@netdev $i" && echo @@ethtool && ethtool -S "$i" 2>&1; ` +
		`echo @@hw_counters && grep -H . ` + countersHW + `; done` + countersHost
	countersAllScript = `sh -c 'cd /sys/class/net && for i in *; do ` +
		countersPort + `echo "@@netdev $i" && echo @@ethtool && ethtool -S "$i" 2>&1; ` +
		countersPort + `echo @@hw_counters && grep -H . ` + countersHW + `; done` + countersHost
)

func TestCountersScriptOutput(t *testing.T) {
	e := stormedHost(t)
	golden.Check(t, "testdata/counters-script.golden", e.Must(countersScript))
	// Every port: VFs and representors (AddVFs) are left out by the script's own tests.
	e.h.AddVFs(1)
	golden.Check(t, "testdata/counters-script-all.golden", e.Must(countersAllScript))
}
