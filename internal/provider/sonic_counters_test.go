package provider

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccSONiCCounters: roce_interface_counters on SONiC ports reads COUNTERS_DB over gNMI as
// sonic-gnmi serves it. A PFC storm on a port with the provider's watchdog shows pauses
// received on the no-drop priority and the watchdog's storm detected, then restored; a
// congested lossless queue on another port shows ECN marks and a watermark that fails a
// buffer-utilisation gate naming the port.
func TestAccSONiCCounters(t *testing.T) {
	l := switchLab(t, "sonic")
	sw := l.SONiC("sonic-1")
	base := l.providerHCL() + sonicPolicyHCL(153600, `"Ethernet0"`) + sonicPFCHCL("Ethernet0", 200)
	counts := base + `
data "roce_interface_counters" "e0" {
  device     = "sonic-1"
  interface  = "Ethernet0"
  depends_on = [roce_pfc_interface.e0]
}
`
	gate := base + `
data "roce_interface_counters" "e4" {
  device    = "sonic-1"
  interface = "Ethernet4"
}

output "buffer" {
  value = data.roce_interface_counters.e4.buffer_utilization_percent
  precondition {
    condition     = data.roce_interface_counters.e4.buffer_utilization_percent <= 80
    error_message = "Buffer utilisation on sonic-1 Ethernet4: ${format("%.0f", data.roce_interface_counters.e4.buffer_utilization_percent)} % of ${data.roce_interface_counters.e4.buffer_pool_bytes} bytes."
  }
}
`
	const e0 = "data.roce_interface_counters.e0"
	const e4 = "data.roce_interface_counters.e4"
	above := func(floor float64) func(string) error {
		return func(v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f <= floor {
				return fmt.Errorf("got %q, want a number above %v", v, floor)
			}
			return nil
		}
	}
	storm := func(on bool, settle time.Duration) func() {
		return func() {
			if err := sw.Storm("Ethernet0", on); err != nil {
				t.Fatal(err)
			}
			time.Sleep(settle) // past the watchdog's detection (200 ms) or restoration (400 ms) time
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				Config: counts,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(e0, "pfc_rx_pause.%", "8"),
					resource.TestCheckResourceAttr(e0, "pfc_rx_pause.3", "0"),
					resource.TestCheckResourceAttr(e0, "pfc_watchdog_storms_detected", "0"),
					resource.TestCheckResourceAttr(e0, "pfc_watchdog_storms_restored", "0"),
					resource.TestCheckResourceAttrWith(e0, "queue_ecn_marked_packets.3", above(0)),
					resource.TestCheckResourceAttr(e0, "queue_ecn_marked_packets.0", "0"),
					resource.TestCheckResourceAttr(e0, "queue_dropped_packets.0", "0"),
					resource.TestCheckResourceAttr(e0, "queue_watermark_bytes.3", "2048"),
					// The policy makes priority 3 the port's one no-drop priority, PG 3.
					resource.TestCheckResourceAttr(e0, "pg_shared_watermark_bytes.%", "1"),
					resource.TestCheckResourceAttr(e0, "pg_headroom_watermark_bytes.3", "0"),
					resource.TestCheckResourceAttr(e0, "buffer_pool_bytes", "13945824"),
					resource.TestCheckResourceAttrWith(e0, "buffer_utilization_percent", above(0)),
					resource.TestCheckNoResourceAttr(e0, "cnp_sent"),
				),
			},
			{
				PreConfig: storm(true, 500*time.Millisecond),
				Config:    counts,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrWith(e0, "pfc_rx_pause.3", above(0)),
					resource.TestCheckResourceAttr(e0, "pfc_rx_pause.0", "0"),
					resource.TestCheckResourceAttr(e0, "pfc_watchdog_storms_detected", "1"),
					resource.TestCheckResourceAttr(e0, "pfc_watchdog_storms_restored", "0"),
					resource.TestCheckResourceAttrWith(e0, "queue_dropped_packets.0", above(0)),
					resource.TestCheckResourceAttr(e0, "queue_dropped_packets.3", "0"),
				),
			},
			{
				PreConfig: storm(false, time.Second),
				Config:    counts,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(e0, "pfc_watchdog_storms_detected", "1"),
					resource.TestCheckResourceAttr(e0, "pfc_watchdog_storms_restored", "1"),
				),
			},
			{Config: gate, Check: resource.TestCheckResourceAttrWith(e4, "buffer_utilization_percent", func(v string) error {
				if f, err := strconv.ParseFloat(v, 64); err != nil || f > 1 {
					return fmt.Errorf("an idle port's utilisation %q", v)
				}
				return nil
			})},
			{
				PreConfig: func() {
					if err := sw.Congest("Ethernet4", 3, true); err != nil {
						t.Fatal(err)
					}
				},
				Config:      gate,
				ExpectError: wrappedRE(`Buffer utilisation on sonic-1 Ethernet4: 90 % of 13945824 bytes`),
			},
		},
	})
}
