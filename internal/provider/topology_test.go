package provider

import (
	"cmp"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// cablesValue is the lab's cabling as roce_fabric_links must report it.
func cablesValue(cables []lab.Cable) knownvalue.Check {
	var want []knownvalue.Check
	for _, c := range cables {
		want = append(want, knownvalue.ObjectExact(map[string]knownvalue.Check{
			"a_device": knownvalue.StringExact(c.A), "a_interface": knownvalue.StringExact(c.APort),
			"b_device": knownvalue.StringExact(c.B), "b_interface": knownvalue.StringExact(c.BPort),
		}))
	}
	return knownvalue.ListExact(want)
}

// TestAccFabricLinksEveryPlatform: a lab of every platform, cabled by default (switches chained,
// hosts rail-style), is read back by roce_fabric_links from each platform's own LLDP source (EOS
// JSON, NX-OS text, SONiC APPL_DB, openconfig-lldp, lldpd on hosts) as exactly the lab's cables;
// after a NIC is moved to another port, the next plan sees the new cable.
func TestAccFabricLinksEveryPlatform(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"openconfig": 1, "sonic": 1, "eos": 1, "nxos": 1, "cumulus": 1},
		Hosts: map[string]int{"mlx5": 2}})
	cfg := l.providerHCL() + `
data "roce_fabric_links" "all" {}

data "roce_lldp_neighbors" "host" {
  device     = "mlx5-1"
  interfaces = ["eth0"]
}
`
	before := l.Cables()
	if len(before) != 8 {
		t.Fatalf("the lab has %d cables, want 4 uplinks and 4 NICs: %v", len(before), before)
	}
	// mlx5-1 eth0's far end, and the cabling once it is moved to sonic-1 Ethernet8.
	var peer, peerPort string
	var after []lab.Cable
	for _, c := range before {
		switch {
		case c.A == "mlx5-1" && c.APort == "eth0":
			peer, peerPort = c.B, c.BPort
		case c.B == "mlx5-1" && c.BPort == "eth0":
			peer, peerPort = c.A, c.APort
		default:
			after = append(after, c)
		}
	}
	after = append(after, lab.Cable{A: "mlx5-1", APort: "eth0", B: "sonic-1", BPort: "Ethernet8"})
	slices.SortFunc(after, func(x, y lab.Cable) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.APort, y.APort)) })
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.roce_fabric_links.all", tfjsonpath.New("links"), cablesValue(before)),
					statecheck.ExpectKnownValue("data.roce_fabric_links.all", tfjsonpath.New("unresolved"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue("data.roce_lldp_neighbors.host", tfjsonpath.New("hostname"), knownvalue.StringExact("mlx5-1")),
					statecheck.ExpectKnownValue("data.roce_lldp_neighbors.host", tfjsonpath.New("neighbors"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{
							"interface":          knownvalue.StringExact("eth0"),
							"remote_system_name": knownvalue.StringExact(peer),
							"remote_port_id":     knownvalue.StringExact(peerPort),
						})})),
				},
			},
			{
				// The NIC is moved to the last free host port of sonic-1.
				PreConfig: func() {
					if err := l.Recable("mlx5-1", "eth0", "sonic-1", "Ethernet8"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.roce_fabric_links.all", tfjsonpath.New("links"), cablesValue(after)),
					statecheck.ExpectKnownValue("data.roce_lldp_neighbors.host", tfjsonpath.New("neighbors").AtSliceIndex(0).AtMapKey("remote_system_name"),
						knownvalue.StringExact("sonic-1")),
				},
			},
			{
				Config:      l.providerHCL() + `data "roce_lldp_neighbors" "x" { device = "nope-1" }`,
				ExpectError: regexp.MustCompile(`(?s)Cannot read the LLDP neighbours of "nope-1"`),
			},
		},
	})
}

