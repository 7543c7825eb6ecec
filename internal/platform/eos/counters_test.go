package eos

import (
	"reflect"
	"testing"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

const (
	ecnCapture      = "testdata/counters/eos_show_qos_interfaces_ecn_counters_queue_anta_failure.json.txt"
	discardsCapture = "testdata/counters/eos_show_interfaces_counters_discards_anta_failure.json.txt"
	channelsCapture = "testdata/counters/eos_show_interfaces_counters_discards_anta_port_channels.json.txt"
)

// TestParseCountersANTA reads ANTA's device-wide eAPI outputs: every interface either lists,
// the counting queues' marks ("-" queues left out) and the discards, each where its output has
// the interface.
func TestParseCountersANTA(t *testing.T) {
	got, err := ParseCounters(goldenfile.Capture(t, ecnCapture), goldenfile.Capture(t, discardsCapture))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 6 {
		t.Errorf("interfaces %v, want the 4 of the ECN output and the 2 of the discards", got)
	}
	if c := got["Ethernet10/28/1"]; !reflect.DeepEqual(c.ECNMarked, map[int]int64{1: 0, 2: 0}) || c.InDiscards != nil || c.OutDiscards != nil {
		t.Errorf("Ethernet10/28/1: %+v", c)
	}
	if c := got["Ethernet10/3/1"]; !reflect.DeepEqual(c.ECNMarked, map[int]int64{0: 0, 1: 0, 2: 2}) {
		t.Errorf("Ethernet10/3/1 marks %v", c.ECNMarked)
	}
	if c := got["Ethernet2"]; c.ECNMarked != nil || c.InDiscards == nil || *c.InDiscards != 0 || c.OutDiscards == nil || *c.OutDiscards != 42 {
		t.Errorf("Ethernet2: %+v", c)
	}
	if c := got["Ethernet1"]; c.InDiscards == nil || *c.InDiscards != 42 || *c.OutDiscards != 0 {
		t.Errorf("Ethernet1: %+v", c)
	}
}

// TestParseCountersPortChannels: the device-wide discards list port-channels too; they are
// interfaces of the output, and ValidPort tells the ports among them.
func TestParseCountersPortChannels(t *testing.T) {
	got, err := ParseCounters(`{"intfQueueCounters": {}}`, goldenfile.Capture(t, channelsCapture))
	if err != nil {
		t.Fatal(err)
	}
	var ports []string
	for name, c := range got {
		if ValidPort(name) {
			ports = append(ports, name)
		}
		if c.ECNMarked != nil || c.OutDiscards == nil {
			t.Errorf("%s: %+v", name, c)
		}
	}
	if len(got) != 5 || len(ports) != 3 || *got["Port-Channel2"].OutDiscards != 30 {
		t.Errorf("interfaces %v, ports %v", got, ports)
	}
}

func TestParseCountersRefusesWhatIsNoCount(t *testing.T) {
	for _, tc := range []struct{ ecn, disc string }{
		{`{"intfQueueCounters": {"Ethernet1": {"queueCounters": {"0": "many"}}}}`, `{}`},
		{`{"intfQueueCounters": {"Ethernet1": {"queueCounters": {"9": "1"}}}}`, `{}`},
		{`{}`, `{"interfaces": {"Ethernet1": {"inDiscards": -1}}}`},
		{`not json`, `{}`},
		{`{}`, `% Invalid input`},
	} {
		if _, err := ParseCounters(tc.ecn, tc.disc); err == nil {
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
	for _, bad := range []string{"", "Ethernet", "Ethernet1 | bash", "Ethernet1\n", "Management1", "Ethernet0", "Ethernet1/2/3/4", "ethernet1", "Port-Channel1"} {
		if ValidPort(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzParseCounters feeds ParseCounters the ANTA outputs and their mutations: it must not
// panic, and what it returns is never negative.
func FuzzParseCounters(f *testing.F) {
	f.Add(goldenfile.Capture(f, ecnCapture), goldenfile.Capture(f, discardsCapture))
	f.Add(goldenfile.Capture(f, ecnCapture), goldenfile.Capture(f, channelsCapture))
	f.Fuzz(func(t *testing.T, ecn, disc string) {
		got, err := ParseCounters(ecn, disc)
		if err != nil {
			return
		}
		for name, c := range got {
			for q, v := range c.ECNMarked {
				if q < 0 || q > 7 || v < 0 {
					t.Errorf("%s queue %d marks %d", name, q, v)
				}
			}
			for _, v := range []*int64{c.InDiscards, c.OutDiscards} {
				if v != nil && *v < 0 {
					t.Errorf("%s discards %d", name, *v)
				}
			}
		}
	})
}
