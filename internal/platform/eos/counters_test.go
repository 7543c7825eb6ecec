package eos

import (
	"reflect"
	"strings"
	"testing"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

const (
	ecnCapture      = "testdata/counters/eos_show_qos_interfaces_ecn_counters_queue_anta_failure.json.txt"
	discardsCapture = "testdata/counters/eos_show_interfaces_counters_discards_anta_failure.json.txt"
)

// TestParseCountersANTA reads ANTA's eAPI outputs: the counting queues' marks ("-" queues are
// left out) and the port's discards, for ports each output has.
func TestParseCountersANTA(t *testing.T) {
	ecn, disc := goldenfile.Capture(t, ecnCapture), goldenfile.Capture(t, discardsCapture)
	c, err := ParseCounters("Ethernet10/28/1", ecn, disc)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[int]int64{1: 0, 2: 0}; !reflect.DeepEqual(c.ECNMarked, want) || c.InDiscards != nil || c.OutDiscards != nil {
		t.Errorf("Ethernet10/28/1: %+v", c)
	}
	c, err = ParseCounters("Ethernet10/3/1", ecn, disc)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[int]int64{0: 0, 1: 0, 2: 2}; !reflect.DeepEqual(c.ECNMarked, want) {
		t.Errorf("Ethernet10/3/1 marks %v, want %v", c.ECNMarked, want)
	}
	c, err = ParseCounters("Ethernet2", ecn, disc)
	if err != nil {
		t.Fatal(err)
	}
	if c.ECNMarked != nil || c.InDiscards == nil || *c.InDiscards != 0 || c.OutDiscards == nil || *c.OutDiscards != 42 {
		t.Errorf("Ethernet2: %+v", c)
	}
	if _, err := ParseCounters("Ethernet9", ecn, disc); err == nil || !strings.Contains(err.Error(), "no counters of interface Ethernet9") {
		t.Errorf("a port neither output has: %v", err)
	}
}

func TestParseCountersRefusesWhatIsNoCount(t *testing.T) {
	for _, tc := range []struct{ ecn, disc string }{
		{`{"intfQueueCounters": {"Ethernet1": {"queueCounters": {"0": "many"}}}}`, `{}`},
		{`{"intfQueueCounters": {"Ethernet1": {"queueCounters": {"9": "1"}}}}`, `{}`},
		{`{}`, `{"interfaces": {"Ethernet1": {"inDiscards": -1}}}`},
		{`not json`, `{}`},
	} {
		if _, err := ParseCounters("Ethernet1", tc.ecn, tc.disc); err == nil {
			t.Errorf("%s / %s parsed", tc.ecn, tc.disc)
		}
	}
}

func TestValidPort(t *testing.T) {
	for _, ok := range []string{"Ethernet1", "Ethernet3/1", "Ethernet10/28/1"} {
		if !ValidPort(ok) {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", "Ethernet", "Ethernet1 | bash", "Ethernet1\n", "Management1", "Ethernet0", "Ethernet1/2/3/4", "ethernet1"} {
		if ValidPort(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzParseCounters feeds ParseCounters the ANTA outputs and their mutations: it must not
// panic, and what it returns is never negative.
func FuzzParseCounters(f *testing.F) {
	f.Add("Ethernet10/3/1", goldenfile.Capture(f, ecnCapture), goldenfile.Capture(f, discardsCapture))
	f.Add("Ethernet2", goldenfile.Capture(f, ecnCapture), goldenfile.Capture(f, discardsCapture))
	f.Fuzz(func(t *testing.T, port, ecn, disc string) {
		c, err := ParseCounters(port, ecn, disc)
		if err != nil {
			return
		}
		for q, v := range c.ECNMarked {
			if q < 0 || q > 7 || v < 0 {
				t.Errorf("queue %d marks %d", q, v)
			}
		}
		for _, v := range []*int64{c.InDiscards, c.OutDiscards} {
			if v != nil && *v < 0 {
				t.Errorf("discards %d", *v)
			}
		}
	})
}