// TestAccFabricCheckCabledLab is issue 19's "done when": two leaves with hosts on both, each
// cable checked end to end. A host lossless on 3 cabled to a leaf whose policy is lossless on 4
// is reported naming both ends, and so is the uplink without PFC.
func TestAccFabricCheckCabledLab(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"eos": 2}, Hosts: map[string]int{"mlx5": 2}, NICPorts: 1})
	// eos-1 Ethernet8 <-> eos-2 Ethernet8; mlx5-1 eth0 <-> eos-1 Ethernet1; mlx5-2 eth0 <-> eos-2 Ethernet1.
	leaf := func(device string, tc int) string {
		return fmt.Sprintf(`{
    device     = %q
    interfaces = ["Ethernet1", "Ethernet8"]
    classes = {
      roce    = { traffic_class = %d, dscp = [26], bandwidth_percent = 50, lossless = true,
                  ecn = { min_threshold_bytes = 153600, max_threshold_bytes = 1536000, mark_probability_percent = 100 } }
      cnp     = { traffic_class = 6, dscp = [48], strict_priority = true }
      default = { traffic_class = 0, dscp = [0], bandwidth_percent = 50 }
    }
  }`, device, tc)
	}
	nic := func(device string) string {
		return fmt.Sprintf(`{ device = %q, interface = "eth0", trust = "dscp", pfc_priorities = [3], dscp_to_priority = { "26" = 3, "48" = 6 } }`, device)
	}
	check := func(tc2 int) string {
		return l.providerHCL() + fmt.Sprintf(`
data "roce_fabric_links" "cabled" {}

data "roce_fabric_check" "fabric" {
  switch_policies = [%s, %s]
  pfc_interfaces  = [{ device = "eos-1", interface = "Ethernet1", mode = "on" }, { device = "eos-2", interface = "Ethernet1", mode = "on" }]
  nic_qos         = [%s, %s]
  links           = data.roce_fabric_links.cabled.links
}

output "ok" {
  value = data.roce_fabric_check.fabric.ok
  precondition {
    condition     = data.roce_fabric_check.fabric.ok
    error_message = join("\n", [for f in data.roce_fabric_check.fabric.findings : "${f.rule} ${f.device}: ${f.message}"])
  }
}
`, leaf("eos-1", 3), leaf("eos-2", tc2), nic("mlx5-1"), nic("mlx5-2"))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{{
			Config: check(4),
			ExpectError: regexp.MustCompile(`(?s)` + wrapped(
				`R15 eos-1: Link eos-1 Ethernet8 <-> eos-2 Ethernet8: eos-1 Ethernet8 is bound to a lossless policy but has no roce_pfc_interface`,
				`R15 eos-2: Link eos-2 Ethernet1 <-> mlx5-2 eth0: eos-2 Ethernet1 is lossless on [4] but mlx5-2 eth0 on [3]`)),
		}},
	})
}

// wrapped matches texts in order as Terraform prints them in a diagnostic: wrapped at any space.
func wrapped(texts ...string) string {
	var parts []string
	for _, t := range texts {
		words := strings.Fields(t)
		for i, w := range words {
			words[i] = regexp.QuoteMeta(w)
		}
		parts = append(parts, strings.Join(words, `\s+`))
	}
	return strings.Join(parts, ".*")
}

