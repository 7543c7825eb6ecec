package cumulus

import (
	"maps"
	"slices"
	"strings"
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

// One GET reads many ports: the include parameters name each port's counters/qos, or every
// port's; the answer is parsed per port, switch ports only.
func TestParseInterfaceCounters(t *testing.T) {
	if got := CountersInclude([]string{"swp1", "swp2s1", "swp1"}); strings.Join(got, " ") != "/swp1/counters/qos /swp2s1/counters/qos" {
		t.Errorf("include of two ports: %q", got)
	}
	if got := CountersInclude(nil); strings.Join(got, " ") != "/*/counters/qos" {
		t.Errorf("include of every port: %q", got)
	}
	body := []byte(golden.Capture(t, "testdata/counters-interfaces.json.txt"))
	all, err := ParseInterfaceCounters(nil, body)
	if err != nil {
		t.Fatal(err)
	}
	if ports := slices.Sorted(maps.Keys(all)); !slices.Equal(ports, []string{"swp1", "swp2"}) {
		t.Errorf("every switch port: %v (eth0 is the management port)", ports)
	}
	if all["swp1"].PFCRx[3] != 15000 || all["swp1"].ECNMarked[3] != 420 || len(all["swp2"].ECNMarked) != 0 || all["swp2"].Discards[0] != 0 {
		t.Errorf("counters: %+v", all)
	}
	one, err := ParseInterfaceCounters([]string{"swp2"}, body)
	if err != nil || len(one) != 1 {
		t.Errorf("swp2: %v %v", one, err)
	}
	if _, err := ParseInterfaceCounters([]string{"swp1", "swp9"}, body); err == nil ||
		err.Error() != "NVUE reports no QoS counters for swp9: the switch has no such port" {
		t.Errorf("swp9: %v", err)
	}
	for body, want := range map[string]string{
		`{}`: "NVUE reports QoS counters for no switch port",
		`[]`: "NVUE interface counters",
		`{"swp1": {"counters": {"qos": {"pfc-stats": {"3": {"rx-pause-frames": -1}}}}}}`: "swp1: NVUE counters qos: counter -1 is not a count",
	} {
		if _, err := ParseInterfaceCounters(nil, []byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}
