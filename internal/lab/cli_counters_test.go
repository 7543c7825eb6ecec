package lab

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

// cliClock gives a CLI switch a clock the test moves; the counters count from its start.
func cliClock(sw *cliswitch.Switch) func(time.Duration) {
	clk := newFakeClock()
	sw.SetClock(clk.now)
	return clk.advance
}

// counterCapture is a capture of the platform's counters testdata without its source line: the lab's
// output must have its layout.
func counterCapture(t *testing.T, platform, name string) string {
	t.Helper()
	return goldenfile.Capture(t, "../platform/"+platform+"/testdata/counters/"+name)
}

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
	_, sw := startEOS(t)
	step := cliClock(sw.Switch)
	c := newEOSCLI(t, sw, "enable")
	anta := decode[eosECNJSON](t, counterCapture(t, "eos", "eos_show_qos_interfaces_ecn_counters_queue_anta_failure.json.txt"))
	if anta.Intfs["Ethernet10/28/1"].Queues["0"] != "-" {
		t.Fatalf("capture %+v", anta)
	}
	decode[eosDiscardsJSON](t, counterCapture(t, "eos", "eos_show_interfaces_counters_discards_anta_failure.json.txt"))

	ecn := func() map[string]string {
		t.Helper()
		got := decode[eosECNJSON](t, c.run("show qos interfaces Ethernet1 ecn counters queue | json"))
		if len(got.Intfs) != 1 {
			t.Fatalf("interfaces %+v", got.Intfs)
		}
		return got.Intfs["Ethernet1"].Queues
	}
	discards := func() (in, out uint64) {
		t.Helper()
		got := decode[eosDiscardsJSON](t, c.run("show interfaces Ethernet1 counters discards | json"))
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
		c.must(l)
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
	if all := decode[eosDiscardsJSON](t, c.run("show interfaces counters discards | json")); len(all.Intfs) != 4 || *all.Out != 2000 {
		t.Errorf("every port: %+v", all)
	}
	// Without an interface, every port with the counters its own form gives (ANTA's form).
	allECN := decode[eosECNJSON](t, c.run("show qos interfaces ecn counters queue | json"))
	allDisc := decode[eosDiscardsJSON](t, c.run("show interfaces counters discards | json"))
	for _, port := range sw.Interfaces() {
		one := decode[eosECNJSON](t, c.run("show qos interfaces "+port+" ecn counters queue | json"))
		oneDisc := decode[eosDiscardsJSON](t, c.run("show interfaces "+port+" counters discards | json"))
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
	if out := c.run("show qos interfaces Ethernet9 ecn counters queue | json"); !strings.HasPrefix(out, "% Invalid input") {
		t.Errorf("a port the switch lacks: %q", out)
	}
}

// TestNXOSQueuing: `show queuing interface` in the capture's layout (every fixed line of the
// Nexus 93180FX2's output, and its table rows' widths); during a storm the link partner pauses
// the CoS the network-qos policy makes no-drop (RxCount, RxPPP, RxPause Active), the other QoS
// groups drop, and nothing moves once the storm is over.
func TestNXOSQueuing(t *testing.T) {
	_, sw := startNXOS(t)
	step := cliClock(sw.Switch)
	c := newNXOSCLI(t, sw, "configure terminal", "policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3",
		"pause pfc-cos 3", "system qos", "service-policy type network-qos ROCE-nq",
		"policy-map type queuing ROCE-in", "class type queuing c-in-q3", "pause buffer-size 348608 pause-threshold 77376 resume-threshold 75712",
		"interface Ethernet1/2", "service-policy type queuing input ROCE-in", "priority-flow-control mode on", "end")
	step(time.Second)
	out := c.run("show queuing interface Ethernet1/2")
	lines := strings.Split(out, "\n")
	ingress := counterCapture(t, "nxos", "nxos_show_queuing_interface_ingress_zartbot.txt")
	group := counterCapture(t, "nxos", "nxos_show_queuing_interface_qos_group_zartbot.txt")
	number := regexp.MustCompile(`\d+`)
	for _, want := range strings.Split(strings.TrimSpace(ingress+group), "\n") {
		want = strings.ReplaceAll(want, "Ethernet1/51", "Ethernet1/2")
		at := number.FindStringIndex(want)
		if at == nil || want == nxosIngressHdr[:len(nxosIngressHdr)-1] || strings.HasPrefix(want, "Ingress Queuing") {
			if !strings.Contains(out, want+"\n") {
				t.Errorf("no line %q", want)
			}
			continue
		}
		// A row of counts: a line with the same label before the first number, as wide.
		found := false
		for _, l := range lines {
			found = found || (len(l) == len(want) && strings.HasPrefix(l, want[:at[0]]))
		}
		if !found {
			t.Errorf("no row like %q", want)
		}
	}
	for _, want := range []string{"      3         348608        77376        75712\n", "      3         3  Inactive                   0  Inactive                   0\n",
		"|                   Tx Pkts |          500000|               0|\n", "TxPPP:                    0,   RxPPP:                    0\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if err := sw.Storm("Ethernet1/2", true); err != nil {
		t.Fatal(err)
	}
	step(2 * time.Second)
	out = c.run("show queueing interface e1/2")
	for _, want := range []string{"      3         3  Inactive                   0    Active               20000\n",
		"      4         0  Inactive                   0  Inactive                   0\n",
		"TxPPP:                    0,   RxPPP:                20000\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("storm: no %q in\n%s", want, out)
		}
	}
	drops := regexp.MustCompile(`(?m)^\| WRED/AFD & Tail Drop Pkts \|\s+(\d+)\|`).FindAllStringSubmatch(out, -1)
	if len(drops) != 8 || drops[3][1] != "0" || drops[0][1] != "2000" || drops[7][1] != "2000" {
		t.Errorf("drops per QoS group %v", drops)
	}
	if err := sw.Storm("Ethernet1/2", false); err != nil {
		t.Fatal(err)
	}
	step(time.Minute)
	if after := c.run("show queuing interface Ethernet1/2"); !strings.Contains(after, "      3         3  Inactive                   0  Inactive               20000\n") ||
		!strings.Contains(after, "| WRED/AFD & Tail Drop Pkts |            2000|               0|\n") {
		t.Errorf("after the storm:\n%s", after)
	}
	// Another port stormed nothing; a port the switch lacks is refused as NX-OS refuses it.
	if other := c.run("show queuing interface Ethernet1/1"); !strings.Contains(other, "RxPPP:                    0\n") {
		t.Errorf("Ethernet1/1:\n%s", other)
	}
	if bad := c.run("show queuing interface Ethernet1/9"); !strings.Contains(bad, nxInvalid) {
		t.Errorf("Ethernet1/9: %q", bad)
	}
}

