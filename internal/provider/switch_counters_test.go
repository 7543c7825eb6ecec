package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// countersHCL reads the counters of device's port (data source roce_interface_counters.<name>)
// once dependsOn (a resource address, or "") is applied.
func countersHCL(name, device, port, dependsOn string) string {
	deps := ""
	if dependsOn != "" {
		deps = "\n  depends_on = [" + dependsOn + "]"
	}
	return fmt.Sprintf(`
data "roce_interface_counters" %q {
  device    = %q
  interface = %q%s
}
`, name, device, port, deps)
}

// counterGateHCL samples the counters of device's port for a second (data source
// roce_interface_counters.<name>) behind a golden-metric gate: output out is the attribute
// attr, and its precondition fails the plan with message (a template, which may quote inside
// its interpolations) unless condition holds.
func counterGateHCL(name, device, port, out, attr, condition, message string) string {
	return fmt.Sprintf(`
data "roce_interface_counters" %q {
  device         = %q
  interface      = %q
  sample_seconds = 1
}

output %q {
  value = data.roce_interface_counters.%s.%s
  precondition {
    condition     = %s
    error_message = "%s"
  }
}
`, name, device, port, out, name, attr, condition, message)
}

// portCountersHCL reads a port's counters after the policy applied (counts; outputs pfc_null
// and ecn_null say which the platform leaves null), or samples them for a second behind a
// golden-metric gate on what the platform counts (gate: its condition and the message of a
// failed plan), both as data.roce_interface_counters.port.
func portCountersHCL(device, port, gate, message string) (counts, sampled string) {
	counts = countersHCL("port", device, port, "roce_qos_policy.leaf") + `
output "pfc_null" { value = data.roce_interface_counters.port.pfc_rx_pause == null && data.roce_interface_counters.port.pfc_tx_pause == null }
output "ecn_null" { value = data.roce_interface_counters.port.ecn_marked_packets == null }
`
	return counts, counterGateHCL("port", device, port, "gate", "dropped_packets", gate, message)
}

// stormSteps reads the counters after the policy (before), starts a storm on the port, whose
// sampled rates must fail the gate with stormed, and stops it, after which the gate passes
// (after).
func stormSteps(t *testing.T, storm func(string, bool) error, port, policy, counts, gate string, before resource.TestCheckFunc, stormed string, after resource.TestCheckFunc) []resource.TestStep {
	set := func(on bool) func() {
		return func() {
			if err := storm(port, on); err != nil {
				t.Fatal(err)
			}
		}
	}
	return []resource.TestStep{
		{Config: policy + counts, Check: before},
		{PreConfig: set(true), Config: policy + gate, ExpectError: wrappedRE(stormed)},
		{PreConfig: set(false), Config: policy + gate, Check: after},
	}
}

// portCounters is the data source the storm tests read.
const portCounters = "data.roce_interface_counters.port"

