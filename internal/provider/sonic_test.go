package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/sonicyang"
)

// sonicLabModel is a lab of one sonic switch of the given SKU.
func sonicLabModel(t *testing.T, model string) *accLab {
	return startLab(t, lab.Options{Switches: map[string]int{"sonic": 1}, Models: map[string]string{"sonic": model}})
}

// eachSONiCModel runs test against a switch of every SKU the lab simulates: a Mellanox one
// (dynamic buffer model) and a Broadcom one (traditional model, buffermgrd's lookup table).
func eachSONiCModel(t *testing.T, test func(t *testing.T, model string, traditional bool)) {
	for _, model := range lab.SONiCModels() {
		t.Run(model, func(t *testing.T) { test(t, model, model == "Arista-7060CX-32S-C32") })
	}
}

// eachSONiCSwitch runs test, for every SKU (eachSONiCModel), against a lab of one sonic switch
// of that SKU: the lab, the switch and its YANG check (sonicYANG).
func eachSONiCSwitch(t *testing.T, test func(t *testing.T, l *accLab, sw *lab.SONiCSwitch, yang func(*terraform.State) error, traditional bool)) {
	eachSONiCModel(t, func(t *testing.T, model string, traditional bool) {
		l := sonicLabModel(t, model)
		sw := l.SONiC("sonic-1")
		test(t, l, sw, sonicYANG(t, sw), traditional)
	})
}

// sonicYANG returns a check that the switch's CONFIG_DB passes SONiC's own YANG models under
// yanglint (internal/lab/sonicyang): the judge of every SONiC scenario, stock, applied and after
// destroy, independent of the lab's own validation. Without the models or yanglint it skips,
// saying which; CI sets ROCE_REQUIRE_YANGLINT=1 and has both.
func sonicYANG(t *testing.T, sw *lab.SONiCSwitch) func(*terraform.State) error {
	t.Helper()
	m := sonicyang.ForTest(t)
	if err := m.Check(context.Background(), sw.DB()); err != nil {
		t.Fatalf("the stock CONFIG_DB: %v", err)
	}
	return func(*terraform.State) error { return m.Check(context.Background(), sw.DB()) }
}

// sonicPolicyHCL is the contract's example with the roce class lossless, on SONiC ports.
func sonicPolicyHCL(ecnMin int, ports string) string { return leafPolicyHCL("sonic-1", ecnMin, ports) }

func sonicPFCHCL(port string, detection int) string {
	return sonicPFCBufferHCL(port, detection, "xoff_bytes = 122880, xon_bytes = 61440, cable_length_m = 5")
}

// sonicPFCBufferHCL is the PFC interface with the given buffer fields.
func sonicPFCBufferHCL(port string, detection int, buffer string) string {
	return fmt.Sprintf(`
resource "roce_pfc_interface" "e0" {
  device     = "sonic-1"
  interface  = %q
  buffer     = { %s }
  watchdog   = { action = "drop", detection_time_ms = %d, restoration_time_ms = 400 }
  depends_on = [roce_qos_policy.leaf]
}
`, port, buffer, detection)
}

// sonicModelPFCHCL is what a PFC interface can keep on the model: an explicit headroom on the
// dynamic buffer model, the cable length (buffermgrd's lookup profile) on the traditional one.
func sonicModelPFCHCL(traditional bool, port string, detection int) string {
	if traditional {
		return sonicPFCBufferHCL(port, detection, "cable_length_m = 40")
	}
	return sonicPFCHCL(port, detection)
}

func TestAccSONiCPolicyAndPFC(t *testing.T) { eachSONiCSwitch(t, testSONiCPolicyAndPFC) }

