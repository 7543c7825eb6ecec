package nxos

import (
	"reflect"
	"strings"
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

// portOutput is the capture's port's whole output as NX-OS prints it, the egress counters
// first, renamed to port.
func portOutput(t *testing.T, port string) string {
	t.Helper()
	out := goldenfile.Capture(t, groupCapture) + goldenfile.Capture(t, ingressCapture)
	return strings.ReplaceAll(out, "Ethernet1/51", port)
}

// TestParseAllCountersCapture: the capture is one port's block of the device-wide output,
// named by its "Ingress Queuing for" line.
func TestParseAllCountersCapture(t *testing.T) {
	all, err := ParseAllCounters(portOutput(t, "Ethernet1/51"))
	if err != nil {
		t.Fatal(err)
	}
	c, ok := all["Ethernet1/51"]
	if len(all) != 1 || !ok || c.PFCTx[5] != 150 || !reflect.DeepEqual(c.Dropped, map[int]int64{5: 0}) {
		t.Errorf("got %+v", all)
	}
}

// TestParseAllCountersPorts: the device-wide form, each port's block in turn (the layout
// assumed from the capture's one block: see ParseAllCounters), with and without the "slot"
// banner and an "Egress Queuing for" line above each port's egress part. Each port has its own
// counters.
func TestParseAllCountersPorts(t *testing.T) {
	second := strings.Replace(portOutput(t, "Ethernet1/52"), "5         5  Inactive                 150", "5         5  Inactive                   7", 1)
	for name, out := range map[string]string{
		"bare":    portOutput(t, "Ethernet1/51") + second,
		"headers": "slot  1\n=======\n\n\nEgress Queuing for Ethernet1/51 [System]\n" + portOutput(t, "Ethernet1/51") + "\nEgress Queuing for Ethernet1/52 [System]\n" + second,
	} {
		all, err := ParseAllCounters(out)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(all) != 2 || all["Ethernet1/51"].PFCTx[5] != 150 || all["Ethernet1/52"].PFCTx[5] != 7 ||
			!reflect.DeepEqual(all["Ethernet1/52"].Dropped, map[int]int64{5: 0}) || len(all["Ethernet1/52"].PFCRx) != 8 {
			t.Errorf("%s: %+v", name, all)
		}
	}
}

// TestParseAllCountersRefusesWhatNamesNoPort: counters no "Ingress Queuing for" line names,
// an egress header of another port, a port printed twice, a refusal.
func TestParseAllCountersRefusesWhatNamesNoPort(t *testing.T) {
	for name, out := range map[string]string{
		"no ingress line": goldenfile.Capture(t, groupCapture),
		"other port":      "Egress Queuing for Ethernet1/2 [System]\n" + portOutput(t, "Ethernet1/1"),
		"twice":           portOutput(t, "Ethernet1/1") + portOutput(t, "Ethernet1/1"),
		"refused":         "% Invalid command at '^' marker.\n",
		"empty":           "",
	} {
		if all, err := ParseAllCounters(out); err == nil {
			t.Errorf("%s parsed: %+v", name, all)
		}
	}
}

// TestParseCountersControlGroup: the drops of the CONTROL and SPAN groups NX-OS lists after
// the numbered ones are no queue's; they do not land on the group before them. (The capture
// stops at QoS group 6: the block is the capture's with the CONTROL group's name.)
func TestParseCountersControlGroup(t *testing.T) {
	group := goldenfile.Capture(t, groupCapture)
	control := strings.Replace(strings.Replace(group, "QOS GROUP 5", "CONTROL QOS GROUP", 1), "Tail Drop Pkts |               0|", "Tail Drop Pkts |              12|", 1)
	c, err := ParseCounters(group + control)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Dropped, map[int]int64{5: 0}) {
		t.Errorf("drops %v", c.Dropped)
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
	f.Add(goldenfile.Capture(f, groupCapture) + goldenfile.Capture(f, ingressCapture) + goldenfile.Capture(f, groupCapture) + goldenfile.Capture(f, ingressCapture))
	check := func(t *testing.T, c Counters) {
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
	}
	f.Fuzz(func(t *testing.T, out string) {
		if c, err := ParseCounters(out); err == nil {
			check(t, c)
		}
		all, err := ParseAllCounters(out)
		if err != nil {
			return
		}
		for port, c := range all {
			if port == "" || strings.ContainsAny(port, " \t\n") {
				t.Errorf("port %q", port)
			}
			check(t, c)
		}
	})
}