// TestNXOSQueuingEveryPort: `show queuing interface` without a port prints each port's own
// text in turn, with the counters of the moment: the stormed port's pauses and drops in its
// block only.
func TestNXOSQueuingEveryPort(t *testing.T) {
	_, sw := startNXOS(t)
	step := cliClock(sw.Switch)
	c := newNXOSCLI(t, sw, "configure terminal", "policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3",
		"pause pfc-cos 3", "system qos", "service-policy type network-qos ROCE-nq", "end")
	if err := sw.Storm("Ethernet1/2", true); err != nil {
		t.Fatal(err)
	}
	step(2 * time.Second)
	all := c.run("show queuing interface")
	var each strings.Builder
	for _, port := range sw.Interfaces() {
		each.WriteString(c.run("show queuing interface " + port))
	}
	if all != each.String() {
		t.Errorf("every port's form is not each port's own in turn:\n%s", all)
	}
	ingress := regexp.MustCompile(`(?m)^Ingress Queuing for (\S+)$`).FindAllStringSubmatch(all, -1)
	if len(ingress) != len(sw.Interfaces()) || len(sw.Interfaces()) < 2 || ingress[0][1] != "Ethernet1/1" || ingress[1][1] != "Ethernet1/2" {
		t.Errorf("ports %v of %v", ingress, sw.Interfaces())
	}
	if strings.Count(all, "RxPPP:                20000\n") != 1 || strings.Count(all, "| WRED/AFD & Tail Drop Pkts |            2000|") != 7 {
		t.Errorf("the storm is not Ethernet1/2's alone:\n%s", all)
	}
	if out := c.run("show queueing interface"); out != all {
		t.Errorf("queueing: %q", out)
	}
}
