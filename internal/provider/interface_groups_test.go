package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// expectMembers is a plan check: resource addr is updated in place, exactly the interfaces
// added join its interfaces and exactly removed leave, and its settings (every other
// attribute) change exactly when settings is true.
type expectMembers struct {
	addr           string
	added, removed []string
	settings       bool
}

func (e expectMembers) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	before, after, err := plannedUpdate(req, e.addr)
	if err != nil {
		resp.Error = err
		return
	}
	members := func(m map[string]any) []string {
		var out []string
		list, _ := m["interfaces"].([]any)
		for _, v := range list {
			out = append(out, fmt.Sprint(v))
		}
		return out
	}
	b, a := members(before), members(after)
	var added, removed []string
	for _, k := range a {
		if !slices.Contains(b, k) {
			added = append(added, k)
		}
	}
	for _, k := range b {
		if !slices.Contains(a, k) {
			removed = append(removed, k)
		}
	}
	slices.Sort(added)
	slices.Sort(removed)
	if !slices.Equal(added, e.added) || !slices.Equal(removed, e.removed) {
		resp.Error = fmt.Errorf("%s: the plan adds %v and removes %v, want %v and %v", e.addr, added, removed, e.added, e.removed)
		return
	}
	changed := false
	for k, v := range before {
		if k != "interfaces" && fmt.Sprint(v) != fmt.Sprint(after[k]) {
			changed = true
		}
	}
	if changed != e.settings {
		resp.Error = fmt.Errorf("%s: settings changed = %v, want %v\nbefore: %v\nafter:  %v", e.addr, changed, e.settings, before, after)
	}
}

func membersChange(addr string, added, removed []string, settings bool) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{expectMembers{addr, added, removed, settings}}}
}

// sonicPFCGroupHCL is one roce_pfc_interface_group of ports, each with sonicPFCHCL's settings
// and the watchdog detection time detection.
func sonicPFCGroupHCL(ports []string, detection int) string {
	return fmt.Sprintf(`
resource "roce_pfc_interface_group" "leaf" {
  device     = "sonic-1"
  interfaces = %s
  buffer     = { xoff_bytes = 122880, xon_bytes = 61440, cable_length_m = 5 }
  watchdog   = { action = "drop", detection_time_ms = %d, restoration_time_ms = 400 }
  depends_on = [roce_qos_policy.leaf]
}
`, hclList(ports), detection)
}

const pfcGroupRes = "roce_pfc_interface_group.leaf"

// The lifecycle of roce_pfc_interface_group on SONiC (testSONiCPFCLifecycle): a change of the
// settings writes every member; drift on one port shows as that port leaving the set and
// joining again, and the apply repairs it; a removed member is the group's removal of it.
func TestAccSONiCPFCInterfaceGroup(t *testing.T) {
	testSONiCPFCLifecycle(t, sonicPFCForm{
		res: pfcGroupRes, hcl: sonicPFCGroupHCL, one: "member", many: "members",
		holds:  func(detection, _ string) string { return detection },
		update: membersChange(pfcGroupRes, nil, nil, true), repair: membersChange(pfcGroupRes, []string{"Ethernet8"}, nil, false),
		removal: membersChange(pfcGroupRes, nil, []string{"Ethernet12"}, false),
	})
}

const nicGroupRes, dcqcnGroupRes = "roce_nic_qos_group.gpu", "roce_dcqcn_group.gpu"

// hostGroupsHCL is hostMapsHCL's NIC QoS and DCQCN as one group each of the netdevs ifs.
func hostGroupsHCL(ifs []string, pfc string) string {
	return fmt.Sprintf(`
resource "roce_nic_qos_group" "gpu" {
  device     = "mlx5-1"
  interfaces = %[1]s
%[2]s}

resource "roce_dcqcn_group" "gpu" {
  device             = "mlx5-1"
  interfaces         = %[1]s
  priorities         = [3]
  cnp_dscp           = 48
  cnp_priority       = 6
  reaction_point     = { ai_rate_mbps = 10, hai_rate_mbps = 100, clamp_target_rate = true }
  notification_point = { min_time_between_cnps_us = 4 }
}
`, hclList(ifs), nicSettingsHCL(pfc, ets5050))
}

// groupNICs are the lab host's netdevs the host group tests manage; pfcOn3 is mlnx_qos's PFC line
// with priority 3 enabled.
var groupNICs = []string{"eth0", "eth1"}

const pfcOn3 = "\tenabled     0   0   0   1   0   0   0   0   "

