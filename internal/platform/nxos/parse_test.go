package nxos

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

// testdata/nxos-running-config-ipqos-1.txt is, as its '#' header says, Microsoft's Azure Local
// TOR reference (Azure/AzureLocal-Supportability, Reference-TOR-QOS-Policy-Configuration.md): (CoS classification, QOS_NETWORK, a queuing
// policy bound in system qos, a bandwidth percent line). Its '#' annotations are not NX-OS text.
func TestParseSample(t *testing.T) {
	c := running.Text(t, sample(t))
	golden(t, "sample.golden", goldenfile.JSON(t, c))
	if cm := c.ClassMaps["RDMA"]; !cm.MatchAll || !cmp.Equal(cm.Matches, []Match{{Field: "cos", Values: []int{3}, Text: "cos 3"}}) {
		t.Errorf("class-map RDMA = %+v", cm)
	}
	if cls := c.QoSPolicies["AZLocal_SERVICES"].Classes; len(cls) != 2 || cls[1].Name != "CLUSTER" || *cls[1].QoSGroup != 7 {
		t.Errorf("AZLocal_SERVICES classes = %s", goldenfile.JSON(t, cls))
	}
	nq := c.NetworkQoS["QOS_NETWORK"]
	if !cmp.Equal(nq.Classes[3].PauseCOS, []int{3}) || *nq.Classes[0].MTU != 9216 || nq.Classes[7].PauseCOS != nil {
		t.Errorf("QOS_NETWORK = %s", goldenfile.JSON(t, nq))
	}
	out := c.Queuing["QOS_EGRESS_PORT"].Out
	if *out[3].BandwidthRemaining != 50 || *out[7].BandwidthPercent != 1 || *out[0].BandwidthRemaining != 48 ||
		!cmp.Equal(out[3].WRED, &WRED{MinBytes: 307200, MaxBytes: 307200, Probability: 100, Weight: 0, ECN: true}) {
		t.Errorf("QOS_EGRESS_PORT = %s", goldenfile.JSON(t, out))
	}
	if c.System != (Bindings{NetworkQoS: "QOS_NETWORK", QueuingOutput: "QOS_EGRESS_PORT"}) {
		t.Errorf("system qos = %+v", c.System)
	}
	if i := c.Interfaces["Ethernet1/17"]; i.PFCMode != "on send-tlv" || i.QoSInput != "AZLocal_SERVICES" {
		t.Errorf("Ethernet1/17 = %+v", i)
	}
	if got := c.LosslessTCs(); !cmp.Equal(got, []int{3}) {
		t.Errorf("LosslessTCs = %v", got)
	}
	// Imported: class names are the class-maps' own; the policy's queuing and network-qos
	// policy-maps are not AZLocal_SERVICES-out/-nq, so shares, ECN, lossless and interfaces
	// read empty (DESIGN section 3: an import of an operator's policy shows them as changes).
	goldenImport(t, c, "AZLocal_SERVICES", "Ethernet1/17", "sample")
}

// goldenImport compares what an import reads from c, the policy named policy and port's PFC,
// with testdata/<prefix>-import.golden and <prefix>-pfc.golden.
func goldenImport(t *testing.T, c *Config, policy, port, prefix string) {
	t.Helper()
	p, ok := c.Policy(policy, nil)
	if !ok {
		t.Fatalf("Policy(%s) not found", policy)
	}
	golden(t, prefix+"-import.golden", goldenfile.JSON(t, p))
	pfc, _ := c.PFC(port)
	golden(t, prefix+"-pfc.golden", goldenfile.JSON(t, pfc))
}

// The layout internal/lab/nxos-switch.md documents: header, version, class-maps, policy-maps
// by type, system qos, interfaces.
func TestParseSwitchLayout(t *testing.T) {
	c := running.File(t, "nxos-switch-running-config.txt")
	golden(t, "nxos-switch.golden", goldenfile.JSON(t, c))
	// Imported without state: roce and cnp from the class-maps, and TC 0, whose queuing class
	// has a share but no class of the qos policy-map, as the extra class tc0.
	goldenImport(t, c, "ROCE", "Ethernet1/1", "nxos-switch")
}

// CRLF line ends read as LF; each refused case is refused (platformtest.Dialect.CheckParse).
func TestParseDialect(t *testing.T) { dialect.CheckParse(t) }