// The cabling-check guide as users run it: apply, an empty plan, then a NIC moved to a port
// without the policy fails the plan (exit 1) naming both ends; cabled back, the plan is empty.
func TestAccGuideCablingCheck(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"eos": 2}, Hosts: map[string]int{"mlx5": 2}})
	dir := t.TempDir()
	copyTF(t, guideExample(t, "cabling-check"), dir)
	inventory := "inventory=" + filepath.Join(l.dir, lab.InventoryFile)
	tf := initCLI(t, dir)
	tf.must("apply", "-auto-approve", "-input=false", "-no-color", "-var", inventory)
	t.Cleanup(func() { tf.must("destroy", "-auto-approve", "-input=false", "-no-color", "-var", inventory) })
	plan := func() (string, int) {
		return tf.run("plan", "-detailed-exitcode", "-input=false", "-no-color", "-var", inventory)
	}
	tf.emptyPlan(t.Fatalf, "after apply", "-var", inventory)
	var was lab.Cable
	for _, c := range l.Cables() {
		if c.B == "mlx5-2" && c.BPort == "eth0" {
			was = c
		}
	}
	if err := l.Recable("mlx5-2", "eth0", "eos-1", "Ethernet5"); err != nil {
		t.Fatal(err)
	}
	out, code := plan()
	if code != 1 || !regexp.MustCompile(`(?s)`+wrapped(
		`R12 eos-1: Link eos-1 Ethernet5 <-> mlx5-2 eth0: mlx5-2 eth0 carries RoCE (NIC QoS), but eos-1 Ethernet5 has no QoS policy bound to that port (roce_qos_policy)`)).MatchString(out) {
		t.Fatalf("a mis-cabled NIC: exit %d, want 1 naming both ends:\n%s", code, out)
	}
	if err := l.Recable("mlx5-2", "eth0", was.A, was.APort); err != nil {
		t.Fatal(err)
	}
	tf.emptyPlan(t.Fatalf, "cabled back", "-var", inventory)
}

// auditHCL audits every device of the lab with its cables (data.roce_fabric_audit.all); output
// rules is its findings as sorted "rule severity device".
const auditHCL = `
data "roce_fabric_links" "all" {}

data "roce_fabric_audit" "all" {
  links = data.roce_fabric_links.all.links
}

output "rules" { value = join(", ", sort(distinct([for f in data.roce_fabric_audit.all.findings : "${f.rule} ${f.severity} ${f.device}"]))) }
`

// auditPort is the expression of the audited port iface of device.
func auditPort(device, iface string) string {
	return fmt.Sprintf(`one([for p in data.roce_fabric_audit.all.ports : p if p.device == %q && p.interface == %q])`, device, iface)
}

// dscpClass checks that the audited port of output out sends DSCP dscp to traffic class tc.
func dscpClass(out, dscp string, tc int64) statecheck.StateCheck {
	return statecheck.ExpectKnownOutputValueAtPath(out, tfjsonpath.New("dscp_to_traffic_class").AtMapKey(dscp), knownvalue.Int64Exact(tc))
}

// losslessPort is the check of output out, an audited port whose policy (the device's own
// name) classifies on trust with PFC on, and whose lossless priorities are lossless; more adds
// checks of other attributes (ecn_traffic_classes).
func losslessPort(out, policy, trust string, lossless []int64, more map[string]knownvalue.Check) statecheck.StateCheck {
	checks := map[string]knownvalue.Check{
		"policy": knownvalue.StringExact(policy), "trust": knownvalue.StringExact(trust), "pfc_mode": knownvalue.StringExact("on"),
		"lossless_priorities": int64sExact(lossless...),
	}
	for k, v := range more {
		checks[k] = v
	}
	return statecheck.ExpectKnownOutputValue(out, knownvalue.ObjectPartial(checks))
}

// int64sExact checks a list of exactly these numbers, in order.
func int64sExact(vs ...int64) knownvalue.Check {
	c := []knownvalue.Check{}
	for _, v := range vs {
		c = append(c, knownvalue.Int64Exact(v))
	}
	return knownvalue.ListExact(c)
}

