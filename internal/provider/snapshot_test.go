package provider

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// snapshotFabricHCL is a fabric with several resources on every kind of device: a policy and
// three PFC ports on each PFC-capable switch, a policy on the openconfig switch, NIC QoS and
// DCQCN on both NICs of the host. per_resource_reads comes from a variable.
func snapshotFabricHCL(inventory string) string {
	var b strings.Builder
	b.WriteString(requiredProvidersHCL)
	fmt.Fprintf(&b, `
variable "per_resource_reads" {
  type    = bool
  default = false
}

provider "roce" {
  timeout            = "20s"
  per_resource_reads = var.per_resource_reads
  devices            = jsondecode(file(%q)).devices
}

locals {
  classes = {
    roce    = { traffic_class = 3, dscp = [26], bandwidth_percent = 50, lossless = true, ecn = { min_threshold_bytes = 153600, max_threshold_bytes = 1536000 } }
    cnp     = { traffic_class = 6, dscp = [48], strict_priority = true }
    default = { traffic_class = 0, dscp = [0], bandwidth_percent = 50 }
  }
}

resource "roce_qos_policy" "oc" {
  device     = "openconfig-1"
  classes    = { for k, c in local.classes : k => merge(c, { lossless = false }) }
  interfaces = ["Ethernet1", "Ethernet2"]
}
`, inventory)
	switches := []struct {
		name  string
		ports []string
		extra string
	}{
		{"sonic-1", []string{"Ethernet0", "Ethernet4", "Ethernet8"}, ""},
		{"eos-1", []string{"Ethernet1", "Ethernet2", "Ethernet3"}, ""},
		{"nxos-1", []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3"}, ""},
	}
	for _, sw := range switches {
		id := strings.ReplaceAll(sw.name, "-", "_")
		fmt.Fprintf(&b, `
resource "roce_qos_policy" %q {
  device     = %q
  classes    = local.classes
  interfaces = %s
}

resource "roce_pfc_interface" %q {
  for_each   = toset(%s)
  device     = %q
  interface  = each.key
  watchdog   = %s
  depends_on = [roce_qos_policy.%s]
}
`, id, sw.name, hclList(sw.ports), id, hclList(sw.ports), sw.name, watchdogFor(sw.name), id)
	}
	b.WriteString(`
resource "roce_nic_qos" "gpu" {
  for_each         = toset(["eth0", "eth1"])
  device           = "mlx5-1"
  interface        = each.key
  trust            = "dscp"
  pfc_priorities   = [3]
  dscp_to_priority = { "26" = 3, "48" = 6 }
}

resource "roce_dcqcn_profile" "gpu" {
  for_each     = toset(["eth0", "eth1"])
  device       = "mlx5-1"
  interface    = each.key
  priorities   = [3]
  cnp_dscp     = 48
  cnp_priority = 6
}
`)
	return b.String()
}

func hclList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// watchdogFor: SONiC needs the times, NX-OS takes none, EOS either.
func watchdogFor(device string) string {
	if strings.HasPrefix(device, "nxos") {
		return `{ action = "drop" }`
	}
	return `{ action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }`
}

// TestAccReadsPerDevice is the deterministic guard of the read snapshots (the benchmark
// measures their effect): a no-change plan with the real CLI costs each device one read and one
// connection, whatever the number of resources on it; with per_resource_reads, one read per
// resource over that one connection.
func TestAccReadsPerDevice(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"openconfig": 1, "sonic": 1, "eos": 1, "nxos": 1},
		Hosts: map[string]int{"mlx5": 1}})
	tf := mainCLI(t, snapshotFabricHCL(filepath.Join(l.dir, lab.InventoryFile)))
	tf.must("apply", "-auto-approve", "-input=false", "-no-color")

	// Reads per device with per_resource_reads, as the configuration above places resources:
	// one per resource; on nxos a roce_pfc_interface reads ipqos and its port (2 commands).
	resources := map[string]int64{"openconfig-1": 1, "sonic-1": 4, "eos-1": 4, "nxos-1": 1 + 3*2, "mlx5-1": 4}
	for _, perResource := range []bool{false, true} {
		l.ResetAllCounters()
		v := fmt.Sprintf("per_resource_reads=%t", perResource)
		tf.emptyPlan(t.Fatalf, v, "-var="+v)
		for device, n := range resources {
			c, ok := l.DeviceCounters(device)
			if !ok {
				t.Fatalf("no counters for %s", device)
			}
			want := int64(1)
			if perResource {
				want = n
			}
			if c.Connections != 1 {
				t.Errorf("per_resource_reads=%t: %s took %d connections in one plan, want 1", perResource, device, c.Connections)
			}
			if c.Reads != want {
				t.Errorf("per_resource_reads=%t: %s answered %d reads in one plan, want %d",
					perResource, device, c.Reads, want)
			}
		}
	}
}
