package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

const fabricCounters = "data.roce_fabric_counters.fabric"

// fabricHealthHCL is a fabric-wide golden-metric gate: the plan fails, listing every finding,
// while the fabric is not healthy.
const fabricHealthHCL = `
output "fabric" {
  value = data.roce_fabric_counters.fabric.healthy
  precondition {
    condition     = data.roce_fabric_counters.fabric.healthy
    error_message = join("\n", [for f in data.roce_fabric_counters.fabric.findings : f.message])
  }
}
`

// TestAccFabricCounters: one roce_fabric_counters data source over a SONiC switch (every
// port), an NX-OS switch and two NIC hosts, sampled for a second. The healthy fabric has no
// findings and every port's counters; then a PFC storm on sonic-1 Ethernet0 (whose watchdog
// catches it) and on nxos-1 Ethernet1/1, and a congested lossless queue on sonic-1 Ethernet4,
// are all flagged by one gate, each naming its port.
func TestAccFabricCounters(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"sonic": 1, "nxos": 1}, Hosts: map[string]int{"mlx5": 2}})
	sonic, nxos := l.SONiC("sonic-1"), l.NXOS("nxos-1")
	config := l.providerHCL() + sonicPolicyHCL(153600, `"Ethernet0", "Ethernet4"`) + sonicPFCHCL("Ethernet0", 200) +
		strings.Replace(nxosPolicyHCL(153600, `"Ethernet1/1"`), `"roce_qos_policy" "leaf"`, `"roce_qos_policy" "nx"`, 1) + `
data "roce_fabric_counters" "fabric" {
  devices = {
    "sonic-1" = {}
    "nxos-1"  = { interfaces = ["Ethernet1/1"] }
    "mlx5-1"  = { interfaces = ["eth0"] }
    "mlx5-2"  = {}
  }
  sample_seconds = 1
  depends_on     = [roce_pfc_interface.e0, roce_qos_policy.nx]
}
`
	trouble := func() {
		for _, err := range []error{sonic.Storm("Ethernet0", true), sonic.Congest("Ethernet4", 3, true), nxos.Storm("Ethernet1/1", true)} {
			if err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(500 * time.Millisecond) // past the watchdog's detection time (200 ms) on the switch's clock
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				Config: config + fabricHealthHCL,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(fabricCounters, "healthy", "true"),
					resource.TestCheckResourceAttr(fabricCounters, "findings.#", "0"),
					// every port of the SONiC switch (the lab's 8), the two named, mlx5-2's two netdevs
					resource.TestCheckResourceAttr(fabricCounters, "ports.%", "12"),
					resource.TestCheckResourceAttrSet(fabricCounters, "ports.mlx5-2/eth1.roce_tx_packets"),
					resource.TestCheckResourceAttr(fabricCounters, "ports.sonic-1/Ethernet28.interface", "Ethernet28"),
					resource.TestCheckResourceAttr(fabricCounters, "ports.sonic-1/Ethernet0.pfc_watchdog_storms_detected", "0"),
					resource.TestCheckResourceAttr(fabricCounters, "ports.sonic-1/Ethernet0.buffer_pool_bytes", "13945824"),
					resource.TestCheckResourceAttr(fabricCounters, "ports.nxos-1/Ethernet1/1.pfc_rx_pause.3", "0"),
					resource.TestCheckResourceAttr(fabricCounters, "ports.mlx5-1/eth0.device", "mlx5-1"),
					resource.TestCheckResourceAttrSet(fabricCounters, "ports.mlx5-1/eth0.roce_tx_packets"),
					resource.TestCheckResourceAttr(fabricCounters, "max_buffer_utilization_percent", "80"),
					resource.TestCheckResourceAttr(fabricCounters, "max_retransmit_percent", "0.001"),
				),
			},
			{
				PreConfig: trouble,
				Config:    config + fabricHealthHCL,
				ExpectError: wrappedRE(`nxos-1 Ethernet1/1: PFC pause storm: [0-9]+ pause frames received per second on priority 3 \(limit 1000\)` +
					`.*sonic-1 Ethernet0: PFC storm: the PFC watchdog holds 1 queue in a storm now \(1 detected, 0 restored\)` +
					`.*sonic-1 Ethernet4: buffer utilisation 90 % of 13945824 bytes \(limit 80 %\)`),
			},
			{
				// The same findings as data, for a check block or a script.
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(fabricCounters, "healthy", "false"),
					resource.TestCheckTypeSetElemNestedAttrs(fabricCounters, "findings.*", map[string]string{
						"device": "sonic-1", "interface": "Ethernet4", "metric": "buffer_utilization", "threshold": "80"}),
					resource.TestCheckTypeSetElemNestedAttrs(fabricCounters, "findings.*", map[string]string{
						"device": "sonic-1", "interface": "Ethernet0", "metric": "pause_storm", "value": "1", "threshold": "0"}),
					resource.TestCheckTypeSetElemNestedAttrs(fabricCounters, "findings.*", map[string]string{
						"device": "nxos-1", "interface": "Ethernet1/1", "metric": "pause_storm", "threshold": "1000"}),
					noFindingOn("mlx5-1"), noFindingOn("mlx5-2"),
				),
			},
		},
	})
}

