package nxos

import (
	"reflect"
	"testing"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

const (
	ingressCapture = "testdata/counters/nxos_show_queuing_interface_ingress_zartbot.txt"
	groupCapture   = "testdata/counters/nxos_show_queuing_interface_qos_group_zartbot.txt"
)

// TestParseCountersPFCStatistics: the N9K's 150 PFC frames sent on CoS 5 (its RoCE class), none
// received; the ingress drop counters are not PFC statistics.
func TestParseCountersPFCStatistics(t *testing.T) {
	c, err := ParseCounters(goldenfile.Capture(t, ingressCapture))
	if err != nil {
		t.Fatal(err)
	}
	wantTx := map[int]int64{0: 0, 1: 0, 2: 0, 3: 0, 4: 0, 5: 150, 6: 0, 7: 0}
	wantRx := map[int]int64{0: 0, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0}
	if !reflect.DeepEqual(c.PFCTx, wantTx) || !reflect.DeepEqual(c.PFCRx, wantRx) || c.Dropped != nil {
		t.Errorf("got %+v", c)
	}
}

// TestParseCountersQoSGroup: QoS group 5's drops (none), and no PFC statistics in that part of
// the output.
func TestParseCountersQoSGroup(t *testing.T) {
	c, err := ParseCounters(goldenfile.Capture(t, groupCapture))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[int]int64{5: 0}; !reflect.DeepEqual(c.Dropped, want) || c.PFCRx != nil || c.PFCTx != nil {
		t.Errorf("got %+v", c)
	}
	// Both parts of one output, the egress counters first as NX-OS prints them.
	c, err = ParseCounters(goldenfile.Capture(t, groupCapture) + goldenfile.Capture(t, ingressCapture))
	if err != nil {
		t.Fatal(err)
	}
	if c.Dropped[5] != 0 || len(c.Dropped) != 1 || c.PFCTx[5] != 150 {
		t.Errorf("whole output: %+v", c)
	}
}

func TestParseCountersRefusesOtherOutput(t *testing.T) {
	for _, out := range []string{"", "% Invalid command at '^' marker.\n",
		"PFC_COS QOS_Group   TxPause             TxCount   RxPause             RxCount\n      9         0  Inactive                   0  Inactive                   0\n",
		"|                              QOS GROUP 1                    |\n| WRED/AFD & Tail Drop Pkts |9223372036854775807|               1|\n"} {
		if _, err := ParseCounters(out); err == nil {
			t.Errorf("%q parsed", out)
		}
	}
}

func TestValidPort(t *testing.T) {
	for _, ok := range []string{"Ethernet1/1", "Ethernet1/51", "Ethernet1/1/4"} {
		if !ValidPort(ok) {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", "Ethernet1", "e1/1", "Ethernet1/1 ; reload", "Ethernet1/1\n", "Ethernet1/1/1/1", "mgmt0"} {
		if ValidPort(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzParseCounters feeds ParseCounters the captures and their mutations: it must not panic,
// and returns CoS 0-7 and counts that are not negative.
func FuzzParseCounters(f *testing.F) {
	f.Add(goldenfile.Capture(f, ingressCapture))
	f.Add(goldenfile.Capture(f, groupCapture))
	f.Fuzz(func(t *testing.T, out string) {
		c, err := ParseCounters(out)
		if err != nil {
			return
		}
		for _, m := range []map[int]int64{c.PFCRx, c.PFCTx} {
			for cos, v := range m {
				if cos < 0 || cos > 7 || v < 0 {
					t.Errorf("CoS %d: %d", cos, v)
				}
			}
		}
		for g, v := range c.Dropped {
			if g < 0 || v < 0 {
				t.Errorf("group %d dropped %d", g, v)
			}
		}
	})
}
