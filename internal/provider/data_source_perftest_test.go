package provider

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// perftestNICs sets both hosts up for RoCE on DSCP 3, priority 3, as SONiC's stock QoS maps
// it (DSCP 3 on lossless traffic class 3; DSCP 26 is on lossy class 1 there, mlx5-host.md):
// PFC on the priorities in pfc1 on mlx5-1 and on 3 on mlx5-2.
func perftestNICs(pfc1 string) string {
	nic := func(name, host, pfc string) string {
		return fmt.Sprintf(`
resource "roce_nic_qos" %q {
  device           = %q
  interface        = "eth0"
  trust            = "dscp"
  pfc_priorities   = [%s]
  dscp_to_priority = { "3" = 3 }
}
`, name, host, pfc)
	}
	return nic("h1", "mlx5-1", pfc1) + nic("h2", "mlx5-2", "3")
}

// perftestHCL is a write_bw and a write_lat run from mlx5-1 to mlx5-2 through sonic-1, on
// distinct ports (Terraform reads them in parallel), with the golden metric's gate when gate
// is set.
func perftestHCL(gate bool) string {
	post := ""
	if gate {
		post = `  lifecycle {
    postcondition {
      condition     = self.p99_us < 200
      error_message = "RoCE path ${self.client.device} ${self.client.interface} -> ${self.server.device} ${self.server.interface}: p99 latency ${self.p99_us} us, over 200 us."
    }
  }
`
	}
	run := func(name, test string, port int, post string) string {
		return fmt.Sprintf(`
data "roce_perftest" %q {
  server        = { device = "mlx5-2", interface = "eth0" }
  client        = { device = "mlx5-1", interface = "eth0" }
  test          = %q
  gid_index     = 3
  traffic_class = 12
  port          = %d
  depends_on    = [roce_nic_qos.h1, roce_nic_qos.h2]
%s}
`, name, test, port, post)
	}
	return run("bw", "write_bw", 18515, "") + run("lat", "write_lat", 18516, post)
}

func between(lo, hi float64) func(string) error {
	return func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < lo || f > hi {
			return fmt.Errorf("got %q, want a number in [%v, %v]", v, lo, hi)
		}
		return nil
	}
}

// noPerftestLeft checks that no perftest program runs on the hosts and no server log is left
// in their /tmp.
func noPerftestLeft(l *accLab, hosts ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, h := range hosts {
			if out, _, status := l.Host(h).Run("pgrep -l '^ib_'"); status != 1 {
				return fmt.Errorf("%s still runs perftest: %q (pgrep status %d)", h, out, status)
			}
			if out, _, _ := l.Host(h).Run("ls /tmp"); strings.Contains(out, "roce-perftest") {
				return fmt.Errorf("%s keeps a perftest server log: %q", h, out)
			}
		}
		return nil
	}
}

