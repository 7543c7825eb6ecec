package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// expectEntries is a plan check: resource addr is updated in place, and exactly the entries
// keys of its interfaces map change (added, removed or changed), no other.
type expectEntries struct {
	addr string
	keys []string
}

// plannedUpdate is resource addr's change in the plan, which must be an in-place update: the
// values before and after it.
func plannedUpdate(req plancheck.CheckPlanRequest, addr string) (before, after map[string]any, err error) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != addr {
			continue
		}
		if !rc.Change.Actions.Update() {
			return nil, nil, fmt.Errorf("%s: planned %v, want an in-place update", addr, rc.Change.Actions)
		}
		before, _ = rc.Change.Before.(map[string]any)
		after, _ = rc.Change.After.(map[string]any)
		return before, after, nil
	}
	return nil, nil, fmt.Errorf("%s is not in the plan", addr)
}

func (e expectEntries) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	b, a, err := plannedUpdate(req, e.addr)
	if err != nil {
		resp.Error = err
		return
	}
	before, _ := b["interfaces"].(map[string]any)
	after, _ := a["interfaces"].(map[string]any)
	var changed []string
	for k := range before {
		if _, ok := after[k]; !ok || fmt.Sprint(before[k]) != fmt.Sprint(after[k]) {
			changed = append(changed, k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			changed = append(changed, k)
		}
	}
	slices.Sort(changed)
	if !slices.Equal(changed, e.keys) {
		resp.Error = fmt.Errorf("%s: the plan changes entries %v, want exactly %v", e.addr, changed, e.keys)
	}
}

func entriesChange(addr string, keys ...string) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{expectEntries{addr, keys}}}
}

// sonicPFCMapHCL is one roce_pfc_interfaces of ports, each as sonicPFCHCL's port, with
// Ethernet4's watchdog detection time detection4.
func sonicPFCMapHCL(ports []string, detection4 int) string {
	var b strings.Builder
	for _, p := range ports {
		d := 200
		if p == "Ethernet4" {
			d = detection4
		}
		fmt.Fprintf(&b, `    %s = {
      buffer   = { xoff_bytes = 122880, xon_bytes = 61440, cable_length_m = 5 }
      watchdog = { action = "drop", detection_time_ms = %d, restoration_time_ms = 400 }
    }
`, p, d)
	}
	return fmt.Sprintf(`
resource "roce_pfc_interfaces" "leaf" {
  device     = "sonic-1"
  interfaces = {
%s  }
  depends_on = [roce_qos_policy.leaf]
}
`, b.String())
}

// sonicPFCForm is what tells roce_pfc_interfaces (a map: each port its own settings) and
// roce_pfc_interface_group (one set of settings for every member) apart in the lifecycle they
// go through alike on SONiC (testSONiCPFCLifecycle).
type sonicPFCForm struct {
	res   string                                     // the resource's address
	hcl   func(ports []string, detection int) string // the resource on ports, its watchdog set to detection ms (v1 200, v2 300)
	holds func(detection, port string) string        // the detection time port has once the resource asks for detection
	// what the resource's parts are called (sonicFewerSets)
	one, many string
	// the plans of v2's change, of the repair of an operator's change on Ethernet8 and of
	// Ethernet12's removal
	update, repair, removal resource.ConfigPlanChecks
}