func testSONiCPolicyAndPFC(t *testing.T, l *accLab, sw *lab.SONiCSwitch, yang func(*terraform.State) error, traditional bool) {
	before := sw.DB()
	v1 := l.providerHCL() + sonicPolicyHCL(153600, `"Ethernet0", "Ethernet4"`) + sonicModelPFCHCL(traditional, "Ethernet0", 200)
	v2 := l.providerHCL() + sonicPolicyHCL(204800, `"Ethernet0", "Ethernet4"`) + sonicModelPFCHCL(traditional, "Ethernet0", 400)
	field := func(table, key, f string) string { return sw.DB()[table][key][f] }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			if err := yang(nil); err != nil {
				return err
			}
			after := sw.DB()
			for _, tk := range [][2]string{{"PORT_QOS_MAP", "Ethernet0"}, {"PORT_QOS_MAP", "Ethernet4"}, {"QUEUE", "Ethernet0|3"}, {"CABLE_LENGTH", "AZURE"}, {"BUFFER_PG", "Ethernet0|3-4"}} {
				if fmt.Sprint(after[tk[0]][tk[1]]) != fmt.Sprint(before[tk[0]][tk[1]]) {
					return fmt.Errorf("%s|%s not restored: %v, want %v", tk[0], tk[1], after[tk[0]][tk[1]], before[tk[0]][tk[1]])
				}
			}
			for _, table := range []string{"DSCP_TO_TC_MAP", "SCHEDULER", "WRED_PROFILE", "BUFFER_PROFILE", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"} {
				for key := range after[table] {
					if len(key) >= 4 && (key[:4] == "ROCE" || key[:5] == "roce-") {
						return fmt.Errorf("destroy left %s|%s", table, key)
					}
				}
			}
			if _, ok := after["PFC_WD"]["Ethernet0"]; ok {
				if fmt.Sprint(after["PFC_WD"]["Ethernet0"]) != fmt.Sprint(before["PFC_WD"]["Ethernet0"]) {
					return fmt.Errorf("PFC_WD|Ethernet0 not restored: %v", after["PFC_WD"]["Ethernet0"])
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: v1,
				Check: func(*terraform.State) error {
					if err := yang(nil); err != nil {
						return err
					}
					checks := map[string][2]string{
						"DSCP 26 -> TC 3 (the stock map sends it to 1)": {field("DSCP_TO_TC_MAP", "ROCE", "26"), "3"},
						"pfc_enable on Ethernet0":                       {field("PORT_QOS_MAP", "Ethernet0", "pfc_enable"), "3"},
						"Ethernet0 map":                                 {field("PORT_QOS_MAP", "Ethernet0", "dscp_to_tc_map"), "ROCE"},
						"ECN min":                                       {field("WRED_PROFILE", "ROCE-roce", "green_min_threshold"), "153600"},
						"CNP strict":                                    {field("SCHEDULER", "ROCE-cnp", "type"), "STRICT"},
						"watchdog detection":                            {field("PFC_WD", "Ethernet0", "detection_time"), "200"},
						"cable length":                                  {field("CABLE_LENGTH", "AZURE", "Ethernet0"), "5m"},
						"headroom xoff":                                 {field("BUFFER_PROFILE", "roce-Ethernet0-lossless-122880-61440", "xoff"), "122880"},
						// Mellanox: PFC frames of priority 3 pause lossless PG 3 (qos_config.j2's pfc_to_pg_map, ours now).
						"pfc_to_pg_map": {field("PORT_QOS_MAP", "Ethernet0", "pfc_to_pg_map"), "ROCE"},
						"PFC 3 -> PG 3": {field("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "ROCE", "3"), "3"},
					}
					if traditional {
						// buffermgrd's profile for 100G at 40 m on the new no-drop priority 3.
						checks = map[string][2]string{
							"pfc_enable on Ethernet0": {field("PORT_QOS_MAP", "Ethernet0", "pfc_enable"), "3"},
							"cable length":            {field("CABLE_LENGTH", "AZURE", "Ethernet0"), "40m"},
							"lossless PG 3":           {field("BUFFER_PG", "Ethernet0|3", "profile"), "pg_lossless_100000_40m_profile"},
							"no explicit headroom":    {field("BUFFER_PROFILE", "roce-Ethernet0-lossless-122880-61440", "xoff"), ""},
							"no pfc_to_pg_map":        {field("PORT_QOS_MAP", "Ethernet0", "pfc_to_pg_map"), ""},
						}
					}
					// Only TC 3 is lossless: PG 3 alone, on both models (buffermgrd adds 3 and
					// never deletes the stock 3-4 itself).
					checks["no lossless range beside PG 3"] = [2]string{field("BUFFER_PG", "Ethernet0|3-4", "profile"), ""}
					for what, c := range checks {
						if c[0] != c[1] {
							return fmt.Errorf("%s: CONFIG_DB has %q, want %q", what, c[0], c[1])
						}
					}
					return nil
				},
			},
			// SONiC keeps the whole 64-entry DSCP map, not which DSCPs the configuration listed:
			// an import lists every DSCP of the default class (the same device state).
			{ResourceName: "roce_qos_policy.leaf", ImportState: true, ImportStateId: "sonic-1/ROCE", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"classes.default.dscp"}},
			{ResourceName: "roce_pfc_interface.e0", ImportState: true, ImportStateId: "sonic-1/Ethernet0", ImportStateVerify: true},
			{
				Config:           v2,
				ConfigPlanChecks: expectUpdates("roce_qos_policy.leaf", "roce_pfc_interface.e0"),
			},
			{ // out-of-band changes through an independent gNMI client: the plan shows both, apply repairs
				PreConfig: func() {
					oob := l.oob(t, "sonic-1")
					oob.setSONiC("/CONFIG_DB/localhost/WRED_PROFILE/ROCE-roce/green_min_threshold", `"100000"`)
					oob.setSONiC("/CONFIG_DB/localhost/PFC_WD/Ethernet0/detection_time", `"800"`)
				},
				Config:           v2,
				ConfigPlanChecks: expectUpdates("roce_qos_policy.leaf", "roce_pfc_interface.e0"),
				Check: func(*terraform.State) error {
					if err := yang(nil); err != nil {
						return err
					}
					if got := field("WRED_PROFILE", "ROCE-roce", "green_min_threshold"); got != "204800" {
						return fmt.Errorf("apply did not repair the ECN threshold: %q", got)
					}
					return nil
				},
			},
		},
	})
}