// TestAccPerftestPath: two hosts cabled through a SONiC switch measure their path; after the
// client's NIC loses PFC on the RoCE priority the figures are worse and the latency gate fails
// naming the path.
func TestAccPerftestPath(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"sonic": 1}, Hosts: map[string]int{"mlx5": 2},
		Cables: []lab.Cable{{A: "mlx5-1", APort: "eth0", B: "sonic-1", BPort: "Ethernet0"},
			{A: "mlx5-2", APort: "eth0", B: "sonic-1", BPort: "Ethernet4"}}})
	good := l.providerHCL() + perftestNICs("3")
	mismatch := l.providerHCL() + perftestNICs("4")
	bw, lat := "data.roce_perftest.bw", "data.roce_perftest.lat"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				Config: good + perftestHCL(true),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(bw, "server_rdma_device", "mlx5_0"),
					resource.TestCheckResourceAttr(bw, "bytes", "65536"),
					resource.TestCheckResourceAttr(bw, "iterations_run", "5000"),
					resource.TestCheckResourceAttrWith(bw, "bw_average_gbps", between(85, 100)),
					resource.TestCheckResourceAttrWith(bw, "bw_peak_gbps", between(85, 100)),
					resource.TestCheckResourceAttrWith(bw, "msg_rate_mpps", between(0.1, 1)),
					resource.TestCheckNoResourceAttr(bw, "p99_us"),
					resource.TestCheckResourceAttr(lat, "bytes", "2"),
					resource.TestCheckResourceAttrWith(lat, "p99_us", between(0.5, 20)),
					resource.TestCheckResourceAttrWith(lat, "p99_9_us", between(0.5, 40)),
					resource.TestCheckResourceAttrWith(lat, "t_typical_us", between(0.5, 20)),
					resource.TestCheckResourceAttrWith(lat, "t_min_us", between(0.5, 20)),
					resource.TestCheckResourceAttrSet(lat, "t_max_us"),
					resource.TestCheckResourceAttrSet(lat, "t_avg_us"),
					resource.TestCheckResourceAttrSet(lat, "t_stdev_us"),
					resource.TestCheckNoResourceAttr(lat, "bw_average_gbps"),
					noPerftestLeft(l, "mlx5-1", "mlx5-2"),
				),
			},
			{ // mlx5-1 sends RoCE on priority 3 without PFC on it: a lossy path
				Config: mismatch + perftestHCL(false),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrWith(bw, "bw_average_gbps", between(1, 50)),
					resource.TestCheckResourceAttrWith(lat, "p99_us", between(200, 1000)),
				),
			},
			{
				Config:      mismatch + perftestHCL(true),
				ExpectError: regexp.MustCompile(`RoCE path mlx5-1 eth0 -> mlx5-2 eth0: p99 latency [2-9][0-9]{2}\.[0-9]+ us, over\s+200 us`),
			},
		},
	})
}

// TestAccPerftestErrors: bad input is refused at plan time on the attribute at fault, before
// any host is touched; a missing interface fails the read and leaves nothing running.
func TestAccPerftestErrors(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"sonic": 1}, Hosts: map[string]int{"mlx5": 2}})
	run := func(body string) string {
		return l.providerHCL() + `
data "roce_perftest" "t" {
  server = { device = "mlx5-2", interface = "eth0" }
  client = { device = "mlx5-1", interface = "eth0" }
` + body + "\n}\n"
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{Config: run(`test = "read_bw"`), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value Match.*with data.roce_perftest.t,.*test = "read_bw".*value must be one of`)},
			{Config: run(`test = "write_bw"` + "\n" + `port = 70000`), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)port = 70000.*Attribute port value must be between 1 and 65535, got: 70000`)},
			// perftest's own ranges (" Iteration num should be between 5 and ...", " Gid index
			// should be between 0 and 64"): refused at plan time, before a server is started.
			{Config: run(`test = "write_bw"` + "\n" + `iterations = 4`), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)iterations = 4.*Attribute iterations value must be between 5 and 100000000, got: 4`)},
			{Config: run(`test = "write_bw"` + "\n" + `gid_index = 65`), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)gid_index = 65.*Attribute gid_index value must be between 0 and 64, got: 65`)},
			{Config: run(`test = "write_lat"` + "\n" + `duration = 5`), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Invalid duration.*duration = 5.*duration applies to the bandwidth tests \(write_bw, send_bw\), not\s+to\s+write_lat`)},
			{Config: strings.Replace(run(`test = "write_bw"`), `device = "mlx5-2"`, `device = "sonic-1"`, 1), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Platform does not run perftest.*server: device "sonic-1" has platform sonic: perftest runs on NIC\s+hosts`)},
			{Config: strings.Replace(run(`test = "write_bw"`), `device = "mlx5-1", interface = "eth0"`, `device = "mlx5-1", interface = "eth9"`, 1),
				ExpectError: regexp.MustCompile(`(?s)perftest write_bw from mlx5-1 eth9 to mlx5-2 eth0 failed.*device "mlx5-1": eth9 has no\s+RDMA device`)},
			{ // the failure above left no perftest running on either host
				PreConfig: func() {
					if err := noPerftestLeft(l, "mlx5-1", "mlx5-2")(nil); err != nil {
						t.Error(err)
					}
				},
				Config: l.providerHCL(),
			},
		},
	})
}
