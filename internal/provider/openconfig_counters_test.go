package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// TestAccOpenConfigQueueCounters: roce_interface_counters on an OpenConfig port with the
// policy bound reads its output queues' state (openconfig-qos) by queue number: the policy's
// queues carry their traffic class as queue-id, so the RoCE class's marks, drops and deepest
// point land under "3". A storm makes queue 3 drop, which fails a per-queue drop-rate gate
// naming the port until it is over.
func TestAccOpenConfigQueueCounters(t *testing.T) {
	l := startLab(t, lab.Options{})
	policy := l.providerHCL() + policyHCL("ROCE", 153600, 1536000, "", `"Ethernet1"`)
	counts := countersHCL("e1", "openconfig-1", "Ethernet1", "roce_qos_policy.leaf")
	gate := counterGateHCL("e1", "openconfig-1", "Ethernet1", "queue_drops", "queue_dropped_packets",
		`data.roce_interface_counters.e1.queue_dropped_packets["3"] == 0`,
		`Queue 3 of openconfig-1 Ethernet1 drops ${data.roce_interface_counters.e1.queue_dropped_packets["3"]} packets per second.`)
	const ds = "data.roce_interface_counters.e1"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: stormSteps(t, l.Switch("openconfig-1").Storm, "Ethernet1", policy, counts, gate,
			resource.ComposeAggregateTestCheckFunc(
				// The policy's three queues (traffic classes 0, 3, 6), each with its counts.
				resource.TestCheckResourceAttr(ds, "queue_dropped_packets.%", "3"),
				resource.TestCheckResourceAttr(ds, "queue_dropped_packets.3", "0"),
				resource.TestCheckResourceAttr(ds, "queue_ecn_marked_packets.%", "3"),
				resource.TestCheckResourceAttrSet(ds, "queue_ecn_marked_packets.3"),
				// No storm yet: the deepest queue 3 got is a couple of 4154-byte packets.
				resource.TestCheckResourceAttr(ds, "queue_watermark_bytes.3", "8308"),
				resource.TestCheckResourceAttrSet(ds, "ecn_marked_packets"),
				resource.TestCheckNoResourceAttr(ds, "pfc_rx_pause.%"),
			),
			`Queue 3 of openconfig-1 Ethernet1 drops [1-9][0-9]* packets per second`,
			resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(ds, "queue_dropped_packets.3", "0"),
				// A gauge: the deepest point since the queue was bound stays.
				resource.TestCheckResourceAttr(ds, "queue_watermark_bytes.3", "4154000"),
			)),
	})
}