func TestAccSONiCErrors(t *testing.T) {
	l := switchLab(t, "sonic")
	sw := l.SONiC("sonic-1")
	l.expectApplyErrors(t, []planError{
		{"PFC mode off on sonic", sonicPolicyHCL(153600, `"Ethernet0"`) + `
resource "roce_pfc_interface" "x" {
  device    = "sonic-1"
  interface = "Ethernet0"
  mode      = "off"
}`, `(?s)Not supported on platform sonic.*sonic-1`, nil},
		{"watchdog below the poll interval", sonicPolicyHCL(153600, `"Ethernet0"`) + sonicPFCHCL("Ethernet0", 150), `(?s)poll interval`, nil},
		{"link_pause with PFC on sonic", `
resource "roce_pfc_interface" "x" {
  device    = "sonic-1"
  interface = "Ethernet0"
  link_pause = true
}`, `(?s)link_pause`, nil},
		{"device rejects the Set", sonicPolicyHCL(153600, `"Ethernet0"`),
			`(?s)Cannot create QoS policy "ROCE" on device "sonic-1".*Failed to apply patch`,
			func() { sw.FailNextSet("Error: Failed to apply patch on the following scopes:") }},
	})
	if _, ok := sw.DB()["DSCP_TO_TC_MAP"]["ROCE"]; ok {
		t.Error("a refused or invalid change left objects on the switch")
	}
}

// A policy and a PFC interface on the same port, applied and destroyed in either order, with or
// without depends_on, converge in one apply and leave the other's settings intact.
func TestAccSONiCAnyOrder(t *testing.T) { eachSONiCSwitch(t, testSONiCAnyOrder) }

