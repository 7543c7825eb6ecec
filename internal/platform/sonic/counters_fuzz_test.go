package sonic

import (
	"os"
	"testing"
)

// FuzzParseCounters: whatever sonic-gnmi answers for a port's counters never panics the parser,
// and what it accepts holds only counters it found, never negative ones.
func FuzzParseCounters(f *testing.F) {
	for _, pair := range [][2]string{
		{"testdata/counters/COUNTERS_Ethernet68.json.txt", "testdata/counters/COUNTERS_Ethernet68_Queues.json.txt"},
	} {
		var seed [2][]byte
		for i, file := range pair {
			b, err := os.ReadFile(file) //nolint:gosec // the package's own captures
			if err != nil {
				f.Fatal(err)
			}
			_, rest, _ := cutLine(b)
			seed[i] = rest
		}
		f.Add(seed[0], seed[1])
	}
	f.Add([]byte(`{"SAI_PORT_STAT_PFC_3_RX_PKTS": "5"}`), []byte(`{"Ethernet0:3": {"PFC_WD_STATUS": "stormed"}}`))
	f.Fuzz(func(t *testing.T, port, queues []byte) {
		c, err := ParseCounters("Ethernet0", port, queues, queues)
		if err != nil {
			return
		}
		for p, v := range c.PFCRx {
			if p < 0 || p > 7 || v < 0 {
				t.Fatalf("PFC rx %d: %d", p, v)
			}
		}
		for i, q := range c.Queues {
			if i < 0 || (q.Packets != nil && *q.Packets < 0) || (q.ECNMarked != nil && *q.ECNMarked < 0) {
				t.Fatalf("queue %d: %+v", i, q)
			}
		}
		for i, pg := range c.PGs {
			if i < 0 || (pg.SharedWatermarkBytes != nil && *pg.SharedWatermarkBytes < 0) {
				t.Fatalf("PG %d: %+v", i, pg)
			}
		}
	})
}

// cutLine drops a capture's first line, which names its source.
func cutLine(b []byte) (line, rest []byte, ok bool) {
	for i, c := range b {
		if c == '\n' {
			return b[:i], b[i+1:], true
		}
	}
	return b, nil, false
}