func TestParseTolerant(t *testing.T) {
	// Any order, unknown blocks and lines, later lines win, no forms.
	c := running.Text(t, `hostname leaf-1
feature lldp
interface Ethernet1/9
  service-policy type qos input A
  switchport mode trunk
  priority-flow-control mode auto
  no priority-flow-control mode
  flowcontrol send on
policy-map type qos A
  class A-x
    set qos-group 5
    set dscp 10
  class class-default
  class type qos A-y
    set qos-group 4
  no class A-y
class-map type qos A-x
  match dscp cs3,af41 ef
  match dscp 0-2
  no match dscp 0,1,2
policy-map type queuing Q
  class type queuing c-out-8q-q3
    bandwidth remaining percent 10
    no bandwidth remaining percent
    priority level 2
    shape min 0 gbps max 10 gbps
  class type queuing c-out-4q-q3
    bandwidth remaining percent 10
policy-map type network-qos N
  class type network-qos c-8q-nq2
    pause pfc-cos 2
    no pause pfc-cos
  class type network-qos c-8q-nq4
    mtu 9216
  no class type network-qos c-8q-nq4
control-plane
  service-policy input copp-system-p-policy-strict
system qos
  service-policy type network-qos N
  no service-policy type network-qos N
  service-policy type qos input A
`)
	if c.Hostname != "leaf-1" || c.System != (Bindings{QoSInput: "A"}) {
		t.Errorf("config = %s", goldenfile.JSON(t, c))
	}
	if i := c.Interfaces["Ethernet1/9"]; *i != (Interface{Bindings: Bindings{QoSInput: "A"}, FlowSend: "on"}) {
		t.Errorf("Ethernet1/9 = %+v", i)
	}
	if cls := c.QoSPolicies["A"].Classes; len(cls) != 2 || *cls[0].QoSGroup != 5 || cls[1].QoSGroup != nil {
		t.Errorf("policy-map A = %s", goldenfile.JSON(t, cls))
	}
	if cm := c.ClassMaps["A-x"]; !cm.MatchAll || len(cm.Matches) != 1 || !cmp.Equal(cm.Matches[0].Values, []int{24, 34, 46}) {
		t.Errorf("class-map A-x = %s", goldenfile.JSON(t, cm))
	}
	if q := c.Queuing["Q"].Out; len(q) != 1 || q[3].BandwidthRemaining != nil || *q[3].PriorityLevel != 2 {
		t.Errorf("queuing Q = %s", goldenfile.JSON(t, q))
	}
	if n := c.NetworkQoS["N"].Classes; len(n) != 1 || n[2].PauseCOS != nil {
		t.Errorf("network-qos N = %s", goldenfile.JSON(t, n))
	}
}

// queueThresholds reads the ECN thresholds of a queuing class configured with value and unit
// for both (the dialect's Thresholds); the line's probability and ecn come with them.
func queueThresholds(t *testing.T, value, unit string) (minBytes, maxBytes int64) {
	line := "policy-map type queuing Q\n  class type queuing c-out-8q-q3\n    random-detect minimum-threshold " +
		value + " " + unit + " maximum-threshold " + value + " " + unit + " drop-probability 7 weight 0 ecn\n"
	w := running.Text(t, line).Queuing["Q"].Out[3].WRED
	if w.Probability != 7 || !w.ECN {
		t.Errorf("%q reads %+v", line, w)
	}
	return w.MinBytes, w.MaxBytes
}

// A predefined WRED profile has no thresholds, probability or weight to read.
func TestPredefinedWRED(t *testing.T) {
	w := running.Text(t, "policy-map type queuing Q\n  class type queuing c-out-8q-q3\n    random-detect threshold burst-optimized ecn\n").
		Queuing["Q"].Out[3].WRED
	if *w != (WRED{MinBytes: Unknown, MaxBytes: Unknown, Probability: Unknown, Weight: Unknown, ECN: true}) {
		t.Errorf("predefined WRED profile reads %+v", w)
	}
}

func TestValues(t *testing.T) {
	for in, want := range map[string][]int{"0-7,9,11-13": {0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 12, 13}, "26": {26},
		"32,34": {32, 34}, "cs6 af41,ef,default": {0, 34, 46, 48}, "3 1,1": {1, 3}} {
		got, err := parseValues(strings.Fields(in), "dscp")
		if err != nil || !cmp.Equal(got, want) {
			t.Errorf("parseValues(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := parseValues([]string{"cs1"}, "cos"); err == nil {
		t.Error("a DSCP name was accepted as a CoS value")
	}
	for want, in := range map[string][]int{"0-7,9,11-13": {0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 12, 13}, "26": {26}, "32,34": {32, 34},
		"24-25": {24, 25}, "": nil} {
		if got := formatValues(in); got != want {
			t.Errorf("formatValues(%v) = %q, want %q", in, got, want)
		}
	}
}