func testSONiCAnyOrder(t *testing.T, l *accLab, sw *lab.SONiCSwitch, yang func(*terraform.State) error, traditional bool) {
	both := l.providerHCL() + sonicPolicyHCL(153600, `"Ethernet0"`) + sonicModelPFCHCL(traditional, "Ethernet0", 200)
	policyOnly := l.providerHCL() + sonicPolicyHCL(153600, `"Ethernet0"`)
	pfcOnly := l.providerHCL() + strings.Replace(sonicModelPFCHCL(traditional, "Ethernet0", 200), "depends_on = [roce_qos_policy.leaf]", "", 1)
	bothUnordered := pfcOnly + sonicPolicyHCL(153600, `"Ethernet0"`)
	policyIntact := func(*terraform.State) error {
		if err := yang(nil); err != nil {
			return err
		}
		db := sw.DB()
		if db["PORT_QOS_MAP"]["Ethernet0"]["dscp_to_tc_map"] != "ROCE" || db["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] != "3" ||
			db["DSCP_TO_TC_MAP"]["ROCE"]["26"] != "3" {
			return fmt.Errorf("the policy's fields were disturbed: PORT_QOS_MAP|Ethernet0 = %v", db["PORT_QOS_MAP"]["Ethernet0"])
		}
		return nil
	}
	pfcIntact := func(*terraform.State) error {
		if err := yang(nil); err != nil {
			return err
		}
		db := sw.DB()
		cable, xoff := "5m", "122880"
		if traditional {
			cable, xoff = "40m", ""
		}
		if db["PFC_WD"]["Ethernet0"]["detection_time"] != "200" || db["CABLE_LENGTH"]["AZURE"]["Ethernet0"] != cable ||
			db["BUFFER_PROFILE"]["roce-Ethernet0-lossless-122880-61440"]["xoff"] != xoff {
			return fmt.Errorf("the PFC interface's fields were disturbed: PFC_WD|Ethernet0 = %v", db["PFC_WD"]["Ethernet0"])
		}
		return nil
	}
	before := sw.DB()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			if err := yang(nil); err != nil {
				return err
			}
			if got, want := fmt.Sprint(sw.DB()["PORT_QOS_MAP"]["Ethernet0"]), fmt.Sprint(before["PORT_QOS_MAP"]["Ethernet0"]); got != want {
				return fmt.Errorf("PORT_QOS_MAP|Ethernet0 after destroy = %s, want %s", got, want)
			}
			return nil
		},
		// Every step's apply is followed by a plan that must be empty: one apply converges.
		Steps: []resource.TestStep{
			// Both created at once from nothing, nothing ordering them: Terraform runs the two
			// concurrently, and each write is built on what the other left (the device's write
			// turn), whichever goes first.
			{Config: bothUnordered, Check: func(s *terraform.State) error {
				if err := policyIntact(s); err != nil {
					return err
				}
				return pfcIntact(s)
			}},
			{Config: l.providerHCL(), Check: yang}, // and both destroyed at once
			{Config: both, Check: yang},
			{Config: policyOnly, Check: policyIntact}, // PFC destroyed first
			{Config: both, Check: yang},
			// Policy destroyed first: the PFC fields stay, and the watchdog follows the port's
			// no-drop priorities back to the stock "3,4".
			{Config: pfcOnly, Check: pfcIntact},
			// The PFC interface exists before the policy, and nothing orders the two: the policy
			// moves the watchdog onto its no-drop priorities as it changes them.
			{Config: bothUnordered, Check: func(s *terraform.State) error {
				if err := policyIntact(s); err != nil {
					return err
				}
				if got := sw.DB()["PORT_QOS_MAP"]["Ethernet0"]["pfcwd_sw_enable"]; got != "3" {
					return fmt.Errorf("pfcwd_sw_enable = %q, want the policy's no-drop priorities \"3\"", got)
				}
				return pfcIntact(s)
			}},
			{Config: pfcOnly, Check: pfcIntact},
		},
	})
}

// A policy that trusts PCP writes DOT1P_TO_TC_MAP, which the stock CONFIG_DB lacks: the create
// writes the new table whole (a key Update needs its table on 202505 GCU, a Replace fails on any
// absent target) and the destroy deletes the table (deleting its last key is GCU's
// EmptyTableError).
func TestAccSONiCTrustPCPTable(t *testing.T) { eachSONiCSwitch(t, testSONiCTrustPCPTable) }