// noFindingOn checks that no finding names device.
func noFindingOn(device string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs := s.RootModule().Resources[fabricCounters]
		for k, v := range rs.Primary.Attributes {
			if strings.HasPrefix(k, "findings.") && strings.HasSuffix(k, ".device") && v == device {
				return fmt.Errorf("a finding names %s: %s", device, rs.Primary.Attributes[strings.TrimSuffix(k, "device")+"message"])
			}
		}
		return nil
	}
}

// TestAccFabricCountersReadsPerDevice: roce_fabric_counters reads each device of every platform
// once per read whatever the number of ports (twice with a window). Beside it, roce_interface_counters reads
// one port of a twin device the same way, so through every plan, apply and refresh Terraform
// runs, each device of the fabric read must have served exactly as many requests as its twin;
// reading port by port it would serve one per port.
func TestAccFabricCountersReadsPerDevice(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"sonic": 2, "eos": 2, "nxos": 2, "openconfig": 2, "cumulus": 2},
		Hosts: map[string]int{"mlx5": 2}})
	config := l.providerHCL() + `
data "roce_fabric_counters" "fabric" {
  devices = {
    "sonic-1"      = {}
    "eos-1"        = {}
    "nxos-1"       = {}
    "openconfig-1" = {}
    "cumulus-1"    = {}
    "mlx5-1"       = {}
  }
  sample_seconds = 1
}
`
	twins := map[string]string{"sonic-1": "sonic-2", "eos-1": "eos-2", "nxos-1": "nxos-2", "openconfig-1": "openconfig-2",
		"cumulus-1": "cumulus-2", "mlx5-1": "mlx5-2"}
	for twin, port := range map[string]string{"sonic-2": "Ethernet0", "eos-2": "Ethernet1", "nxos-2": "Ethernet1/1",
		"openconfig-2": "Ethernet1", "cumulus-2": "swp1", "mlx5-2": "eth0"} {
		config += fmt.Sprintf(`
data "roce_interface_counters" %q {
  device         = %q
  interface      = %q
  sample_seconds = 1
}
`, twin, twin, port)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{{
			PreConfig: l.ResetAllCounters,
			Config:    config,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(fabricCounters, "ports.%", "42"), // the lab's 8 ports a switch, 2 netdevs a host
				func(*terraform.State) error {
					for dev, twin := range twins {
						a, _ := l.DeviceCounters(dev)
						b, _ := l.DeviceCounters(twin)
						if a.Requests == 0 || a.Requests != b.Requests {
							return fmt.Errorf("%s (every port) served %d requests, %s (one port) %d: want the same, above 0", dev, a.Requests, twin, b.Requests)
						}
					}
					return nil
				},
			),
		}},
	})
}

// TestAccFabricCountersErrors: at plan time, a device the provider does not know and a port the
// switch lacks fail the read on the device at fault (a fabric check must not pass for want of
// a device), and a name that is no port name never reaches a device.
func TestAccFabricCountersErrors(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"sonic": 1}})
	read := func(devices string) string {
		return l.providerHCL() + `
data "roce_fabric_counters" "fabric" {
  devices = {` + devices + `}
}
`
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{Config: read(`"leaf-9" = {}`), ExpectError: wrappedRE(`Cannot read counters.*Device "leaf-9" is not in the provider.s .devices. map`)},
			{Config: read(`"sonic-1" = { interfaces = ["Ethernet99"] }`),
				ExpectError: wrappedRE(`Cannot read the counters of device "sonic-1".*device "sonic-1" has no interface "Ethernet99"`)},
			{Config: read(`"sonic-1" = { interfaces = ["Ethernet0; reboot"] }`), ExpectError: wrappedRE(`must be a port or netdev name`)},
			{Config: read(`"sonic-1" = {}`), Check: resource.TestCheckResourceAttr(fabricCounters, "ports.%", "8")},
		},
	})
}
