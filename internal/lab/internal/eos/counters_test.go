package eos

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

type eosECNJSON struct {
	Intfs map[string]struct {
		Queues map[string]string `json:"queueCounters"`
	} `json:"intfQueueCounters"`
}

type eosDiscardsJSON struct {
	In    *uint64 `json:"inDiscardsTotal"`
	Out   *uint64 `json:"outDiscardsTotal"`
	Intfs map[string]struct {
		In  *uint64 `json:"inDiscards"`
		Out *uint64 `json:"outDiscards"`
	} `json:"interfaces"`
}

func decode[T any](t *testing.T, text string) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v in %q", err, text)
	}
	return v
}

// TestEOSCounters: the ECN counters of the tx-queues that count marks and the port's discards
// in the JSON keys of ANTA's eAPI captures (the captures decode into the same structs, with no
// unknown key); marks grow on a counting, marking queue with the clock and faster in a storm,
// discards only in a storm, and nothing moves once the storm is over.
func TestEOSCounters(t *testing.T) {
	sw := startEOS(t)
	step := labtest.ManualClock(sw)
	c := newEOSCLI(t, sw, "enable")
	anta := decode[eosECNJSON](t, goldenfile.Capture(t, labtest.CounterCaptures("eos")+"eos_show_qos_interfaces_ecn_counters_queue_anta_failure.json.txt"))
	if anta.Intfs["Ethernet10/28/1"].Queues["0"] != "-" {
		t.Fatalf("capture %+v", anta)
	}
	decode[eosDiscardsJSON](t, goldenfile.Capture(t, labtest.CounterCaptures("eos")+"eos_show_interfaces_counters_discards_anta_failure.json.txt"))

	ecn := func() map[string]string {
		t.Helper()
		got := decode[eosECNJSON](t, c.Run("show qos interfaces Ethernet1 ecn counters queue | json"))
		if len(got.Intfs) != 1 {
			t.Fatalf("interfaces %+v", got.Intfs)
		}
		return got.Intfs["Ethernet1"].Queues
	}
	discards := func() (in, out uint64) {
		t.Helper()
		got := decode[eosDiscardsJSON](t, c.Run("show interfaces Ethernet1 counters discards | json"))
		e := got.Intfs["Ethernet1"]
		if len(got.Intfs) != 1 || e.In == nil || e.Out == nil || got.In == nil || *got.In != *e.In || *got.Out != *e.Out {
			t.Fatalf("discards %+v", got)
		}
		return *e.In, *e.Out
	}
	for q, v := range ecn() {
		if v != "-" {
			t.Errorf("fresh switch: queue %s counts %q", q, v)
		}
	}
	for _, l := range []string{"configure terminal", "qos profile ROCE", "tx-queue 3",
		"random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes", "random-detect ecn count",
		"tx-queue 5", "random-detect ecn count", "interface Ethernet1", "service-profile ROCE", "end"} {
		c.Must(l)
	}
	step(time.Second)
	got := ecn()
	if len(got) != 8 || got["3"] != "50" || got["5"] != "0" || got["0"] != "-" || got["7"] != "-" {
		t.Errorf("after a second: %v", got)
	}
	if in, out := discards(); in != 0 || out != 0 {
		t.Errorf("discards without a storm: %d %d", in, out)
	}
	if err := sw.Storm("Ethernet1", true); err != nil {
		t.Fatal(err)
	}
	step(2 * time.Second)
	if got := ecn(); got["3"] != strconv.Itoa(3*50+2*20_000) || got["5"] != "0" {
		t.Errorf("after 2 s of storm: %v", got)
	}
	if in, out := discards(); in != 400 || out != 2000 {
		t.Errorf("discards after 2 s of storm: %d %d", in, out)
	}
	if err := sw.Storm("Ethernet1", false); err != nil {
		t.Fatal(err)
	}
	step(time.Minute)
	if in, out := discards(); in != 400 || out != 2000 {
		t.Errorf("discards after the storm: %d %d", in, out)
	}
	if all := decode[eosDiscardsJSON](t, c.Run("show interfaces counters discards | json")); len(all.Intfs) != 4 || *all.Out != 2000 {
		t.Errorf("every port: %+v", all)
	}
	// Without an interface, every port with the counters its own form gives (ANTA's form).
	allECN := decode[eosECNJSON](t, c.Run("show qos interfaces ecn counters queue | json"))
	allDisc := decode[eosDiscardsJSON](t, c.Run("show interfaces counters discards | json"))
	for _, port := range sw.Interfaces() {
		one := decode[eosECNJSON](t, c.Run("show qos interfaces "+port+" ecn counters queue | json"))
		oneDisc := decode[eosDiscardsJSON](t, c.Run("show interfaces "+port+" counters discards | json"))
		if !reflect.DeepEqual(allECN.Intfs[port], one.Intfs[port]) || !reflect.DeepEqual(allDisc.Intfs[port], oneDisc.Intfs[port]) {
			t.Errorf("%s: every port's form %+v %+v, its own %+v %+v", port, allECN.Intfs[port], allDisc.Intfs[port], one.Intfs[port], oneDisc.Intfs[port])
		}
	}
	if len(allECN.Intfs) != len(sw.Interfaces()) || allECN.Intfs["Ethernet1"].Queues["3"] != strconv.Itoa(3*50+2*20_000+60*50) || allECN.Intfs["Ethernet2"].Queues["3"] != "-" {
		t.Errorf("every port's ECN counters: %+v", allECN.Intfs)
	}
	if err := sw.Storm("Ethernet9", true); err == nil || !strings.Contains(err.Error(), `eos-1 has no interface "Ethernet9"`) {
		t.Errorf("a port the switch lacks: %v", err)
	}
	if out := c.Run("show qos interfaces Ethernet9 ecn counters queue | json"); !strings.HasPrefix(out, "% Invalid input") {
		t.Errorf("a port the switch lacks: %q", out)
	}
}
