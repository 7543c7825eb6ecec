package provider

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

func TestAccInterfaceCounters(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"openconfig": 1}, Hosts: map[string]int{"mlx5": 1}})
	host := l.Host("mlx5-1")
	nic := l.providerHCL() + nicHCL("eth0", "3", ets5050)
	counts := nic + countersHCL("host", "mlx5-1", "eth0", "roce_nic_qos.gpu") + countersHCL("switch", "openconfig-1", "Ethernet1", "")
	// A golden-metric gate: the plan fails while the port receives a PFC pause storm.
	gate := nic + counterGateHCL("host", "mlx5-1", "eth0", "pause_rate", "pfc_rx_pause",
		"alltrue([for p, r in data.roce_interface_counters.host.pfc_rx_pause : r <= 1000])",
		"PFC pause storm on mlx5-1 eth0: ${jsonencode(data.roce_interface_counters.host.pfc_rx_pause)} pauses per second.")
	// The retransmit golden metric: under 0.001 % of the RDMA packets sent.
	retransGate := nic + counterGateHCL("host", "mlx5-1", "eth0", "retransmit_percent", "retransmit_percent",
		"data.roce_interface_counters.host.retransmit_percent < 0.001",
		"RoCE retransmissions on mlx5-1 eth0: ${data.roce_interface_counters.host.retransmit_percent} % of packets sent.")
	atLeast := func(floor float64) func(string) error {
		return func(v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < floor {
				return fmt.Errorf("got %q, want a number >= %v", v, floor)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				Config: counts,
				Check: resource.ComposeAggregateTestCheckFunc(
					// PFC is on priority 3 only: that is the one pause counter the NIC has.
					resource.TestCheckResourceAttr("data.roce_interface_counters.host", "pfc_rx_pause.%", "1"),
					resource.TestCheckResourceAttr("data.roce_interface_counters.host", "pfc_rx_pause.3", "0"),
					resource.TestCheckResourceAttrWith("data.roce_interface_counters.host", "cnp_sent", atLeast(0)),
					resource.TestCheckResourceAttrWith("data.roce_interface_counters.host", "out_of_sequence", atLeast(0)),
					resource.TestCheckResourceAttr("data.roce_interface_counters.host", "packet_seq_err", "0"),
					resource.TestCheckResourceAttr("data.roce_interface_counters.host", "local_ack_timeout_err", "0"),
					resource.TestCheckResourceAttr("data.roce_interface_counters.host", "retransmit_percent", "0"),
					resource.TestCheckResourceAttrWith("data.roce_interface_counters.host", "roce_tx_packets", atLeast(1)),
					resource.TestCheckNoResourceAttr("data.roce_interface_counters.switch", "retransmit_percent"),
					resource.TestCheckNoResourceAttr("data.roce_interface_counters.switch", "packet_seq_err"),
					// OpenConfig has no per-priority PFC counter and no CNP counters: null.
					resource.TestCheckNoResourceAttr("data.roce_interface_counters.switch", "pfc_rx_pause.%"),
					resource.TestCheckNoResourceAttr("data.roce_interface_counters.switch", "cnp_sent"),
					resource.TestCheckResourceAttrWith("data.roce_interface_counters.switch", "dropped_packets", atLeast(0)),
				),
			},
			{
				PreConfig: func() {
					if err := host.Storm("eth0", true); err != nil {
						t.Fatal(err)
					}
				},
				Config:      gate,
				ExpectError: regexp.MustCompile(`(?s)PFC pause storm on mlx5-1 eth0: \{"3":`),
			},
			{ // the storm's losses make the senders resend: over the threshold
				Config:      retransGate,
				ExpectError: regexp.MustCompile(`(?s)RoCE retransmissions on mlx5-1 eth0: 0\.00[0-9]+ % of packets sent`),
			},
			{
				PreConfig: func() {
					if err := host.Storm("eth0", false); err != nil {
						t.Fatal(err)
					}
				},
				Config: gate,
				Check:  resource.TestCheckResourceAttr("data.roce_interface_counters.host", "pfc_rx_pause.3", "0"),
			},
			{
				Config: retransGate,
				Check:  resource.TestCheckResourceAttr("data.roce_interface_counters.host", "retransmit_percent", "0"),
			},
		},
	})
}