// TestAccFabricAuditForeignConfigs is issue 19's audit: hand-made QoS with foreign object names
// on SONiC (the stock AZURE maps), EOS (a qos profile GPU-LOSSLESS typed by an operator) and
// NX-OS (Microsoft's Azure Local reference policies) is read by roce_fabric_audit as what each
// port does, nothing imported, and checked: the hosts, never configured, do not pause what the
// switches make lossless.
func TestAccFabricAuditForeignConfigs(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"sonic": 1, "eos": 1, "nxos": 1}, Hosts: map[string]int{"mlx5": 1}, NICPorts: 1})
	// eos-1 Ethernet8 <-> nxos-1 Ethernet1/8; nxos-1 Ethernet1/7 <-> sonic-1's last port; mlx5-1 eth0 <-> eos-1 Ethernet1.
	l.terminal(t, "eos-1").configure(
		"qos map dscp 26 to traffic-class 3",
		"qos profile GPU-LOSSLESS", "qos trust dscp", "priority-flow-control on", "priority-flow-control priority 3 no-drop",
		"tx-queue 3", "bandwidth percent 50", "no priority",
		"random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100", "exit", "exit",
		"interface Ethernet1", "service-profile GPU-LOSSLESS", "exit",
		"interface Ethernet8", "service-profile GPU-LOSSLESS",
	)
	l.terminal(t, "nxos-1").configure(
		"policy-map type network-qos QOS_NETWORK", "class type network-qos c-8q-nq3", "mtu 9216", "pause pfc-cos 3", "exit", "exit",
		"class-map type qos match-all RDMA", "match cos 3", "exit",
		"policy-map type qos AZLocal_SERVICES", "class RDMA", "set qos-group 3", "exit", "exit",
		"policy-map type queuing QOS_EGRESS_PORT", "class type queuing c-out-8q-q3", "bandwidth remaining percent 50",
		"random-detect minimum-threshold 300 kbytes maximum-threshold 300 kbytes drop-probability 100 weight 0 ecn", "exit", "exit",
		"system qos", "service-policy type queuing output QOS_EGRESS_PORT", "service-policy type network-qos QOS_NETWORK", "exit",
		"interface Ethernet1/8", "priority-flow-control mode on", "service-policy type qos input AZLocal_SERVICES",
	)
	cfg := l.providerHCL() + auditHCL + fmt.Sprintf(`
output "eos"   { value = %s }
output "nxos"  { value = %s }
output "sonic" { value = %s }
output "nic"   { value = one([for n in data.roce_fabric_audit.all.nics : n if n.device == "mlx5-1"]) }
output "eos_map_min" { value = min(values(%[1]s.dscp_to_traffic_class)...) }
output "ok"    { value = data.roce_fabric_audit.all.ok }
output "r10"   { value = [for f in data.roce_fabric_audit.all.findings : f.message if f.rule == "R10"] }
output "uplink_findings" {
  value = [for f in data.roce_fabric_audit.all.findings : "${f.rule}: ${f.message}" if strcontains(f.message, "Link eos-1 Ethernet8 <-> nxos-1 Ethernet1/8")]
}
`, auditPort("eos-1", "Ethernet1"), auditPort("nxos-1", "Ethernet1/8"), auditPort("sonic-1", "Ethernet0"))
	applyChecking(t, cfg,
		losslessPort("eos", "GPU-LOSSLESS", "dscp", []int64{3}, map[string]knownvalue.Check{"ecn_traffic_classes": int64sExact(3)}),
		dscpClass("eos", "26", 3),
		losslessPort("nxos", "AZLocal_SERVICES", "pcp", []int64{3}, map[string]knownvalue.Check{"ecn_traffic_classes": int64sExact(3)}),
		losslessPort("sonic", "AZURE", "dscp", []int64{3, 4}, nil),
		dscpClass("sonic", "26", 1),
		statecheck.ExpectKnownOutputValue("nic", knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"interface": knownvalue.StringExact("eth0"), "pfc_priorities": int64sExact(),
		})),
		statecheck.ExpectKnownOutputValue("ok", knownvalue.Bool(false)),
		// Every finding is one a network engineer would confirm on this lab: the never-configured
		// host (trust pcp, no PFC, DCQCN on by default) against the lossless switches (R1, R3,
		// R15, R17), the switches' DSCP 26 on TC 3 (EOS) against 1 (SONiC's AZURE, R10: one policy
		// each, a tie that the first switch in name order, eos-1, sets the reference of), CNP
		// DSCP 48 in no strict class (R4), no watchdogs (R11), the NX-OS port toward SONiC
		// without a policy (R12), the uplink's trust (R13), the reference's 300/300 KB step (R5).
		statecheck.ExpectKnownOutputValue("rules", knownvalue.StringExact("R1 error mlx5-1, R10 error sonic-1, R11 warning eos-1, "+
			"R11 warning nxos-1, R11 warning sonic-1, R12 error nxos-1, R13 error eos-1, R15 error eos-1, R17 error eos-1, "+
			"R3 error mlx5-1, R4 error eos-1, R4 error sonic-1, R5 warning nxos-1")),
		// The AZURE map bound to every SONiC port is one policy, named with its ports, stated once,
		// with the DSCPs that differ alike together.
		statecheck.ExpectKnownOutputValue("r10", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringRegexp(regexp.MustCompile(
			`^Policy AZURE on sonic-1 at ports Ethernet0, Ethernet4, Ethernet8, Ethernet12, \.\.\. \(8 ports\) maps DSCP 3 to traffic class 3, ` +
				`but eos-1 \(policy GPU-LOSSLESS\) to traffic class 1; .*DSCPs 24, 25, 26, 27, 28, 29, 30 and 31 to traffic class 1, ` +
				`but eos-1 \(policy GPU-LOSSLESS\) to traffic class 3\. `))})),
		// No DSCP of the EOS port lands in an unknown traffic class.
		statecheck.ExpectKnownOutputValue("eos_map_min", knownvalue.Int64Exact(0)),
		// The EOS port trusts DSCP, the NX-OS one CoS: the uplink between them (R13).
		statecheck.ExpectKnownOutputValue("uplink_findings", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringRegexp(regexp.MustCompile(
			`^R13: Link eos-1 Ethernet8 <-> nxos-1 Ethernet1/8: eos-1 Ethernet8 trusts dscp but nxos-1 Ethernet1/8 trusts pcp`))})),
	)
}