func testSONiCTrustPCPTable(t *testing.T, l *accLab, sw *lab.SONiCSwitch, yang func(*terraform.State) error, _ bool) {
	if _, ok := sw.DB()["DOT1P_TO_TC_MAP"]; ok {
		t.Fatal("the stock CONFIG_DB already has DOT1P_TO_TC_MAP: the test needs a switch without it")
	}
	policy := replaced(t, sonicPolicyHCL(153600, `"Ethernet0"`), `device = "sonic-1"`, `device = "sonic-1"
  trust  = "pcp"`)
	policy = replaced(t, policy, "dscp = [26]", "pcp = [3]")
	policy = replaced(t, policy, "cnp     = { traffic_class = 6, dscp = [48]", "cnp     = { traffic_class = 6, pcp = [6]")
	policy = replaced(t, policy, "default = { traffic_class = 0, dscp = [0]", "default = { traffic_class = 0, pcp = [0]")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			if err := yang(nil); err != nil {
				return err
			}
			if tbl, ok := sw.DB()["DOT1P_TO_TC_MAP"]; ok {
				return fmt.Errorf("destroy left DOT1P_TO_TC_MAP: %v", tbl)
			}
			return nil
		},
		Steps: []resource.TestStep{{
			Config: l.providerHCL() + policy,
			Check: func(*terraform.State) error {
				if err := yang(nil); err != nil {
					return err
				}
				db := sw.DB()
				if db["DOT1P_TO_TC_MAP"]["ROCE"]["3"] != "3" || db["PORT_QOS_MAP"]["Ethernet0"]["dot1p_to_tc_map"] != "ROCE" {
					return fmt.Errorf("DOT1P_TO_TC_MAP = %v, PORT_QOS_MAP|Ethernet0 = %v", db["DOT1P_TO_TC_MAP"], db["PORT_QOS_MAP"]["Ethernet0"])
				}
				if sw.Saved()["DOT1P_TO_TC_MAP"]["ROCE"]["3"] != "3" {
					return fmt.Errorf("the switch did not save the change (config save)")
				}
				return nil
			},
		}},
	})
}

// On the traditional buffer model an explicit headroom is refused at plan time, naming the
// attributes and why (buffermgrd would overwrite it), before anything reaches the switch.
func TestAccSONiCTraditionalHeadroomRefused(t *testing.T) {
	l := sonicLabModel(t, "Arista-7060CX-32S-C32")
	sw := l.SONiC("sonic-1")
	before := sw.DB()
	sw.ResetCounters()
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: protoV6Factories, Steps: []resource.TestStep{{
		Config:   l.providerHCL() + strings.Replace(sonicPFCHCL("Ethernet0", 200), "depends_on = [roce_qos_policy.leaf]", "", 1),
		PlanOnly: true, ExpectNonEmptyPlan: true,
		ExpectError: regexp.MustCompile(`(?s)Not kept by this switch's buffer model.*buffer.xoff_bytes\s+and\s+buffer.xon_bytes:\s+the\s+switch\s+runs\s+SONiC's\s+traditional\s+buffer\s+model.*buffer.cable_length_m`),
	}}})
	if sw.Counters().Set != 0 {
		t.Errorf("the refused plan sent %d Sets", sw.Counters().Set)
	}
	if diff := cmp.Diff(before, sw.DB()); diff != "" {
		t.Errorf("the switch changed:\n%s", diff)
	}
}

