package nvued

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestCounters: pauses arrive only on the switch priorities of the port's PFC profile and only
// while its storm is on; ECN marks grow on the traffic classes of its congestion-control
// profile. The clock is the test's.
func TestCounters(t *testing.T) {
	now := time.Unix(1000, 0)
	sw := New(Options{Hostname: "c", Ports: []string{"swp1", "swp2"}, Username: "admin", Password: "pw", ApplyTime: time.Millisecond,
		Clock: func() time.Time { return now }})
	srv := httptest.NewTLSServer(sw)
	defer srv.Close()
	rev := newRevision(t, srv)
	call(t, srv, http.MethodPatch, "/nvue_v1/?rev="+rev, `{"qos": {"pfc": {"P": {"switch-priority": {"3": {}}}},
	  "congestion-control": {"P": {"traffic-class": {"3": {"ecn": "enable", "min-threshold": 150000, "max-threshold": 1500000}}}}},
	  "interface": {"swp1": {"qos": {"pfc": {"profile": "P"}, "congestion-control": {"profile": "P"}}}}}`)
	if got := applyAndWait(t, srv, rev, ays); got["state"] != "applied" {
		t.Fatalf("apply: %v", got)
	}
	read := func(path string) map[string]any {
		t.Helper()
		code, body := call(t, srv, http.MethodGet, "/nvue_v1/interface/"+path, "")
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d %v", path, code, body)
		}
		return body
	}
	num := func(m map[string]any, keys ...string) float64 {
		t.Helper()
		v, ok := at(m, keys...).(float64)
		if !ok {
			t.Fatalf("%v has no number at %v", m, keys)
		}
		return v
	}
	now = now.Add(10 * time.Second)
	if !sw.Storm("swp1", true) || sw.Storm("swp9", true) {
		t.Fatal("Storm must take the switch's ports only")
	}
	now = now.Add(2 * time.Second)
	c := read("swp1/counters/qos")
	if num(c, "pfc-stats", "3", "rx-pause-frames") != 2*stormPauseFPS || num(c, "pfc-stats", "4", "rx-pause-frames") != 0 {
		t.Errorf("pauses: %v", c["pfc-stats"])
	}
	if num(c, "egress-queue-stats", "3", "ecn-marked-frames") != 12*ecnMarkFPS+2*stormECNMarkFPS || num(c, "egress-queue-stats", "0", "ecn-marked-frames") != 0 {
		t.Errorf("marks: %v", c["egress-queue-stats"])
	}
	sw.Storm("swp1", false)
	now = now.Add(5 * time.Second)
	pfc := read("swp1/counters/qos/pfc-stats")
	if num(pfc, "3", "rx-pause-frames") != 2*stormPauseFPS {
		t.Errorf("a stopped storm pauses no more: %v", pfc["3"])
	}
	if other := read("swp2/counters/qos/pfc-stats"); num(other, "3", "rx-pause-frames") != 0 {
		t.Errorf("swp2 binds no PFC profile and never stormed: %v", other["3"])
	}
	if code, _ := call(t, srv, http.MethodGet, "/nvue_v1/interface/swp9/counters/qos", ""); code != http.StatusNotFound {
		t.Errorf("a port the switch lacks: %d", code)
	}
	if num(c, "port-stats", "Pause Frames", "receive") != 2*stormPauseFPS || at(c, "port-stats", "ECN Marked Packets", "receive") != "n/a" {
		t.Errorf("port-stats: %v", c["port-stats"])
	}
	// Every port's counters in one GET of the interfaces, with NVUE's include parameter: only
	// the included branches come back; a port the switch lacks is simply not there.
	code, all := call(t, srv, http.MethodGet, "/nvue_v1/interface?include=/*/counters/qos", "")
	if code != http.StatusOK || len(all) != 2 || num(all, "swp1", "counters", "qos", "pfc-stats", "3", "rx-pause-frames") != 2*stormPauseFPS ||
		at(all, "swp1", "lldp") != nil || at(all, "swp1", "type") != nil || at(all, "swp2", "counters", "qos", "egress-queue-stats") == nil {
		t.Errorf("include=/*/counters/qos: %d %v", code, all)
	}
	code, two := call(t, srv, http.MethodGet, "/nvue_v1/interface?include=/swp2/counters/qos&include=/swp9/counters/qos", "")
	if code != http.StatusOK || len(two) != 1 || at(two, "swp2", "counters", "qos", "pfc-stats") == nil {
		t.Errorf("named ports: %d %v", code, two)
	}
	if code, none := call(t, srv, http.MethodGet, "/nvue_v1/interface?include=/swp9/counters/qos", ""); code != http.StatusOK || len(none) != 0 {
		t.Errorf("only a missing port: %d %v", code, none)
	}
	// The configuration has no counters: they are operational state.
	if _, applied := call(t, srv, http.MethodGet, "/nvue_v1/interface?rev=applied&include=/*/counters/qos", ""); len(applied) != 0 {
		t.Errorf("rev=applied: %v", applied)
	}
}
