package sonic

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// sonicCounterSwitch is a sonic switch whose counters run on a fake clock.
func sonicCounterSwitch(t *testing.T) (*Switch, gpb.GNMIClient, *traffic.ManualClock) {
	t.Helper()
	sw, c := startSONiC(t, "")
	clk := traffic.NewManualClock()
	sw.mu.Lock()
	sw.clock = clk.Now
	sw.traffic = newSONiCTraffic(sw.ports, clk.Now())
	sw.mu.Unlock()
	return sw, c, clk
}

// cget reads COUNTERS_DB paths in one Get as sonic-gnmi's DB client takes it (prefix target
// COUNTERS_DB, type ALL) and returns each update's JSON (or string) in path order.
func cget(t *testing.T, c gpb.GNMIClient, typ gpb.GetRequest_DataType, paths ...string) ([]string, error) {
	t.Helper()
	req := &gpb.GetRequest{Prefix: &gpb.Path{Target: "COUNTERS_DB"}, Encoding: gpb.Encoding_JSON_IETF, Type: typ}
	for _, p := range paths {
		gp := &gpb.Path{}
		for _, n := range strings.Split(p, "/") {
			gp.Elem = append(gp.Elem, &gpb.PathElem{Name: n})
		}
		req.Path = append(req.Path, gp)
	}
	resp, err := c.Get(labtest.Ctx(t), req)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range resp.GetNotification() {
		if n.GetPrefix().GetTarget() != "COUNTERS_DB" {
			t.Errorf("notification prefix %v", n.GetPrefix())
		}
		v := n.GetUpdate()[0].GetVal()
		if s, ok := v.GetValue().(*gpb.TypedValue_StringVal); ok {
			out = append(out, s.StringVal)
			continue
		}
		out = append(out, string(v.GetJsonIetfVal()))
	}
	return out, nil
}