// testSONiCPFCLifecycle runs the lifecycle of form on SONiC: four ports in one resource, created
// in fewer SetRequests than ports; a change of the settings (v2); drift on one port, planned as
// form says, which the apply repairs; a removed port given back as it was under the policy
// alone; import naming the ports; destroy restoring every port.
func testSONiCPFCLifecycle(t *testing.T, form sonicPFCForm) {
	l := sonicWritesLab(t)
	sw := l.SONiC("sonic-1")
	yang := sonicYANG(t, sw)
	before := sw.DB()
	all := []string{"Ethernet0", "Ethernet12", "Ethernet4", "Ethernet8"}
	three := []string{"Ethernet0", "Ethernet4", "Ethernet8"}
	policy := l.providerHCL() + sonicPolicyHCL(153600, `"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12"`)
	v2 := policy + form.hcl(all, 300)
	// every port of ps as the resource asking for detection time d leaves it
	ports := func(d string, ps ...string) func(*terraform.State) error {
		return sonicPortsHold(sw, yang, func(p string) string { return form.holds(d, p) }, ps...)
	}
	var policyOnly map[string]map[string]map[string]string
	var setsBefore int64 // SetRequests sonic-1 had served before the create
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy:             sonicPortsRestored(sw, yang, &before, all...),
		Steps: []resource.TestStep{
			{Config: policy, Check: sonicBaseline(l, sw, &policyOnly, &setsBefore)},
			{Config: policy + form.hcl(all, 200), Check: resource.ComposeTestCheckFunc(ports("200", all...), sonicFewerSets(t, l, &setsBefore, len(all), form.one, form.many))},
			{Config: v2, ConfigPlanChecks: form.update, Check: ports("300", all...)},
			{ // an operator's change on one port, through an independent gNMI client
				PreConfig: func() {
					l.oob(t, "sonic-1").setSONiC("/CONFIG_DB/localhost/PFC_WD/Ethernet8/detection_time", `"800"`)
				},
				Config:           v2,
				ConfigPlanChecks: form.repair,
				Check:            ports("300", all...),
			},
			{Config: policy + form.hcl(three, 300), ConfigPlanChecks: form.removal, Check: func(s *terraform.State) error {
				if err := sonicPortsRestored(sw, yang, &policyOnly, "Ethernet12")(s); err != nil {
					return err
				}
				return ports("300", three...)(s)
			}},
			{ResourceName: form.res, ImportState: true, ImportStateId: "sonic-1/Ethernet0,Ethernet4,Ethernet8", ImportStateVerify: true},
		},
	})
}

// The lifecycle of roce_pfc_interfaces on SONiC (testSONiCPFCLifecycle): v2 changes Ethernet4's
// entry alone (sonicPFCMapHCL), drift on one port is that entry's update, a removed entry is
// that entry's removal.
func TestAccSONiCPFCInterfaces(t *testing.T) {
	const res = "roce_pfc_interfaces.leaf"
	testSONiCPFCLifecycle(t, sonicPFCForm{
		res: res, hcl: sonicPFCMapHCL, one: "entry", many: "entries",
		holds: func(detection, port string) string {
			if port == "Ethernet4" {
				return detection
			}
			return "200"
		},
		update: entriesChange(res, "Ethernet4"), repair: entriesChange(res, "Ethernet8"), removal: entriesChange(res, "Ethernet12"),
	})
}

// Each entry is checked as the per-interface resource is, the mistake reported on its entry;
// an interface in both a map resource and a per-interface resource is refused; an unknown
// device in an import ID is named as for the per-interface resource.
func TestAccSONiCPFCInterfacesPlanErrors(t *testing.T) {
	l := switchLab(t, "sonic")
	policy := sonicPolicyHCL(153600, `"Ethernet0", "Ethernet4"`)
	l.expectPlanErrors(t, []planError{
		{name: "link_pause with PFC on one entry", config: policy + `
resource "roce_pfc_interfaces" "leaf" {
  device     = "sonic-1"
  interfaces = {
    Ethernet0 = {}
    Ethernet4 = { link_pause = true }
  }
}`, want: `(?s)link_pause enabled together with PFC.*Interface\s+"Ethernet4":\s+802.3x\s+link-level\s+pause`},
		{name: "mode off not supported on sonic", config: policy + `
resource "roce_pfc_interfaces" "leaf" {
  device     = "sonic-1"
  interfaces = { Ethernet0 = { mode = "off" } }
}`, want: `(?s)Not supported on platform sonic.*sonic-1`},
		{name: "a port in two resources", config: policy + sonicPFCMapHCL([]string{"Ethernet0", "Ethernet4"}, 200) + sonicPFCHCL("Ethernet4", 200),
			want: `(?s)Interface managed by two resources.*"Ethernet4" on device "sonic-1"`},
	}, nil)
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: protoV6Factories, Steps: []resource.TestStep{
		{Config: l.providerHCL() + policy, Check: func(*terraform.State) error { return nil }},
		{Config: l.providerHCL() + policy + sonicPFCMapHCL([]string{"Ethernet0"}, 200), ResourceName: "roce_pfc_interfaces.leaf", ImportState: true,
			ImportStateId: "leaf-9/Ethernet0,Ethernet4", ExpectError: regexp.MustCompile(`(?s)Unknown device in the import ID.*leaf-9`)},
	}})
}

