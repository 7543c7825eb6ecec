package mlx5

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

func TestCountersScriptGolden(t *testing.T) {
	for _, sudo := range []bool{true, false} {
		got := CountersScript("eth0", sudo)
		if strings.Contains(got, "\n") {
			t.Errorf("the counters script spans lines: %s", got)
		}
		golden(t, map[bool]string{true: "counters-sudo.sh", false: "counters-nosudo.sh"}[sudo], got+"\n")
	}
}

// render prints Counters one attribute a line, null where the host has no counter.
func render(c Counters) string {
	num := func(p *int64) string {
		if p == nil {
			return "null"
		}
		return fmt.Sprint(*p)
	}
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

func TestParseCountersGolden(t *testing.T) {
	for _, name := range []string{"counters-sample", "counters-lab"} {
		c, err := ParseCounters("eth0", fixture(t, name+".txt"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		golden(t, name+".parsed", render(c))
	}
}

func TestParseCountersErrors(t *testing.T) {
	ok := "@@ethtool\nNIC statistics:\n     rx_discards_phy: 3\n@@hw_counters\n@@end\n"
	for out, want := range map[string]string{
		"@@ethtool\nsh: 1: ethtool: not found\n@@hw_counters\n@@end\n":                            "ethtool is not installed",
		"@@ethtool\nCannot get stats strings information: No such device\n@@hw_counters\n@@end\n": "ethtool -S eth0 printed no statistics: Cannot get stats strings information: No such device",
		"sudo: a password is required\n":                                                          "sudo -n refused to run the counters script (sudo: a password is required)",
		"":                                                                                        "printed nothing",
		"@@ethtool\nNIC statistics:\n":                                                            "lacks the @@hw_counters marker",
		"@@ethtool\nNIC statistics:\n     rx_discards_phy: 99999999999999999999\n@@hw_counters\n@@end\n": "is not a counter",
	} {
		if _, err := ParseCounters("eth0", []byte(out)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseCounters(%q): %v, want an error with %q", out, err, want)
		}
	}
	c, err := ParseCounters("eth0", []byte(ok))
	if err != nil || c.Dropped == nil || *c.Dropped != 3 || len(c.PFCRxPause) != 0 || c.CNPSent != nil {
		t.Errorf("only rx_discards_phy: %+v, %v", c, err)
	}
	// Another netdev's files (a glob gone wrong) and the global pause block are not this
	// netdev's per-priority counters.
	c, err = ParseCounters("eth0", []byte("@@ethtool\nNIC statistics:\n     rx_global_pause: 5\n     rx_prio3_pause_duration: 7\n"+
		"@@hw_counters\n/sys/class/net/eth1/device/infiniband/mlx5_1/ports/1/hw_counters/np_cnp_sent:9\n@@end"))
	if err != nil || len(c.PFCRxPause) != 0 || c.CNPSent != nil || c.Dropped != nil {
		t.Errorf("foreign lines: %s, %v", render(c), err)
	}
}

// The script runs through a real /bin/sh with a stub ethtool, under a root whose path needs
// quoting.
func TestCountersScriptRunsInRealShell(t *testing.T) {
	h := newHost(t, "eth0")
	stats, err := os.ReadFile(filepath.Join("testdata", "counters-lab.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(stats)
	ethtoolOut := text[strings.Index(text, "NIC statistics:"):strings.Index(text, "@@hw_counters")]
	h.file(filepath.Join(filepath.Dir(h.root), "ethtool.out"), ethtoolOut, 0o644)
	h.file(filepath.Join(filepath.Dir(h.root), "bin", "ethtool"),
		"#!/bin/sh\n[ \"$1 $2\" = \"-S eth0\" ] || exit 9\ncat \"$(dirname \"$0\")/../ethtool.out\"\n", 0o755)
	hw := h.root + "/sys/class/net/eth0/device/infiniband/mlx5_0/ports/1/hw_counters/"
	h.file(hw+"np_cnp_sent", "7\n", 0o444)
	h.file(hw+"out_of_sequence", "2\n", 0o444)
	for _, sudo := range []bool{false, true} {
		out, log, err := h.run(CountersScript("eth0", sudo))
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if sudo != strings.Contains(log, "sudo sh") {
			t.Errorf("sudo %v ran: %q", sudo, log)
		}
		c, err := ParseCounters("eth0", []byte(out))
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if c.PFCRxPause[3] != 20000 || c.CNPSent == nil || *c.CNPSent != 7 || *c.OutOfSequence != 2 || c.ECNMarked != nil {
			t.Errorf("parsed %s from\n%s", render(c), out)
		}
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
	read := func(sudo bool) Counters {
		t.Helper()
		out, errOut, status := h.Run(CountersScript("eth1", sudo))
		if status != 0 || errOut != "" {
			t.Fatalf("exit %d: %s", status, errOut)
		}
		c, err := ParseCounters("eth1", []byte(out))
		if err != nil {
			t.Fatal(err)
		}
		return c
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
	time.Sleep(20 * time.Millisecond)
	during := read(true)
	time.Sleep(20 * time.Millisecond)
	later := read(false)
	if len(later.PFCRxPause) != 1 || later.PFCRxPause[3] <= during.PFCRxPause[3] ||
		during.PFCRxPause[3] == 0 || later.PFCTxPause[3] != 0 {
		t.Errorf("pauses during the storm: %s then %s", render(during), render(later))
	}
	for name, pair := range map[string][2]*int64{
		"ecn": {before.ECNMarked, later.ECNMarked}, "dropped": {before.Dropped, later.Dropped},
		"cnp sent": {before.CNPSent, later.CNPSent}, "cnp handled": {before.CNPHandled, later.CNPHandled},
		"out of sequence": {before.OutOfSequence, later.OutOfSequence},
	} {
		if *pair[1] <= *pair[0] {
			t.Errorf("%s did not grow: %d -> %d", name, *pair[0], *pair[1])
		}
	}
}