// hostGroupsLab is a lab with one mlx5 host, a shell on it, its reading of a netdev and what
// groupNICs netdevs read before the test.
func hostGroupsLab(t *testing.T) (*accLab, *hostShell, func(string) string, map[string]string) {
	l := hostLab(t)
	sh := l.shell(t, "mlx5-1")
	host := hostReading(sh)
	return l, sh, host, map[string]string{"eth0": host("eth0"), "eth1": host("eth1")}
}

// The lifecycle of roce_nic_qos_group and roce_dcqcn_group on an mlx5 host: the tool is the
// host's; an operator's change on one NIC shows as that NIC leaving the group and joining
// again; a NIC removed from groupNICs groups is given back as it was; import; destroy restores.
func TestAccHostInterfaceGroups(t *testing.T) {
	l, sh, host, before := hostGroupsLab(t)
	v1 := l.providerHCL() + hostGroupsHCL(groupNICs, "3")
	v2 := l.providerHCL() + hostGroupsHCL([]string{"eth0"}, "3")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy:             hostRestored(host, before, groupNICs...),
		Steps: []resource.TestStep{
			{Config: v1, Check: resource.ComposeTestCheckFunc(hostApplied(host, pfcOn3, groupNICs...),
				resource.TestCheckResourceAttr(nicGroupRes, "tool", "mlnx_qos"), // the host has MLNX_OFED's tools
				resource.TestCheckResourceAttr(nicGroupRes, "id", "mlx5-1"))},
			{ // an operator turns PFC off on eth1: eth1 leaves the NIC QoS group, and joins again
				PreConfig:        func() { sh.run("sudo -n mlnx_qos -i eth1 --pfc 0,0,0,0,0,0,0,0 > /dev/null") },
				Config:           v1,
				ConfigPlanChecks: membersChange(nicGroupRes, []string{"eth1"}, nil, false),
				Check:            hostApplied(host, pfcOn3, groupNICs...),
			},
			{Config: v2, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				expectMembers{nicGroupRes, nil, []string{"eth1"}, false}, expectMembers{dcqcnGroupRes, nil, []string{"eth1"}, false}}},
				Check: resource.ComposeTestCheckFunc(hostRestored(host, before, "eth1"), hostApplied(host, pfcOn3, "eth0"))},
			{ResourceName: nicGroupRes, ImportState: true, ImportStateId: "mlx5-1/eth0", ImportStateVerify: true},
			{ResourceName: dcqcnGroupRes, ImportState: true, ImportStateId: "mlx5-1/eth0", ImportStateVerify: true,
				ImportStateVerifyIgnore: unmanagedRP},
		},
	})
}

// A member that drifts and leaves the configuration in the same change is still given back
// as it was: its prior stays in private state until an apply or destroy restores it. And an
// import of NICs whose settings differ keeps the first NIC's settings and leaves the others
// out, so the plan shows them joining.
func TestAccHostInterfaceGroupDriftAndImport(t *testing.T) {
	l, sh, host, before := hostGroupsLab(t)
	v1 := l.providerHCL() + hostGroupsHCL(groupNICs, "3")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy:             hostRestored(host, before, groupNICs...),
		Steps: []resource.TestStep{
			{Config: v1, Check: hostApplied(host, pfcOn3, groupNICs...)},
			{ // eth1 drifts and leaves groupNICs groups in one change: the DCQCN group's update
				// gives it back; the NIC QoS group has no change of its own to plan (the
				// refresh already dropped eth1) and gives it back at destroy
				PreConfig: func() { sh.run("sudo -n mlnx_qos -i eth1 --pfc 0,0,0,0,0,0,0,0 > /dev/null") },
				Config:    l.providerHCL() + hostGroupsHCL([]string{"eth0"}, "3"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(nicGroupRes, plancheck.ResourceActionNoop),
					expectMembers{dcqcnGroupRes, nil, []string{"eth1"}, false}}},
				Check: hostApplied(host, pfcOn3, "eth0"),
			},
			{Config: l.providerHCL(), Check: hostRestored(host, before, groupNICs...)},
			{ // eth1 without PFC, eth0 with it: the import takes eth0's and leaves eth1 out
				PreConfig: func() {
					sh.run("sudo -n mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0 > /dev/null; sudo -n mlnx_qos -i eth1 --pfc 0,0,0,0,0,0,0,0 > /dev/null")
				},
				Config: l.providerHCL() + `
resource "roce_nic_qos_group" "gpu" {
  device     = "mlx5-1"
  interfaces = ["eth0", "eth1"]
  pfc_priorities = [3]
}
`, ResourceName: nicGroupRes, ImportState: true, ImportStateId: "mlx5-1/eth0,eth1",
				// eth0 alone, with PFC on priority 3
				ImportStateCheck: importedAttrs(map[string]string{"interfaces.#": "1", "interfaces.0": "eth0", "pfc_priorities.#": "1", "pfc_priorities.0": "3"})},
		},
	})
}