// sonicPortsHold checks that CONFIG_DB is valid and that each port of ps has the PFC watchdog
// detection time detection(port) and a 5 m cable.
func sonicPortsHold(sw *lab.SONiCSwitch, yang func(*terraform.State) error, detection func(port string) string,
	ps ...string) func(*terraform.State) error {
	return func(s *terraform.State) error {
		if err := yang(s); err != nil {
			return err
		}
		db := sw.DB()
		for _, p := range ps {
			if got, d := db["PFC_WD"][p]["detection_time"], detection(p); got != d {
				return fmt.Errorf("PFC_WD|%s detection_time = %q, want %q", p, got, d)
			}
			if got := db["CABLE_LENGTH"]["AZURE"][p]; got != "5m" {
				return fmt.Errorf("cable length of %s = %q, want 5m", p, got)
			}
		}
		return nil
	}
}

// sonicWritesLab is switchLab(t, "sonic") whose switch answers each request after 100 ms, as a
// switch across a network does: the entries an apply sends together are then still queued while
// the first SetRequest is in flight, so sonicFewerSets sees them coalesced. On a lab answering
// at once the first Set could finish before the others were queued (it did, once, under
// OpenTofu).
func sonicWritesLab(t *testing.T) *accLab {
	return startLab(t, lab.Options{Switches: map[string]int{"sonic": 1}, Latency: 100 * time.Millisecond})
}

// sonicBaseline is a check that records what the switch holds (into db) and the SetRequests
// it has served (into sets) before a later step's writes.
func sonicBaseline(l *accLab, sw *lab.SONiCSwitch, db *map[string]map[string]map[string]string, sets *int64) func(*terraform.State) error {
	return func(*terraform.State) error {
		*db = sw.DB()
		c, _ := l.DeviceCounters(sw.Name())
		*sets = c.Writes
		return nil
	}
}

// sonicFewerSets checks that the create of n entries (members) took fewer SetRequests of
// sonic-1 than n since *before: they go to the driver together, which coalesces them
// (devices.Write), where one at a time took one each.
func sonicFewerSets(t *testing.T, l *accLab, before *int64, n int, one, many string) func(*terraform.State) error {
	return func(*terraform.State) error {
		c, _ := l.DeviceCounters("sonic-1")
		t.Logf("create of %d %s: %d SetRequests", n, many, c.Writes-*before)
		if got := c.Writes - *before; got >= int64(n) {
			return fmt.Errorf("create of %d %s took %d SetRequests, want fewer than one per %s", n, many, got, one)
		}
		return nil
	}
}

// sonicPortsRestored compares ports ps with what the switch had at *before: the stock switch
// after destroy, the switch with the policy alone for a port given back while the policy
// stays.
func sonicPortsRestored(sw *lab.SONiCSwitch, yang func(*terraform.State) error, before *map[string]map[string]map[string]string,
	ps ...string) func(*terraform.State) error {
	return func(s *terraform.State) error {
		if err := yang(s); err != nil {
			return err
		}
		before := *before
		after := sw.DB()
		for _, p := range ps {
			for _, tk := range [][2]string{{"PFC_WD", p}, {"BUFFER_PG", p + "|3"}, {"BUFFER_PG", p + "|3-4"}} {
				if fmt.Sprint(after[tk[0]][tk[1]]) != fmt.Sprint(before[tk[0]][tk[1]]) {
					return fmt.Errorf("%s|%s not restored: %v, want %v", tk[0], tk[1], after[tk[0]][tk[1]], before[tk[0]][tk[1]])
				}
			}
			if after["CABLE_LENGTH"]["AZURE"][p] != before["CABLE_LENGTH"]["AZURE"][p] {
				return fmt.Errorf("cable length of %s not restored: %q, want %q", p, after["CABLE_LENGTH"]["AZURE"][p], before["CABLE_LENGTH"]["AZURE"][p])
			}
		}
		return nil
	}
}

const nicMapRes, dcqcnMapRes = "roce_nic_qos_interfaces.gpu", "roce_dcqcn_interfaces.gpu"

// hostMapsHCL is the NIC QoS and DCQCN of eth0 and eth1 (ifs), the PFC priorities pfc.
func hostMapsHCL(ifs []string, pfc string) string {
	var nic, dc strings.Builder
	for _, i := range ifs {
		settings := strings.ReplaceAll(strings.TrimSuffix(nicSettingsHCL(pfc, ets5050), "\n"), "\n", "\n    ")
		fmt.Fprintf(&nic, "    %s = {\n    %s\n    }\n", i, settings)
		fmt.Fprintf(&dc, `    %s = {
      priorities         = [3]
      cnp_dscp           = 48
      cnp_priority       = 6
      reaction_point     = { ai_rate_mbps = 10, hai_rate_mbps = 100, clamp_target_rate = true }
      notification_point = { min_time_between_cnps_us = 4 }
    }
`, i)
	}
	return fmt.Sprintf(`
resource "roce_nic_qos_interfaces" "gpu" {
  device     = "mlx5-1"
  interfaces = {
%s  }
}

resource "roce_dcqcn_interfaces" "gpu" {
  device     = "mlx5-1"
  interfaces = {
%s  }
}
`, nic.String(), dc.String())
}

