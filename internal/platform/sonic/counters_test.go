package sonic

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

// TestParseCountersSONiCGNMI: the port and queue hashes as sonic-gnmi's own testdata has them
// for COUNTERS/Ethernet68 and COUNTERS/Ethernet68/Queues.
func TestParseCountersSONiCGNMI(t *testing.T) {
	c, err := ParseCounters("Ethernet68", []byte(goldenfile.Capture(t, "testdata/counters/COUNTERS_Ethernet68.json.txt")),
		[]byte(goldenfile.Capture(t, "testdata/counters/COUNTERS_Ethernet68_Queues.json.txt")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.PFCRx[7] != 2 || c.PFCTx[7] != 0 || len(c.PFCRx) != 8 || len(c.PFCTx) != 8 {
		t.Errorf("PFC: rx %v tx %v", c.PFCRx, c.PFCTx)
	}
	q1, q3 := c.Queues[1], c.Queues[3]
	if q1.SharedWatermarkBytes == nil || *q1.SharedWatermarkBytes != 192 {
		t.Errorf("queue 1's watermark is the periodic copy's (192, the peak of the telemetry interval), not the last poll's (64): %+v", q1)
	}
	if q3 := c.Queues[3]; q3.SharedWatermarkBytes != nil {
		t.Errorf("queue 3 has no watermark in either hash: %v", *q3.SharedWatermarkBytes)
	}
	if q3.PFCWDStatus != "operational" || q3.DeadlocksDetected == nil || *q3.DeadlocksDetected != 0 || q1.PFCWDStatus != "" {
		t.Errorf("PFC watchdog: queue 3 %+v, queue 1 %+v", q3, q1)
	}
	if q3.ECNMarked != nil {
		t.Errorf("no WRED_ECN_QUEUE counters in this hash: %v", *q3.ECNMarked)
	}
}

// TestParseCountersAgreesWithSONiCTools: sonic-utilities' mock COUNTERS_DB, read the way
// sonic-gnmi's virtual paths serve it (COUNTERS_PORT_NAME_MAP and COUNTERS_QUEUE_NAME_MAP to
// the oid hashes), gives the numbers pfcstat and wredstat print for it in sonic-utilities' own
// tests.
func TestParseCountersAgreesWithSONiCTools(t *testing.T) {
	var db map[string]map[string]string
	body := strings.TrimSuffix(strings.TrimSpace(goldenfile.Capture(t, "testdata/counters/counters_db_mock_extract.json.txt")), ",")
	if err := json.Unmarshal([]byte("{"+body+"}"), &db); err != nil {
		t.Fatal(err)
	}
	port, _ := json.Marshal(db["COUNTERS:"+db["COUNTERS_PORT_NAME_MAP"]["Ethernet0"]])
	queues := map[string]map[string]string{}
	for key, oid := range db["COUNTERS_QUEUE_NAME_MAP"] {
		if h, ok := db["COUNTERS:"+oid]; ok && strings.HasPrefix(key, "Ethernet0:") {
			queues[key] = h
		}
	}
	qs, _ := json.Marshal(queues)
	// PERIODIC_WATERMARKS/Ethernet0/PriorityGroups: the mock has no periodic copy, so the PG's
	// USER_WATERMARKS hash (the same fields) stands in for it, keyed as sonic-gnmi keys it.
	pgs, _ := json.Marshal(map[string]map[string]string{"Ethernet0:3": db["USER_WATERMARKS:"+db["COUNTERS_PG_NAME_MAP"]["Ethernet0:3"]]})
	c, err := ParseCounters("Ethernet0", port, qs, pgs)
	if err != nil {
		t.Fatal(err)
	}
	// pfcstat: "Ethernet0   1,200     201 ..." (Rx) and "Ethernet0   1,210     211 ..." (Tx).
	pfc := goldenfile.Capture(t, "testdata/counters/pfcstat_expected.txt")
	for i, dir := range []map[int]int64{c.PFCRx, c.PFCTx} {
		row := regexp.MustCompile(`(?m)^Ethernet0 +(.*)$`).FindAllStringSubmatch(pfc, -1)[i][1]
		for p, cell := range strings.Fields(row) {
			want, _ := strconv.ParseInt(strings.ReplaceAll(cell, ",", ""), 10, 64)
			if dir[p] != want {
				t.Errorf("PFC%d (%d of rx, tx): %d, pfcstat prints %s", p, i, dir[p], cell)
			}
		}
	}
	// wredstat: "Ethernet0    UC3   52   70   19   76" (WRED drop pkts/bytes, ECN marked pkts/bytes).
	wred := goldenfile.Capture(t, "testdata/counters/wredstat_expected.txt")
	fields := strings.Fields(regexp.MustCompile(`(?m)^Ethernet0 +UC3 .*$`).FindString(wred))
	q := c.Queues[3]
	if len(fields) != 6 || q.WREDDropped == nil || q.ECNMarked == nil ||
		strconv.FormatInt(*q.WREDDropped, 10) != fields[2] || strconv.FormatInt(*q.ECNMarked, 10) != fields[4] {
		t.Errorf("queue 3: WRED dropped %v, ECN marked %v; wredstat prints %v", q.WREDDropped, q.ECNMarked, fields)
	}
	if q.PFCWDStatus != "stormed" || *q.DeadlocksDetected != 1 {
		t.Errorf("queue 3's watchdog: %+v", q)
	}
	// The mock USER_WATERMARKS hash of Ethernet0 PG 3 holds 103 in both fields.
	if pg := c.PGs[3]; pg.HeadroomWatermarkBytes == nil || *pg.HeadroomWatermarkBytes != 103 || *pg.SharedWatermarkBytes != 103 {
		t.Errorf("PG 3: %+v", pg)
	}
}

// TestParseCountersPriorityGroups: sonic-gnmi's own answer for PERIODIC_WATERMARKS/Ethernet16/
// PriorityGroups (PG 5, both watermarks 0), and the two fields kept apart (values from
// sonic-gnmi's server_test.go update of the same entry: shared 200, headroom 10).
func TestParseCountersPriorityGroups(t *testing.T) {
	c, err := ParseCounters("Ethernet16", []byte(`{}`), nil,
		[]byte(goldenfile.Capture(t, "testdata/counters/PERIODIC_WATERMARKS_Ethernet16_PriorityGroups.json.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if pg, ok := c.PGs[5]; !ok || len(c.PGs) != 1 || *pg.HeadroomWatermarkBytes != 0 || *pg.SharedWatermarkBytes != 0 {
		t.Errorf("PGs %+v", c.PGs)
	}
	c, err = ParseCounters("Ethernet16", []byte(`{}`), nil, []byte(`{"Ethernet16:5": {
		"SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES": "200",
		"SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES": "10"}, "Ethernet160:5": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	if pg := c.PGs[5]; len(c.PGs) != 1 || *pg.HeadroomWatermarkBytes != 10 || *pg.SharedWatermarkBytes != 200 {
		t.Errorf("PGs %+v (Ethernet160's PG is not Ethernet16's)", c.PGs)
	}
}

func TestParseCountersRefusesGarbage(t *testing.T) {
	if _, err := ParseCounters("Ethernet0", []byte(`{"SAI_PORT_STAT_PFC_3_RX_PKTS": "-1"}`), nil, nil); err == nil {
		t.Error("a negative counter")
	}
	if _, err := ParseCounters("Ethernet0", []byte(`{}`), []byte(`{"Ethernet0:3": {"SAI_QUEUE_STAT_PACKETS": "x"}}`), nil); err == nil {
		t.Error("a counter that is not a number")
	}
	if _, err := ParseCounters("Ethernet0", []byte(`{}`), nil, []byte(`{"Ethernet0:3": {"SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES": "1e3"}}`)); err == nil {
		t.Error("a watermark that is not a number")
	}
}