// A new headroom on a real SONiC switch: GCU refuses a change of an existing BUFFER_PROFILE's
// xon or size (the lab imitates its field-operation validators), so the update writes a new
// profile named after its values, moves the lossless PGs to it and deletes the old one.
func TestAccSONiCHeadroomUpdate(t *testing.T) {
	l := switchLab(t, "sonic")
	sw := l.SONiC("sonic-1")
	yang := sonicYANG(t, sw)
	v1 := l.providerHCL() + sonicPolicyHCL(153600, `"Ethernet0"`) + sonicPFCHCL("Ethernet0", 200)
	v2 := l.providerHCL() + sonicPolicyHCL(153600, `"Ethernet0"`) +
		sonicPFCBufferHCL("Ethernet0", 200, "xoff_bytes = 150000, xon_bytes = 30000, cable_length_m = 5")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{Config: v1},
			{Config: v2, Check: func(s *terraform.State) error {
				if err := yang(s); err != nil {
					return err
				}
				db := sw.DB()
				if _, old := db["BUFFER_PROFILE"]["roce-Ethernet0-lossless-122880-61440"]; old {
					return fmt.Errorf("the old headroom's profile is left: %v", db["BUFFER_PROFILE"])
				}
				// The policy makes only TC 3 lossless: its PG is 3 alone (the stock 3-4 split).
				if got := db["BUFFER_PG"]["Ethernet0|3"]["profile"]; got != "roce-Ethernet0-lossless-150000-30000" {
					return fmt.Errorf("BUFFER_PG|Ethernet0|3 profile %q", got)
				}
				if k, ok := db["BUFFER_PG"]["Ethernet0|3-4"]; ok {
					return fmt.Errorf("the stock range is left beside PG 3: BUFFER_PG|Ethernet0|3-4 = %v", k)
				}
				return nil
			}},
		},
	})
}

// A lossless class outside SONiC's stock lossless queues 3-4 also needs its egress queue on
// the lossless egress profile: the stock BUFFER_QUEUE puts 0-2 on a lossy profile, which drops
// at its threshold whatever PFC does. The policy splits the range, reads a queue put back on a
// lossy profile as drift (the port leaves interfaces), repairs it, and destroy puts the stock
// ranges back.
func TestAccSONiCLosslessQueue(t *testing.T) { eachSONiCSwitch(t, testSONiCLosslessQueue) }

func testSONiCLosslessQueue(t *testing.T, l *accLab, sw *lab.SONiCSwitch, yang func(*terraform.State) error, _ bool) {
	before := sw.DB()
	lossy := before["BUFFER_QUEUE"]["Ethernet0|0-2"]["profile"]
	if lossy == "" || before["BUFFER_QUEUE"]["Ethernet0|3-4"]["profile"] != "egress_lossless_profile" {
		t.Fatalf("the stock BUFFER_QUEUE is not buffers_config.j2's: %v", before["BUFFER_QUEUE"])
	}
	config := l.providerHCL() + replaced(t, sonicPolicyHCL(153600, `"Ethernet0"`), "traffic_class = 3", "traffic_class = 2")
	queues := func() map[string]string {
		out := map[string]string{}
		for k, v := range sw.DB()["BUFFER_QUEUE"] {
			if q, ok := strings.CutPrefix(k, "Ethernet0|"); ok {
				out[q] = v["profile"]
			}
		}
		return out
	}
	split := func(*terraform.State) error {
		if err := yang(nil); err != nil {
			return err
		}
		want := map[string]string{"0-1": lossy, "2": "egress_lossless_profile", "3-4": "egress_lossless_profile", "5-6": lossy}
		if diff := cmp.Diff(want, queues()); diff != "" {
			return fmt.Errorf("BUFFER_QUEUE of Ethernet0 (-want +got):\n%s", diff)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			if err := yang(nil); err != nil {
				return err
			}
			if got, want := fmt.Sprint(sw.DB()["BUFFER_QUEUE"]), fmt.Sprint(before["BUFFER_QUEUE"]); got != want {
				return fmt.Errorf("BUFFER_QUEUE after destroy = %s, want the stock %s", got, want)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: config, Check: split},
			{
				PreConfig: func() {
					l.oob(t, "sonic-1").setSONiC("/CONFIG_DB/localhost/BUFFER_QUEUE/Ethernet0|2/profile", fmt.Sprintf("%q", lossy))
				},
				Config:           config,
				ConfigPlanChecks: expectUpdates("roce_qos_policy.leaf"),
				Check:            split,
			},
		},
	})
}