// The fabric-audit guide as users run it, on the guides' lab (a stock SONiC switch, a host
// never configured): the plan prints the cable's disagreements and the stock AZURE binding.
func TestAccGuideFabricAudit(t *testing.T) {
	l := guideLab(t)
	dir := t.TempDir()
	copyTF(t, guideExample(t, "fabric-audit"), dir)
	tf := initCLI(t, dir)
	out := tf.must("plan", "-input=false", "-no-color", "-var", "inventory="+filepath.Join(l.dir, lab.InventoryFile))
	for _, want := range []string{
		`"R13 mlx5-1: Link mlx5-1 eth0 <-> sonic-1 Ethernet0: mlx5-1 eth0 trusts pcp but sonic-1 Ethernet0 trusts dscp.`,
		`"R15 mlx5-1: Link mlx5-1 eth0 <-> sonic-1 Ethernet0: mlx5-1 eth0 is lossless on [] but sonic-1 Ethernet0 on [3, 4].`,
		`"sonic-1 Ethernet0: AZURE (trust dscp), lossless [3,4], PFC on, ECN on [3,4]"`,
		`ok     = false`,
		// The AZURE map is bound to all 8 ports: one finding about it, naming them; the fresh host's
		// CNP priority (np_cnp_prio_mode 1) is not in effect, which reads as such.
		`"R3 mlx5-1: NIC eth0 on mlx5-1 trusts pcp, but sonic-1 (policy AZURE) trusts dscp. Set trust`,
		`"R4 sonic-1: CNPs sent with DSCP 48 (no cnp_priority in effect) by eth0 on mlx5-1 and eth1 on mlx5-1 need a ` +
			`strict-priority, non-lossless class for DSCP 48 on sonic-1 (policy AZURE) at ports Ethernet0, Ethernet4, Ethernet8, ` +
			`Ethernet12, ... (8 ports), but class`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %s:\n%s", want, out)
		}
	}
	if n := strings.Count(out, `"R4 sonic-1:`); n != 1 {
		t.Errorf("the plan states R4 on sonic-1 %d times, want once:\n%s", n, out)
	}
	if strings.Contains(out, "priority -1") {
		t.Errorf("the plan shows a CNP priority of -1:\n%s", out)
	}
}