// hostReading is what a host's netdev holds of the tests' NIC QoS and DCQCN (hostMapsHCL):
// mlnx_qos's report and the ECN enables, through a shell on the host.
func hostReading(sh *hostShell) func(netdev string) string {
	return func(i string) string {
		return sh.run("mlnx_qos -i " + i + " -a; sudo -n sh -c 'grep -H . /sys/class/net/" + i + "/ecn/roce_rp/enable/* /sys/class/net/" + i + "/ecn/roce_np/enable/*'")
	}
}

// hostRestored checks that netdevs ifs read as they did before (by netdev).
func hostRestored(host func(string) string, before map[string]string, ifs ...string) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, i := range ifs {
			if after := host(i); after != before[i] {
				return fmt.Errorf("%s not restored:\nbefore:\n%s\nafter:\n%s", i, before[i], after)
			}
		}
		return nil
	}
}

// hostApplied checks that netdevs ifs hold the tests' settings, PFC as pfcLine.
func hostApplied(host func(string) string, pfcLine string, ifs ...string) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, i := range ifs {
			out := host(i)
			for _, want := range []string{pfcLine, "prio:3 dscp:26,", "tsa: strict", "/ecn/roce_np/enable/3:1", "/ecn/roce_rp/enable/3:1"} {
				if !strings.Contains(out, want) {
					return fmt.Errorf("%s lacks %q:\n%s", i, want, out)
				}
			}
		}
		return nil
	}
}

// The lifecycle of roce_nic_qos_interfaces and roce_dcqcn_interfaces on an mlx5 host.
func TestAccHostInterfaceMaps(t *testing.T) {
	l := hostLab(t)
	sh := l.shell(t, "mlx5-1")
	host := hostReading(sh)
	before := map[string]string{"eth0": host("eth0"), "eth1": host("eth1")}
	restored := func(ifs ...string) func(*terraform.State) error { return hostRestored(host, before, ifs...) }
	applied := func(pfcLine string, ifs ...string) func(*terraform.State) error {
		return hostApplied(host, pfcLine, ifs...)
	}
	pfc3 := "\tenabled     0   0   0   1   0   0   0   0   "
	both := []string{"eth0", "eth1"}
	v1 := l.providerHCL() + hostMapsHCL(both, "3")
	v2 := l.providerHCL() + hostMapsHCL([]string{"eth0"}, "3")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy:             restored(both...),
		Steps: []resource.TestStep{
			{Config: v1, Check: func(s *terraform.State) error {
				if err := applied(pfc3, both...)(s); err != nil {
					return err
				}
				if got := s.RootModule().Resources[nicMapRes].Primary.Attributes["interfaces.eth1.tool"]; got != "mlnx_qos" {
					return fmt.Errorf("tool of eth1 = %q, want mlnx_qos (the host has MLNX_OFED's tools)", got)
				}
				return nil
			}},
			{ // an operator turns PFC off on eth1: that entry's update, which apply repairs
				PreConfig:        func() { sh.run("sudo -n mlnx_qos -i eth1 --pfc 0,0,0,0,0,0,0,0 > /dev/null") },
				Config:           v1,
				ConfigPlanChecks: entriesChange(nicMapRes, "eth1"),
				Check:            applied(pfc3, both...),
			},
			{Config: v2, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				expectEntries{nicMapRes, []string{"eth1"}}, expectEntries{dcqcnMapRes, []string{"eth1"}}}},
				Check: func(s *terraform.State) error {
					if err := restored("eth1")(s); err != nil {
						return err
					}
					return applied(pfc3, "eth0")(s)
				}},
			{ResourceName: nicMapRes, ImportState: true, ImportStateId: "mlx5-1/eth0", ImportStateVerify: true},
			{ResourceName: dcqcnMapRes, ImportState: true, ImportStateId: "mlx5-1/eth0", ImportStateVerify: true,
				ImportStateVerifyIgnore: func() []string {
					var out []string
					for _, p := range unmanagedRP {
						out = append(out, "interfaces.eth0."+p)
					}
					return out
				}()},
		},
	})
}