// eosPFCGroupHCL is roce_pfc_interface_group of Ethernet1-3, watchdog timeout detection.
func eosPFCGroupHCL(detection int) string {
	return fmt.Sprintf(`
resource "roce_pfc_interface_group" "leaf" {
  device     = "eos-1"
  interfaces = ["Ethernet1", "Ethernet2", "Ethernet3"]
  watchdog   = { action = "drop", detection_time_ms = %d, restoration_time_ms = 400 }
  depends_on = [roce_qos_policy.leaf]
}
`, detection)
}

// roce_pfc_interface_group on EOS; the switch refuses the members' new watchdog line: each
// refusal is reported, the running-config and the state are as before the apply.
func TestAccEOSPFCInterfaceGroupRefusal(t *testing.T) {
	testEOSRefusal(t, eosRefusal{res: pfcGroupRes, pfc1: eosPFCGroupHCL(200), pfc2: eosPFCGroupHCL(300),
		wantErr: `(?s)Cannot update PFC settings of "Ethernet1" on device "eos-1".*Invalid input.*were\s+restored`,
		plan:    membersChange(pfcGroupRes, nil, nil, true),
		lines: [][3]string{
			{"watchdog Ethernet1", "interface Ethernet1", "timeout 0.30 polling-interval auto recovery-time 0.40"},
			{"watchdog Ethernet3", "interface Ethernet3", "timeout 0.30 polling-interval auto recovery-time 0.40"},
		}})
}

// A group's settings are checked as the per-interface resource's are, on the group's own
// attributes; an interface in a group and in another resource of the same settings is
// refused; names are checked; an unknown device in an import ID is named.
func TestAccSONiCPFCInterfaceGroupPlanErrors(t *testing.T) {
	l := switchLab(t, "sonic")
	policy := sonicPolicyHCL(153600, `"Ethernet0", "Ethernet4"`)
	group := func(body string) string {
		return policy + `
resource "roce_pfc_interface_group" "leaf" {
  device     = "sonic-1"
` + body + "}\n"
	}
	l.expectPlanErrors(t, []planError{
		{name: "link_pause with PFC", config: group(`  interfaces = ["Ethernet0", "Ethernet4"]
  link_pause = true
`), want: `(?s)link_pause enabled together with PFC.*802.3x\s+link-level\s+pause`},
		{name: "mode off not supported on sonic", config: group(`  interfaces = ["Ethernet0"]
  mode       = "off"
`), want: `(?s)Not supported on platform sonic.*sonic-1`},
		{name: "no interfaces", config: group(`  interfaces = []
`), want: `(?s)interfaces.*set must contain at least 1 elements`},
		{name: "a port in a group and a per-interface resource", config: group(`  interfaces = ["Ethernet0", "Ethernet4"]
`) + sonicPFCHCL("Ethernet4", 200), want: `(?s)Interface managed by two resources.*"Ethernet4" on device "sonic-1"`},
		{name: "a port in a group and a map resource", config: group(`  interfaces = ["Ethernet0"]
`) + sonicPFCMapHCL([]string{"Ethernet0"}, 200), want: `(?s)Interface managed by two resources.*"Ethernet0" on device "sonic-1"`},
		{name: "unknown device", config: policy + `
resource "roce_pfc_interface_group" "leaf" {
  device     = "leaf-9"
  interfaces = ["Ethernet0"]
}`, want: `(?s)Unknown device.*leaf-9`},
	}, nil)
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: protoV6Factories, Steps: []resource.TestStep{
		{Config: l.providerHCL() + policy, Check: func(*terraform.State) error { return nil }},
		{Config: l.providerHCL() + group(`  interfaces = ["Ethernet0"]
`), ResourceName: pfcGroupRes, ImportState: true,
			ImportStateId: "leaf-9/Ethernet0,Ethernet4", ExpectError: regexp.MustCompile(`(?s)Unknown device in the import ID.*leaf-9`)},
	}})
}
