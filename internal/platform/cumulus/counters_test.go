package cumulus

import (
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/golden"
)

func TestParseCounters(t *testing.T) {
	c, err := ParseCounters([]byte(golden.Capture(t, "testdata/counters-qos-swp1.json.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if c.PFCRx[3] != 15000 || c.PFCTx[3] != 12 || c.PFCRx[0] != 0 || len(c.PFCRx) != 8 {
		t.Errorf("PFC: %v %v", c.PFCRx, c.PFCTx)
	}
	if c.ECNMarked[3] != 420 || c.Discards[0] != 7 || c.WREDDiscards[0] != 3 {
		t.Errorf("queues: marks %v discards %v wred %v", c.ECNMarked, c.Discards, c.WREDDiscards)
	}
	if _, ok := c.ECNMarked[7]; ok {
		t.Error(`"n/a" is no count`)
	}
	for _, bad := range []string{`{"pfc-stats": {"3": {"rx-pause-frames": -1}}}`, `{"pfc-stats": {"3": {"rx-pause-frames": "lots"}}}`, `[]`} {
		if _, err := ParseCounters([]byte(bad)); err == nil {
			t.Errorf("%s must be refused", bad)
		}
	}
}
