package nxos

import (
	"regexp"
	"strings"
	"testing"
	"time"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// TestNXOSQueuing: `show queuing interface` in the capture's layout (every fixed line of the
// Nexus 93180FX2's output, and its table rows' widths); during a storm the link partner pauses
// the CoS the network-qos policy makes no-drop (RxCount, RxPPP, RxPause Active), the other QoS
// groups drop, and nothing moves once the storm is over.
func TestNXOSQueuing(t *testing.T) {
	sw := startNXOS(t)
	step := labtest.ManualClock(sw)
	c := newNXOSCLI(t, sw, "configure terminal", "policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3",
		"pause pfc-cos 3", "system qos", "service-policy type network-qos ROCE-nq",
		"policy-map type queuing ROCE-in", "class type queuing c-in-q3", "pause buffer-size 348608 pause-threshold 77376 resume-threshold 75712",
		"interface Ethernet1/2", "service-policy type queuing input ROCE-in", "priority-flow-control mode on", "end")
	step(time.Second)
	out := c.Run("show queuing interface Ethernet1/2")
	lines := strings.Split(out, "\n")
	ingress := goldenfile.Capture(t, labtest.CounterCaptures("nxos")+"nxos_show_queuing_interface_ingress_zartbot.txt")
	group := goldenfile.Capture(t, labtest.CounterCaptures("nxos")+"nxos_show_queuing_interface_qos_group_zartbot.txt")
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
	out = c.Run("show queueing interface e1/2")
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
	if after := c.Run("show queuing interface Ethernet1/2"); !strings.Contains(after, "      3         3  Inactive                   0  Inactive               20000\n") ||
		!strings.Contains(after, "| WRED/AFD & Tail Drop Pkts |            2000|               0|\n") {
		t.Errorf("after the storm:\n%s", after)
	}
	// Another port stormed nothing; a port the switch lacks is refused as NX-OS refuses it.
	if other := c.Run("show queuing interface Ethernet1/1"); !strings.Contains(other, "RxPPP:                    0\n") {
		t.Errorf("Ethernet1/1:\n%s", other)
	}
	if bad := c.Run("show queuing interface Ethernet1/9"); !strings.Contains(bad, nxInvalid) {
		t.Errorf("Ethernet1/9: %q", bad)
	}
}

// TestNXOSQueuingEveryPort: `show queuing interface` without a port prints each port's own
// text in turn, with the counters of the moment: the stormed port's pauses and drops in its
// block only.
func TestNXOSQueuingEveryPort(t *testing.T) {
	sw := startNXOS(t)
	step := labtest.ManualClock(sw)
	c := newNXOSCLI(t, sw, "configure terminal", "policy-map type network-qos ROCE-nq", "class type network-qos c-8q-nq3",
		"pause pfc-cos 3", "system qos", "service-policy type network-qos ROCE-nq", "end")
	if err := sw.Storm("Ethernet1/2", true); err != nil {
		t.Fatal(err)
	}
	step(2 * time.Second)
	all := c.Run("show queuing interface")
	var each strings.Builder
	for _, port := range sw.Interfaces() {
		each.WriteString(c.Run("show queuing interface " + port))
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
	if out := c.Run("show queueing interface"); out != all {
		t.Errorf("queueing: %q", out)
	}
}
