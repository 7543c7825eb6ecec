package provider

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// sonicWritesHCL is one policy on ports and one roce_pfc_interface per port, on both switches;
// sonic-2 reads CONFIG_DB for every resource (per_resource_reads), so each of its writes is
// built on a Get just before it, as every SONiC write was before writes kept the process's
// CONFIG_DB up to date.
func sonicWritesHCL(inventory string, ports []string, traditional bool) string {
	buffer := "xoff_bytes = 122880, xon_bytes = 61440, cable_length_m = 5"
	if traditional {
		buffer = "cable_length_m = 40" // buffermgrd's lookup profile: no explicit headroom there
	}
	return requiredProvidersHCL + fmt.Sprintf(`
locals {
  inventory = jsondecode(file(%q)).devices
  switches  = ["sonic-1", "sonic-2"]
  ports     = %s
}

provider "roce" {
  timeout = "20s"
  devices = merge(local.inventory, { "sonic-2" = merge(local.inventory["sonic-2"], { per_resource_reads = true }) })
}

resource "roce_qos_policy" "leaf" {
  for_each = toset(local.switches)
  device   = each.key
  classes = {
    roce    = { traffic_class = 3, dscp = [26], bandwidth_percent = 50, lossless = true, ecn = { min_threshold_bytes = 153600, max_threshold_bytes = 1536000 } }
    cnp     = { traffic_class = 6, dscp = [48], strict_priority = true }
    default = { traffic_class = 0, dscp = [0], bandwidth_percent = 50 }
  }
  interfaces = local.ports
}

resource "roce_pfc_interface" "port" {
  for_each   = { for pair in setproduct(local.switches, local.ports) : "${pair[0]}/${pair[1]}" => pair }
  device     = each.value[0]
  interface  = each.value[1]
  buffer     = { %s }
  watchdog   = { action = "drop", detection_time_ms = 200, restoration_time_ms = 400 }
  depends_on = [roce_qos_policy.leaf]
}
`, inventory, hclList(ports), buffer)
}

// TestAccSONiCApplyReadsOnce: an apply from empty of a policy and its PFC ports reads the
// switch's CONFIG_DB once per provider process (Terraform's plan and apply), not once per
// write, and on the dynamic buffer model sends the PFC ports Terraform runs at once
// (-parallelism) in at most two SetRequests: the first port at once, the others together when
// it is answered (3 Sets for 5 resources, and 3 for destroy: two for the ports, then the
// policy; 2 when every port's call reaches the provider before the first Set is sent, which a
// loaded machine makes likely).
// The switch ends up exactly as the twin switch whose every write was built on a fresh read
// and sent alone, and so does destroy. Real Terraform CLI, the lab's request counters; the
// lab's latency (400 ms a request) keeps the first port's Set in flight while Terraform calls
// the provider for the other ports.
func TestAccSONiCApplyReadsOnce(t *testing.T) {
	eachSONiCModel(t, testSONiCApplyReadsOnce)
}

func testSONiCApplyReadsOnce(t *testing.T, model string, traditional bool) {
	l := startLab(t, lab.Options{Switches: map[string]int{"sonic": 2}, Models: map[string]string{"sonic": model}, Latency: 400 * time.Millisecond})
	one, two := l.SONiC("sonic-1"), l.SONiC("sonic-2")
	yangOne, yangTwo := sonicYANG(t, one), sonicYANG(t, two)
	// The twins differ in their names only.
	stock := func(sw *lab.SONiCSwitch) map[string]map[string]map[string]string {
		db := sw.DB()
		delete(db, "DEVICE_METADATA")
		return db
	}
	stockOne, stockTwo := stock(one), stock(two)
	if diff := cmp.Diff(stockTwo, stockOne); diff != "" {
		t.Fatalf("the twin switches' stock CONFIG_DB differ (-sonic-2 +sonic-1):\n%s", diff)
	}
	ports := []string{"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12"}
	resources := int64(1 + len(ports))
	tf := mainCLI(t, sonicWritesHCL(filepath.Join(l.dir, lab.InventoryFile), ports, traditional))

	// sameAsTwin: what the writes left on sonic-1 is what writes on fresh reads left on
	// sonic-2, and both pass SONiC's YANG models.
	sameAsTwin := func(when string) {
		t.Helper()
		for _, yang := range []func(*terraform.State) error{yangOne, yangTwo} {
			if err := yang(nil); err != nil {
				t.Errorf("%s: %v", when, err)
			}
		}
		if diff := cmp.Diff(stock(two), stock(one)); diff != "" {
			t.Errorf("%s: sonic-1's CONFIG_DB differs from sonic-2's, written on fresh reads (-sonic-2 +sonic-1):\n%s", when, diff)
		}
	}
	counted := func(what string, maxReads, minSets, maxSets int64) {
		t.Helper()
		a, _ := l.DeviceCounters("sonic-1")
		b, _ := l.DeviceCounters("sonic-2")
		t.Logf("%s (%s): sonic-1 %d Gets, %d Sets; sonic-2 (a read per resource) %d Gets, %d Sets", what, model, a.Reads, a.Writes, b.Reads, b.Writes)
		if a.Writes < minSets || a.Writes > maxSets {
			want := fmt.Sprint(minSets)
			if maxSets != minSets {
				want = fmt.Sprintf("%d to %d", minSets, maxSets)
			}
			t.Errorf("%s: sonic-1 took %d SetRequests for %d resources, want %s", what, a.Writes, resources, want)
		}
		if b.Writes != resources {
			t.Errorf("%s: sonic-2 (per_resource_reads) took %d SetRequests for %d resources, want one each", what, b.Writes, resources)
		}
		if a.Reads > maxReads {
			t.Errorf("%s: sonic-1 served %d Gets for %d writes, want at most %d", what, a.Reads, a.Writes, maxReads)
		}
	}

	// On the dynamic model one Get per provider process (plan, apply). On the traditional model
	// buffermgrd rewrites BUFFER_PG and BUFFER_PROFILE after each write here (pfc_enable, cable
	// lengths, pfcwd_sw_enable in PORT_QOS_MAP), so each such write is followed by a read.
	// Writes are sent together where they arrive while a Set is in flight: the policy first
	// (the ports depend on it), then the first port alone, then the other three in one Set. On
	// the traditional model each write buffermgrd reacts to is sent alone (the next is built
	// on what buffermgrd left, read again). Whether the first port goes alone depends on when
	// Terraform's calls arrive: the policy's Set and one or two for the ports.
	maxReads, minSets, maxSets := int64(2), int64(2), int64(3)
	if traditional {
		maxReads, minSets, maxSets = 2+resources, resources, resources
	}
	l.ResetAllCounters()
	tf.must("apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=10")
	counted("apply from empty", maxReads, minSets, maxSets)
	sameAsTwin("after apply")
	if got := one.DB()["PFC_WD"]["Ethernet12"]["detection_time"]; got != "200" {
		t.Errorf("PFC_WD|Ethernet12 detection_time = %q, want 200", got)
	}
	tf.emptyPlan(t.Fatalf, "after apply")

	l.ResetAllCounters()
	tf.must("destroy", "-auto-approve", "-input=false", "-no-color", "-parallelism=10")
	counted("destroy", maxReads, minSets, maxSets)
	sameAsTwin("after destroy")
	// buffermgrd of the traditional model keeps the lookup profiles it made (it deletes none).
	if diff := cmp.Diff(stockOne, stock(one)); diff != "" && !traditional {
		t.Errorf("destroy did not give sonic-1 its stock CONFIG_DB back (-stock +after):\n%s", diff)
	}
}