func mustCGet(t *testing.T, c gpb.GNMIClient, paths ...string) []string {
	t.Helper()
	out, err := cget(t, c, gpb.GetRequest_ALL, paths...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func hashes(t *testing.T, body string) map[string]map[string]string {
	t.Helper()
	var m map[string]map[string]string
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return m
}

func flat(t *testing.T, body string) map[string]string {
	t.Helper()
	var m map[string]string
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return m
}

// The name maps and virtual paths resolve as sonic-gnmi resolves them: COUNTERS/<port> is the
// port's oid hash, a field of it is a string, Queues holds every queue and its periodic
// watermark, PriorityGroups every PG's periodic watermarks; a port the switch lacks is
// NotFound; any request type but ALL is refused first.
func TestSONiCCountersDBPaths(t *testing.T) {
	_, c, clk := sonicCounterSwitch(t)
	clk.Advance(10 * time.Second)
	got := mustCGet(t, c, "COUNTERS_PORT_NAME_MAP", "COUNTERS/Ethernet4", "COUNTERS/Ethernet4/SAI_PORT_STAT_IF_IN_UCAST_PKTS",
		"COUNTERS/Ethernet4/Queues", "PERIODIC_WATERMARKS/Ethernet4/PriorityGroups", "COUNTERS_QUEUE_NAME_MAP")
	names := flat(t, got[0])
	if names["Ethernet0"] != "oid:0x1000000000001" || names["Ethernet4"] != "oid:0x1000000000002" || len(names) != 4 {
		t.Errorf("COUNTERS_PORT_NAME_MAP %v", names)
	}
	port := flat(t, got[1])
	if port["SAI_PORT_STAT_IF_IN_UCAST_PKTS"] != "40000000" || port["SAI_PORT_STAT_PFC_3_RX_PKTS"] != "0" || got[2] != "40000000" {
		t.Errorf("port hash after 10 s: %v; field %q", port, got[2])
	}
	qs := hashes(t, got[3])
	if qs["Ethernet4:3"]["SAI_QUEUE_STAT_PACKETS"] != "5000000" || qs["Ethernet4:3:periodic"]["SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES"] != "2048" ||
		qs["Ethernet4:3"]["SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS"] != "500" || qs["Ethernet4:0"]["SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS"] != "0" || len(qs) != 16 {
		t.Errorf("queues: %v", qs)
	}
	if _, ok := qs["Ethernet4:3"]["PFC_WD_STATUS"]; ok {
		t.Error("no PFC_WD|Ethernet4 in CONFIG_DB: the watchdog does not run there")
	}
	pgs := hashes(t, got[4])
	if len(pgs) != 8 || pgs["Ethernet4:3"]["SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES"] != "0" {
		t.Errorf("PGs %v", pgs)
	}
	if qm := flat(t, got[5]); qm["Ethernet4:3"] != "oid:0x1500000000000c" {
		t.Errorf("COUNTERS_QUEUE_NAME_MAP Ethernet4:3 = %s", qm["Ethernet4:3"])
	}
	// The oid hash itself, as a real path, and by the alias on a wildcard.
	got = mustCGet(t, c, "COUNTERS/oid:0x1000000000002", "COUNTERS/Ethernet*")
	if flat(t, got[0])["SAI_PORT_STAT_IF_IN_UCAST_PKTS"] != "40000000" || hashes(t, got[1])["etp2"]["SAI_PORT_STAT_IF_IN_UCAST_PKTS"] != "40000000" {
		t.Errorf("real path %s; wildcard %s", got[0], got[1])
	}
	_, err := cget(t, c, gpb.GetRequest_ALL, "COUNTERS/Ethernet99")
	if status.Code(err) != codes.NotFound || !strings.Contains(err.Error(), "No valid entry found on COUNTERS_DB with key COUNTERS:Ethernet99") {
		t.Errorf("a port the switch lacks: %v", err)
	}
	_, err = cget(t, c, gpb.GetRequest_CONFIG, "COUNTERS/Ethernet4")
	if status.Code(err) != codes.Unimplemented || !strings.Contains(err.Error(), "unsupported request type: CONFIG") {
		t.Errorf("a Get of type CONFIG: %v", err)
	}
}

// A storm on a port with a PFC watchdog: pauses received on its no-drop priorities, its lossy
// queues drop, the watchdog counts the storm detected (after the detection time) and restored
// (after the restoration time), and the paused queues' periodic watermark is high until the
// telemetry interval it fell in is over.
func TestSONiCStormAndWatchdog(t *testing.T) {
	sw, c, clk := sonicCounterSwitch(t)
	mustSet(t, c, &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("PFC_WD/Ethernet0", `{"action":"drop","detection_time":"400","restoration_time":"2000"}`)}})
	if err := sw.Storm("Ethernet0", true); err != nil {
		t.Fatal(err)
	}
	clk.Advance(300 * time.Millisecond)
	q := hashes(t, mustCGet(t, c, "COUNTERS/Ethernet0/Queues")[0])["Ethernet0:3"]
	if q["PFC_WD_STATUS"] != "operational" || q["PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED"] != "0" || q["PFC_WD_DETECTION_TIME"] != "400000" {
		t.Errorf("before the detection time: %v", q)
	}
	clk.Advance(9700 * time.Millisecond) // 10 s of storm
	got := mustCGet(t, c, "COUNTERS/Ethernet0", "COUNTERS/Ethernet0/Queues", "COUNTERS/Ethernet0/Pfcwd")
	port, qs := flat(t, got[0]), hashes(t, got[1])
	if port["SAI_PORT_STAT_PFC_3_RX_PKTS"] != "150000" || port["SAI_PORT_STAT_PFC_4_RX_PKTS"] != "150000" || port["SAI_PORT_STAT_PFC_0_RX_PKTS"] != "0" {
		t.Errorf("pauses: %v", port)
	}
	if qs["Ethernet0:3"]["PFC_WD_STATUS"] != "stormed" || qs["Ethernet0:3"]["PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED"] != "1" ||
		qs["Ethernet0:0"]["SAI_QUEUE_STAT_DROPPED_PACKETS"] != "10000" || qs["Ethernet0:3"]["SAI_QUEUE_STAT_DROPPED_PACKETS"] != "0" {
		t.Errorf("storm: queue 3 %v, queue 0 %v", qs["Ethernet0:3"], qs["Ethernet0:0"])
	}
	if w := qs["Ethernet0:3:periodic"]["SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES"]; w != "12551241" {
		t.Errorf("paused queue's periodic watermark %s, want 90 %% of egress_lossless_pool (13945824)", w)
	}
	if wd := hashes(t, got[2]); len(wd) != 2 || wd["Ethernet0:4"]["PFC_WD_STATUS"] != "stormed" {
		t.Errorf("Pfcwd: %v", wd)
	}
	if err := sw.Storm("Ethernet0", false); err != nil {
		t.Fatal(err)
	}
	clk.Advance(3 * time.Second)
	q = hashes(t, mustCGet(t, c, "COUNTERS/Ethernet0/Queues")[0])["Ethernet0:3"]
	if q["PFC_WD_STATUS"] != "operational" || q["PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED"] != "1" || q["SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES"] != "2048" {
		t.Errorf("after the storm: %v", q)
	}
	clk.Advance(2 * time.Minute)
	qs = hashes(t, mustCGet(t, c, "COUNTERS/Ethernet0/Queues")[0])
	if w := qs["Ethernet0:3:periodic"]["SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES"]; w != "2048" {
		t.Errorf("periodic watermark in the next telemetry interval: %s", w)
	}
	if err := sw.Storm("Ethernet9", true); err == nil {
		t.Error("a storm on a port the switch lacks")
	}
}

// A congested lossless queue marks ECN fast, its watermark and its priority group's rise, and
// the port pauses its link partner on the priority.
func TestSONiCCongest(t *testing.T) {
	sw, c, clk := sonicCounterSwitch(t)
	if err := sw.Congest("Ethernet8", 3, true); err != nil {
		t.Fatal(err)
	}
	clk.Advance(5 * time.Second)
	got := mustCGet(t, c, "COUNTERS/Ethernet8", "COUNTERS/Ethernet8/Queues", "PERIODIC_WATERMARKS/Ethernet8/PriorityGroups")
	port, qs, pgs := flat(t, got[0]), hashes(t, got[1]), hashes(t, got[2])
	if port["SAI_PORT_STAT_PFC_3_TX_PKTS"] != "40000" || qs["Ethernet8:3"]["SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS"] != "200250" {
		t.Errorf("pauses sent %s, ECN marks %s", port["SAI_PORT_STAT_PFC_3_TX_PKTS"], qs["Ethernet8:3"]["SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS"])
	}
	if qs["Ethernet8:3"]["SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES"] == "2048" || pgs["Ethernet8:3"]["SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES"] != "48000" ||
		pgs["Ethernet8:0"]["SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES"] != "0" {
		t.Errorf("watermarks: queue %v, PGs %v", qs["Ethernet8:3"], pgs)
	}
	if err := sw.Congest("Ethernet8", 8, true); err == nil {
		t.Error("queue 8 of 8 unicast queues")
	}
}