// eosPFCMapHCL is roce_pfc_interfaces of Ethernet1-3, Ethernet3's watchdog timeout detection3.
func eosPFCMapHCL(detection, detection3 int) string {
	return fmt.Sprintf(`
resource "roce_pfc_interfaces" "leaf" {
  device     = "eos-1"
  interfaces = {
    Ethernet1 = { watchdog = { action = "drop", detection_time_ms = %[1]d, restoration_time_ms = 400 } }
    Ethernet2 = { watchdog = { action = "drop", detection_time_ms = %[1]d, restoration_time_ms = 400 } }
    Ethernet3 = { watchdog = { action = "drop", detection_time_ms = %[2]d, restoration_time_ms = 400 } }
  }
  depends_on = [roce_qos_policy.leaf]
}
`, detection, detection3)
}

// eosRefusal is a refused update of a resource (res) of Ethernet1-3 on EOS: pfc1 and pfc2
// are its configurations before and after, the switch refuses the new watchdog timeout 0.30,
// wantErr is the error, and the update applied once the switch takes it again must plan
// plan and leave lines.
type eosRefusal struct {
	res, pfc1, pfc2 string
	wantErr         string
	plan            resource.ConfigPlanChecks
	lines           [][3]string
}

// testEOSRefusal: the writes made before the refusal are restored, the running-config and
// the state are as before the apply; the update then applies; import reads the ports back.
func testEOSRefusal(t *testing.T, c eosRefusal) {
	l := switchLab(t, "eos")
	sw := l.EOS("eos-1")
	before := sw.RunningConfig()
	policy := eosPolicyHCL(153600, `"Ethernet1", "Ethernet2", "Ethernet3"`)
	v1 := l.providerHCL() + policy + c.pfc1
	v2 := l.providerHCL() + policy + c.pfc2
	want := cliLine(sw.RunningConfig, section)
	var applied string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy:             cliRestored(before, sw.RunningConfig, "configuration sessions", sessionNames(sw)),
		Steps: []resource.TestStep{
			{Config: v1, Check: func(s *terraform.State) error {
				applied = sw.RunningConfig()
				return cliLines(want, [][3]string{
					{"PFC on Ethernet1", "interface Ethernet1", "priority-flow-control on"},
					{"watchdog Ethernet3", "interface Ethernet3", "priority-flow-control pause watchdog port timer timeout 0.20 polling-interval auto recovery-time 0.40"},
				})(s)
			}},
			{
				PreConfig:   func() { sw.RejectLines("timeout 0.30", "Invalid input") },
				Config:      v2,
				ExpectError: regexp.MustCompile(c.wantErr),
			},
			{
				PreConfig: func() {
					if got := sw.RunningConfig(); got != applied {
						t.Fatalf("a refused update changed the running-config:\n%s", got)
					}
					sw.RejectLines("", "")
				},
				Config: v1, PlanOnly: true, // the state still holds v1, which the switch has
			},
			{Config: v2, ConfigPlanChecks: c.plan, Check: cliLines(want, c.lines)},
			{ResourceName: c.res, ImportState: true, ImportStateId: "eos-1/Ethernet1,Ethernet2,Ethernet3", ImportStateVerify: true},
		},
	})
}

// roce_pfc_interfaces on EOS; the switch refuses one entry of an update: Ethernet1 and
// Ethernet2 are written before Ethernet3, whose line the switch refuses, and restored.
func TestAccEOSPFCInterfacesRefusal(t *testing.T) {
	testEOSRefusal(t, eosRefusal{res: "roce_pfc_interfaces.leaf", pfc1: eosPFCMapHCL(200, 200), pfc2: eosPFCMapHCL(250, 300),
		wantErr: `(?s)Cannot update PFC settings of "Ethernet3" on device "eos-1".*Invalid input.*were\s+restored`,
		plan:    entriesChange("roce_pfc_interfaces.leaf", "Ethernet1", "Ethernet2", "Ethernet3"),
		lines: [][3]string{
			{"watchdog Ethernet3", "interface Ethernet3", "timeout 0.30 polling-interval auto recovery-time 0.40"},
			{"watchdog Ethernet1", "interface Ethernet1", "timeout 0.25 polling-interval auto recovery-time 0.40"},
		}})
}