// TestAccSwitchCounters: roce_interface_counters on a port of each switch platform with the
// policy bound (a subtest a platform, `-run 'TestAccSwitchCounters/eos'`) reads what the
// platform counts; a storm on the port fails a golden-metric gate on those counters, naming
// the port, and once it is over the gate passes (stormSteps).
func TestAccSwitchCounters(t *testing.T) {
	for _, c := range []struct {
		platform, port string
		storm          func(*accLab) func(port string, on bool) error
		policy         string
		gate, message  string // the gate's condition and the message of a failed plan
		before         resource.TestCheckFunc
		stormed        string // what the failed plan says
		after          resource.TestCheckFunc
	}{
		// On EOS the counters read are the ECN marks of the tx-queues that count them (the
		// policy's ECN class writes `random-detect ecn count`) and the port's discards; PFC per
		// priority is null. The storm fails a congestion gate with the marks and drops per
		// second; once it is over the port drops nothing.
		{
			platform: "eos", port: "Ethernet1",
			storm:  func(l *accLab) func(string, bool) error { return l.EOS("eos-1").Storm },
			policy: eosPolicyHCL(153600, `"Ethernet1"`),
			gate:   "data.roce_interface_counters.port.ecn_marked_packets <= 1000 && data.roce_interface_counters.port.dropped_packets <= 100",
			message: "Congestion on eos-1 Ethernet1: ${data.roce_interface_counters.port.ecn_marked_packets} ECN marks and " +
				"${data.roce_interface_counters.port.dropped_packets} drops per second.",
			before: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrSet(portCounters, "ecn_marked_packets"),
				// the roce class's tx-queue counts its marks (random-detect ecn count), no other does
				resource.TestCheckResourceAttr(portCounters, "queue_ecn_marked_packets.%", "1"),
				resource.TestCheckResourceAttrSet(portCounters, "queue_ecn_marked_packets.3"),
				resource.TestCheckNoResourceAttr(portCounters, "queue_dropped_packets.%"),
				resource.TestCheckResourceAttr(portCounters, "dropped_packets", "0"),
				resource.TestCheckOutput("pfc_null", "true"),
				resource.TestCheckOutput("ecn_null", "false"),
				resource.TestCheckNoResourceAttr(portCounters, "cnp_sent"),
			),
			stormed: `Congestion on eos-1 Ethernet1: [0-9]{5}(\.[0-9]+)? ECN marks and [0-9]{3,4}(\.[0-9]+)? drops per second`,
			after:   resource.TestCheckResourceAttr(portCounters, "dropped_packets", "0"),
		},
		// On NX-OS the counters read are the PFC frames per CoS and the queue drops of `show
		// queuing interface`; ECN marks are null. The storm makes the link partner pause the
		// policy's lossless CoS 3, which fails a pause-storm gate; once it is over there is no
		// pause and no drop.
		{
			platform: "nxos", port: "Ethernet1/1",
			storm:   func(l *accLab) func(string, bool) error { return l.NXOS("nxos-1").Storm },
			policy:  nxosPolicyHCL(153600, `"Ethernet1/1"`),
			gate:    "alltrue([for p, r in data.roce_interface_counters.port.pfc_rx_pause : r <= 1000])",
			message: "PFC pause storm on nxos-1 Ethernet1/1: ${jsonencode(data.roce_interface_counters.port.pfc_rx_pause)} pauses per second.",
			before: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(portCounters, "pfc_rx_pause.%", "8"),
				resource.TestCheckResourceAttr(portCounters, "pfc_rx_pause.3", "0"),
				resource.TestCheckResourceAttr(portCounters, "pfc_tx_pause.%", "8"),
				resource.TestCheckResourceAttr(portCounters, "queue_dropped_packets.%", "8"),
				resource.TestCheckNoResourceAttr(portCounters, "queue_ecn_marked_packets.%"),
				resource.TestCheckResourceAttr(portCounters, "dropped_packets", "0"),
				resource.TestCheckOutput("pfc_null", "false"),
				resource.TestCheckOutput("ecn_null", "true"),
				resource.TestCheckNoResourceAttr(portCounters, "cnp_sent"),
			),
			stormed: `PFC pause storm on nxos-1 Ethernet1/1: \{"0":0,"1":0,"2":0,"3":[0-9]{4}`,
			after: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(portCounters, "pfc_rx_pause.3", "0"),
				resource.TestCheckResourceAttr(portCounters, "dropped_packets", "0"),
			),
		},
		// On Cumulus the counters read are NVUE's QoS counters (pauses by switch priority, ECN
		// marks, discards); the storm fails a pause-rate gate.
		{
			platform: "cumulus", port: "swp1",
			storm:   func(l *accLab) func(string, bool) error { return l.Cumulus("cumulus-1").Storm },
			policy:  cumulusPolicyHCL(150000, `"swp1"`),
			gate:    "alltrue([for p, r in data.roce_interface_counters.port.pfc_rx_pause : r <= 1000])",
			message: "PFC pause storm on cumulus-1 swp1: ${jsonencode(data.roce_interface_counters.port.pfc_rx_pause)} pauses per second.",
			before: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(portCounters, "pfc_rx_pause.%", "8"),
				resource.TestCheckResourceAttr(portCounters, "pfc_rx_pause.3", "0"),
				resource.TestCheckResourceAttrSet(portCounters, "ecn_marked_packets"),
				resource.TestCheckResourceAttr(portCounters, "dropped_packets", "0"),
				resource.TestCheckNoResourceAttr(portCounters, "cnp_sent"),
			),
			stormed: `PFC pause storm on cumulus-1 swp1: \{"0":0,"1":0,"2":0,"3":1[0-9]{4}`,
			after:   resource.TestCheckResourceAttr(portCounters, "pfc_rx_pause.3", "0"),
		},
		// On OpenConfig the counters read are the output queues' state (openconfig-qos) by queue
		// number: the policy's queues carry their traffic class as queue-id, so the RoCE class's
		// marks, drops and deepest point land under "3". The storm makes queue 3 drop, which
		// fails a per-queue drop-rate gate.
		{
			platform: "openconfig", port: "Ethernet1",
			storm:   func(l *accLab) func(string, bool) error { return l.Switch("openconfig-1").Storm },
			policy:  policyHCL("ROCE", 153600, 1536000, "", `"Ethernet1"`),
			gate:    `data.roce_interface_counters.port.queue_dropped_packets["3"] == 0`,
			message: `Queue 3 of openconfig-1 Ethernet1 drops ${data.roce_interface_counters.port.queue_dropped_packets["3"]} packets per second.`,
			before: resource.ComposeAggregateTestCheckFunc(
				// The policy's three queues (traffic classes 0, 3, 6), each with its counts.
				resource.TestCheckResourceAttr(portCounters, "queue_dropped_packets.%", "3"),
				resource.TestCheckResourceAttr(portCounters, "queue_dropped_packets.3", "0"),
				resource.TestCheckResourceAttr(portCounters, "queue_ecn_marked_packets.%", "3"),
				resource.TestCheckResourceAttrSet(portCounters, "queue_ecn_marked_packets.3"),
				// No storm yet: the deepest queue 3 got is a couple of 4154-byte packets.
				resource.TestCheckResourceAttr(portCounters, "queue_watermark_bytes.3", "8308"),
				resource.TestCheckResourceAttrSet(portCounters, "ecn_marked_packets"),
				resource.TestCheckNoResourceAttr(portCounters, "pfc_rx_pause.%"),
			),
			stormed: `Queue 3 of openconfig-1 Ethernet1 drops [1-9][0-9]* packets per second`,
			after: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(portCounters, "queue_dropped_packets.3", "0"),
				// A gauge: the deepest point since the queue was bound stays.
				resource.TestCheckResourceAttr(portCounters, "queue_watermark_bytes.3", "4154000"),
			),
		},
	} {
		t.Run(c.platform, func(t *testing.T) {
			l := switchLab(t, c.platform)
			counts, gate := portCountersHCL(c.platform+"-1", c.port, c.gate, c.message)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: protoV6Factories,
				Steps:                    stormSteps(t, c.storm(l), c.port, l.providerHCL()+c.policy, counts, gate, c.before, c.stormed, c.after),
			})
		})
	}
}
