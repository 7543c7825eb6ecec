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

// cliCountersHCL reads a port's counters after the policy applied (counts), or samples them
// for a second behind a golden-metric gate on what the platform counts (gate: its condition and
// the message of a failed plan).
func cliCountersHCL(device, port, gate, message string) (counts, sampled string) {
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

// TestAccEOSCounters: on EOS the counters read are the ECN marks of the tx-queues that count
// them (the policy's ECN class writes `random-detect ecn count`) and the port's discards; PFC
// per priority is null. A storm on the port fails a congestion gate with the marks and drops
// per second; once it is over the gate passes and the port drops nothing.
func TestAccEOSCounters(t *testing.T) {
	l := eosLab(t)
	sw := l.EOS("eos-1")
	policy := l.providerHCL() + eosPolicyHCL(153600, `"Ethernet1"`)
	counts, gate := cliCountersHCL("eos-1", "Ethernet1",
		"data.roce_interface_counters.port.ecn_marked_packets <= 1000 && data.roce_interface_counters.port.dropped_packets <= 100",
		"Congestion on eos-1 Ethernet1: ${data.roce_interface_counters.port.ecn_marked_packets} ECN marks and ${data.roce_interface_counters.port.dropped_packets} drops per second.")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: stormSteps(t, sw.Storm, "Ethernet1", policy, counts, gate,
			resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrSet("data.roce_interface_counters.port", "ecn_marked_packets"),
				// the roce class's tx-queue counts its marks (random-detect ecn count), no other does
				resource.TestCheckResourceAttr("data.roce_interface_counters.port", "queue_ecn_marked_packets.%", "1"),
				resource.TestCheckResourceAttrSet("data.roce_interface_counters.port", "queue_ecn_marked_packets.3"),
				resource.TestCheckNoResourceAttr("data.roce_interface_counters.port", "queue_dropped_packets.%"),
				resource.TestCheckResourceAttr("data.roce_interface_counters.port", "dropped_packets", "0"),
				resource.TestCheckOutput("pfc_null", "true"),
				resource.TestCheckOutput("ecn_null", "false"),
				resource.TestCheckNoResourceAttr("data.roce_interface_counters.port", "cnp_sent"),
			),
			`Congestion on eos-1 Ethernet1: [0-9]{5}(\.[0-9]+)? ECN marks and [0-9]{3,4}(\.[0-9]+)? drops per second`,
			resource.TestCheckResourceAttr("data.roce_interface_counters.port", "dropped_packets", "0")),
	})
}

// TestAccNXOSCounters: on NX-OS the counters read are the PFC frames per CoS and the queue drops
// of `show queuing interface`; ECN marks are null. A storm on the port makes the link partner
// pause the policy's lossless CoS 3, which fails a pause-storm gate; once it is over the gate
// passes with no pause and no drop.
func TestAccNXOSCounters(t *testing.T) {
	l := nxosLab(t)
	sw := l.NXOS("nxos-1")
	policy := l.providerHCL() + nxosPolicyHCL(153600, `"Ethernet1/1"`)
	counts, gate := cliCountersHCL("nxos-1", "Ethernet1/1",
		"alltrue([for p, r in data.roce_interface_counters.port.pfc_rx_pause : r <= 1000])",
		"PFC pause storm on nxos-1 Ethernet1/1: ${jsonencode(data.roce_interface_counters.port.pfc_rx_pause)} pauses per second.")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: stormSteps(t, sw.Storm, "Ethernet1/1", policy, counts, gate,
			resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("data.roce_interface_counters.port", "pfc_rx_pause.%", "8"),
				resource.TestCheckResourceAttr("data.roce_interface_counters.port", "pfc_rx_pause.3", "0"),
				resource.TestCheckResourceAttr("data.roce_interface_counters.port", "pfc_tx_pause.%", "8"),
				resource.TestCheckResourceAttr("data.roce_interface_counters.port", "queue_dropped_packets.%", "8"),
				resource.TestCheckNoResourceAttr("data.roce_interface_counters.port", "queue_ecn_marked_packets.%"),
				resource.TestCheckResourceAttr("data.roce_interface_counters.port", "dropped_packets", "0"),
				resource.TestCheckOutput("pfc_null", "false"),
				resource.TestCheckOutput("ecn_null", "true"),
				resource.TestCheckNoResourceAttr("data.roce_interface_counters.port", "cnp_sent"),
			),
			`PFC pause storm on nxos-1 Ethernet1/1: \{"0":0,"1":0,"2":0,"3":[0-9]{4}`,
			resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("data.roce_interface_counters.port", "pfc_rx_pause.3", "0"),
				resource.TestCheckResourceAttr("data.roce_interface_counters.port", "dropped_packets", "0"),
			)),
	})
}
