package eos

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

// testdata/eos-running-config-qos-1.txt is, as its '#' header says, (A) an AVD-rendered
// running-config (aristanetworks/avd eos_cli_config_gen molecule qos.cfg), (B) and (C) excerpts (AVD fixture, AMD's
// deployed DCQCN config). Each part parses on its own; goldens hold the whole Config.
func TestParseSample(t *testing.T) {
	parts := sampleParts(t)
	got := map[string]*Config{}
	for _, part := range []string{"A", "B", "C"} {
		got[part] = running.Text(t, parts[part])
		golden(t, "sample-"+strings.ToLower(part)+".golden", goldenfile.JSON(t, got[part]))
	}
	a := got["A"]
	if a.Hostname != "qos" || a.DSCPToTC[46] != 5 || a.DSCPToTC[18] != 4 || a.DSCPToTC[19] != 2 || a.COSToTC[3] != 3 ||
		a.TCToQueue[6] != 2 || a.TCToQueue[1] != 1 {
		t.Errorf("(A) maps: host %q dscp %v cos %v tc->queue %v", a.Hostname, a.DSCPToTC, a.COSToTC, a.TCToQueue)
	}
	test := a.Profiles["test"]
	if test.Trust != "dscp" || *test.Queues[1].BandwidthPercent != 50 || test.Queues[1].Priority != "none" ||
		test.Queues[2].Priority != "strict" || test.Queues[4].BandwidthPercent != nil {
		t.Errorf("(A) profile test = %+v", test)
	}
	if a.Interfaces["Ethernet1"].ServiceProfile != "test" {
		t.Errorf("(A) Ethernet1 = %+v", a.Interfaces["Ethernet1"])
	}
	b := got["B"]
	if p := b.Profiles["test_with_pfc"]; !p.PFCOn || !cmp.Equal(p.NoDrop, []int{0}) {
		t.Errorf("(B) test_with_pfc = %+v", p)
	}
	uc := b.Profiles["uc_mc_queues_test"]
	if diff := cmp.Diff(&ECN{MinBytes: 327680, MaxBytes: 327680, Probability: 90, Weight: -1}, uc.Queues[2].ECN); diff != "" {
		t.Errorf("(B) uc-tx-queue 2 ECN in kbytes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&ECN{MinBytes: Unknown, MaxBytes: Unknown, Probability: 100, Weight: 10}, uc.Queues[4].ECN); diff != "" {
		t.Errorf("(B) uc-tx-queue 4 ECN in segments (-want +got):\n%s", diff)
	}
	c := got["C"]
	dcqcn := c.Profiles["QOS_ROCE_DCQCN"]
	if !cmp.Equal(dcqcn.NoDrop, []int{3}) || dcqcn.Queues[3].ECN.Probability != 20 || dcqcn.Queues[3].ECN.MinBytes != Unknown ||
		c.Interfaces["Ethernet2/5/1"].ServiceProfile != "QOS_ROCE_DCQCN" || c.TCToQueue != defaultTCToQueue() {
		t.Errorf("(C) = %+v %+v", dcqcn, c.Interfaces)
	}
	// Part (C)'s policy imported: the segments thresholds read Unknown (a plan rewrites them).
	p, ok := c.Policy("QOS_ROCE_DCQCN", nil)
	if !ok || len(p.Classes) != 0 {
		t.Errorf("(C) policy: a queue with neither bandwidth nor priority strict is no class: %+v", p)
	}
}

// The layout internal/lab/eos-switch.md documents (copied there from real EOS), as text and as
// `| json` of the same configuration: both give the same Config.
func TestParseSwitchLayout(t *testing.T) {
	text := running.File(t, "eos-switch-running-config.txt")
	golden(t, "eos-switch.golden", goldenfile.JSON(t, text))
	js, err := ParseRunningConfigJSON([]byte(goldenfile.Read(t, "testdata/eos-switch-running-config.json")))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(text, js); diff != "" {
		t.Errorf("JSON parse differs from text parse (-text +json):\n%s", diff)
	}
	// Imported without state: class names tc<N>; traffic class 6 goes to tx-queue 2, which
	// the profile does not configure, so it is no class and the DSCP 48-55 it gets leave
	// default_traffic_class ambiguous.
	p, ok := text.Policy("ROCE", nil)
	if !ok {
		t.Fatal("Policy(ROCE) not found")
	}
	golden(t, "eos-switch-import.golden", goldenfile.JSON(t, p))
}

// CRLF line ends read as LF; each refused case is refused (platformtest.Dialect.CheckParse).
func TestParseDialect(t *testing.T) { dialect.CheckParse(t) }

func TestParseTolerant(t *testing.T) {
	// Any order, unknown blocks and lines, later lines win, "end" anywhere.
	c := running.Text(t, `qos map dscp 1 to traffic-class 5
end
router bgp 65000
   neighbor 10.0.0.1 remote-as 65001
interface Ethernet9
   service-profile A
   unknown thing here
qos map dscp 1 to traffic-class 6
qos map exp 3 to traffic-class 3
qos map traffic-class 2 to dscp 12
qos profile A
   qos trust cos
   tx-queue 2
      bandwidth percent 10
      shape rate 100 percent
      no bandwidth percent
      random-detect ecn count
   priority-flow-control priority 3 no-drop
   priority-flow-control priority 4 no-drop
   priority-flow-control priority 3 drop
`)
	if c.DSCPToTC[1] != 6 || c.TCToQueue[2] != 2 || c.Interfaces["Ethernet9"].ServiceProfile != "A" {
		t.Errorf("config = %+v", c)
	}
	a := c.Profiles["A"]
	if a.Trust != "cos" || !cmp.Equal(a.NoDrop, []int{4}) || a.Queues[2].BandwidthPercent != nil || a.Queues[2].ECN != nil {
		t.Errorf("profile A = %+v, queue 2 %+v", a, a.Queues[2])
	}
}

// The JSON form refuses what is not `| json` of a running-config.
func TestParseJSONErrors(t *testing.T) {
	for _, js := range []string{`[]`, `{"cmds": {"a": 1}}`, `{"cmds": {"qos map dscp 99 to traffic-class 1": null}}`, `{"cmds": `} {
		if _, err := ParseRunningConfigJSON([]byte(js)); err == nil {
			t.Errorf("ParseRunningConfigJSON(%s) succeeded", js)
		}
	}
}

// queueThresholds reads the ECN thresholds of a tx-queue configured with value and unit for
// both (the dialect's Thresholds); EOS's default probability, 100, comes with them.
func queueThresholds(t *testing.T, value, unit string) (minBytes, maxBytes int64) {
	line := "qos profile A\n   tx-queue 3\n      random-detect ecn minimum-threshold " + value + " " + unit +
		" maximum-threshold " + value + " " + unit + "\n"
	e := running.Text(t, line).Profiles["A"].Queues[3].ECN
	if e.Probability != 100 {
		t.Errorf("%q reads %+v", line, e)
	}
	return e.MinBytes, e.MaxBytes
}

func TestParseSeconds(t *testing.T) {
	for s, want := range map[string]int{"0.2": 200, "0.20": 200, "1.11": 1110, "0.05": 50, "2": 2000, "60.00": 60000, ".5": 500, "0.0050": 5} {
		if got, err := parseSeconds(s); err != nil || got != want {
			t.Errorf("parseSeconds(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", ".", "x", "-1", "+1", "0.0015", "1e3", "99999999999"} {
		if got, err := parseSeconds(s); err == nil {
			t.Errorf("parseSeconds(%q) = %d, want an error", s, got)
		}
	}
	for ms, want := range map[int]string{200: "0.20", 1110: "1.11", 50: "0.05", 60000: "60.00"} {
		if got := formatSeconds(ms); got != want {
			t.Errorf("formatSeconds(%d) = %q, want %q", ms, got, want)
		}
	}
}
