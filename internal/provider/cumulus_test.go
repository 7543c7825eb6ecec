package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// cumulusPolicyHCL is DESIGN.md's example policy on Cumulus ports (no per-class mtu).
func cumulusPolicyHCL(ecnMin int, ports string) string {
	return fmt.Sprintf(`
resource "roce_qos_policy" "leaf" {
  device = "cumulus-1"
  classes = {
    roce    = { traffic_class = 3, dscp = [26], bandwidth_percent = 50, lossless = true, ecn = { min_threshold_bytes = %d, max_threshold_bytes = 1500000 } }
    cnp     = { traffic_class = 6, dscp = [48], strict_priority = true }
    default = { traffic_class = 0, bandwidth_percent = 50 }
  }
  interfaces = [%s]
}
`, ecnMin, ports)
}

const cumulusPFCHCL = `
resource "roce_pfc_interface" "swp1" {
  device     = "cumulus-1"
  interface  = "swp1"
  watchdog   = { action = "drop" }
  depends_on = [roce_qos_policy.leaf]
}
`

// nvueCurl drives the switch's NVUE API with curl, a client independent of the provider,
// verifying the switch against the lab CA as a user would with --cacert.
type nvueCurl struct {
	t          *testing.T
	base, auth string
	ca         string
}

func (l *accLab) curl(t *testing.T, device string) nvueCurl {
	t.Helper()
	if _, err := exec.LookPath("curl"); err != nil {
		if os.Getenv("ROCE_REQUIRE_CURL") != "" {
			t.Fatal("curl is required (ROCE_REQUIRE_CURL is set) but not installed")
		}
		t.Skip("curl is not installed here (CI installs it and sets ROCE_REQUIRE_CURL=1)")
	}
	e := l.Inventory().Devices[device]
	return nvueCurl{t: t, base: "https://" + e.Address + "/nvue_v1", auth: e.Username + ":" + e.Password, ca: filepath.Join(l.dir, lab.CAFile)}
}

func (c nvueCurl) run(args ...string) string {
	c.t.Helper()
	out, err := exec.CommandContext(c.t.Context(), "curl", append([]string{"-sS", "--fail-with-body", "--cacert", c.ca, "-u", c.auth,
		"-H", "Content-Type: application/json"}, args...)...).CombinedOutput()
	if err != nil {
		c.t.Fatalf("curl %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// gpuProfiles is an operator's own QoS on swp1, made with curl: NVUE profiles named GPU (the
// DSCP map dscp, a JSON object; ETS 50/50 with TC 6 strict, ECN on TC 3, PFC on switch
// priority 3), bound to swp1.
func (c nvueCurl) gpuProfiles(dscp string) {
	c.change("/qos", `{
  "mapping": {"GPU": {"trust": "l3", "dscp": `+dscp+`}},
  "egress-scheduler": {"GPU-ETS": {"traffic-class": {"3": {"mode": "dwrr", "bw-percent": 50}, "0": {"mode": "dwrr", "bw-percent": 50},
    "6": {"mode": "strict"}}}},
  "congestion-control": {"GPU-ECN": {"traffic-class": {"3": {"ecn": "enable", "min-threshold": 153600, "max-threshold": 1536000, "probability": 100}}}},
  "pfc": {"GPU-PFC": {"switch-priority": {"3": {}}, "tx": "enable", "rx": "enable"}}}`)
	c.change("/interface/swp1/qos", `{"mapping": {"profile": "GPU"}, "egress-scheduler": {"profile": "GPU-ETS"},
  "congestion-control": {"profile": "GPU-ECN"}, "pfc": {"profile": "GPU-PFC"}}`)
}

// change applies one PATCH body at path out of band, through a revision of its own, as NVIDIA's
// NVUE API page shows with curl.
func (c nvueCurl) change(path, body string) {
	c.t.Helper()
	var created map[string]any
	if err := json.Unmarshal([]byte(c.run("-X", "POST", c.base+"/revision")), &created); err != nil || len(created) != 1 {
		c.t.Fatalf("create revision: %v %v", created, err)
	}
	var rev string
	for id := range created {
		rev = id
	}
	c.run("-X", "PATCH", "-d", body, c.base+path+"?rev="+rev)
	c.run("-X", "PATCH", "-d", `{"state": "apply", "auto-prompt": {"ays": "ays_yes"}}`, c.base+"/revision/"+rev)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if s := c.run(c.base + "/revision/" + rev); strings.Contains(s, `"applied"`) {
			return
		} else if !strings.Contains(s, `"apply"`) {
			c.t.Fatalf("out-of-band revision %s: %s", rev, s)
		}
	}
	c.t.Fatalf("out-of-band revision %s never applied", rev)
}

// at reads a value of the switch's applied configuration by its keys.
func at(tree map[string]any, keys ...string) any {
	var v any = tree
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// wrappedRE matches the regular expression pattern in Terraform's output, where a space may be a line break.
func wrappedRE(pattern string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + strings.ReplaceAll(pattern, " ", `\s+`))
}

func TestAccCumulusPolicyAndPFC(t *testing.T) {
	l := switchLab(t, "cumulus")
	sw := l.Cumulus("cumulus-1")
	v1 := l.providerHCL() + cumulusPolicyHCL(150000, `"swp1", "swp2"`) + cumulusPFCHCL
	v2 := l.providerHCL() + cumulusPolicyHCL(204800, `"swp1", "swp2"`) + cumulusPFCHCL
	v3 := l.providerHCL() + cumulusPolicyHCL(204800, `"swp1", "swp2", "swp3"`) + cumulusPFCHCL
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			a := sw.Applied()
			for _, kind := range []string{"mapping", "egress-scheduler", "congestion-control", "pfc"} {
				if at(a, "qos", kind, "ROCE") != nil {
					return fmt.Errorf("destroy left qos %s ROCE", kind)
				}
				for _, port := range []string{"swp1", "swp2", "swp3"} {
					if b := at(a, "interface", port, "qos", kind); b != nil {
						return fmt.Errorf("destroy left %s's %s binding %v", port, kind, b)
					}
				}
			}
			if s := at(a, "interface", "swp1", "qos", "pfc-watchdog"); s != nil {
				return fmt.Errorf("destroy left the watchdog %v", s)
			}
			if eqm := at(a, "qos", "egress-queue-mapping", "default-global", "switch-priority"); eqm != nil && len(eqm.(map[string]any)) > 0 {
				return fmt.Errorf("destroy left egress-queue-mapping entries %v", eqm)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: v1,
				Check: func(*terraform.State) error {
					a := sw.Applied()
					for what, c := range map[string][2]any{
						"DSCP 26 -> switch priority 3": {at(a, "qos", "mapping", "ROCE", "dscp", "26", "switch-priority"), json.Number("3")},
						"trust DSCP":                   {at(a, "qos", "mapping", "ROCE", "trust"), "l3"},
						"CNP strict":                   {at(a, "qos", "egress-scheduler", "ROCE", "traffic-class", "6", "mode"), "strict"},
						"ECN min":                      {at(a, "qos", "congestion-control", "ROCE", "traffic-class", "3", "min-threshold"), json.Number("150000")},
						"PFC on 3":                     {fmt.Sprint(at(a, "qos", "pfc", "ROCE", "switch-priority", "3")), "map[]"},
						"swp2 bound":                   {at(a, "interface", "swp2", "qos", "pfc", "profile"), "ROCE"},
						"watchdog":                     {at(a, "interface", "swp1", "qos", "pfc-watchdog", "state"), "enable"},
					} {
						if c[0] != c[1] {
							return fmt.Errorf("%s: NVUE has %v, want %v", what, c[0], c[1])
						}
					}
					return nil
				},
			},
			// NVUE keeps no class names: an import names classes by traffic class, with the
			// same settings.
			{ResourceName: "roce_qos_policy.leaf", ImportState: true, ImportStateId: "cumulus-1/ROCE",
				ImportStateCheck: importedAttrs(map[string]string{"trust": "dscp", "classes.tc3.lossless": "true", "classes.tc3.ecn.min_threshold_bytes": "150000",
					"classes.tc6.strict_priority": "true", "classes.tc0.bandwidth_percent": "50", "interfaces.#": "2"})},
			{ResourceName: "roce_pfc_interface.swp1", ImportState: true, ImportStateId: "cumulus-1/swp1", ImportStateVerify: true},
			{
				Config:           v2,
				ConfigPlanChecks: expectUpdates("roce_qos_policy.leaf"),
			},
			{ // out-of-band changes through curl: the plan shows both, apply repairs
				PreConfig: func() {
					c := l.curl(t, "cumulus-1")
					c.change("/qos/congestion-control/ROCE/traffic-class/3", `{"min-threshold": 100000}`)
					c.change("/interface/swp1/qos/pfc-watchdog", `{"state": "disable"}`)
				},
				Config:           v2,
				ConfigPlanChecks: expectUpdates("roce_qos_policy.leaf", "roce_pfc_interface.swp1"),
				Check: func(*terraform.State) error {
					if got := at(sw.Applied(), "qos", "congestion-control", "ROCE", "traffic-class", "3", "min-threshold"); got != json.Number("204800") {
						return fmt.Errorf("apply did not repair the ECN threshold: %v", got)
					}
					return nil
				},
			},
			{ // the switch refuses the revision: the error names NVUE's issue, nothing changes
				PreConfig:   func() { sw.RejectApplies("lab fault: rejected") },
				Config:      v3,
				ExpectError: wrappedRE(`cumulus-1.*revision \d+ ended invalid, nothing applied: Config invalid at qos: lab fault: rejected`),
			},
			{
				PreConfig: func() {
					if b := at(sw.Applied(), "interface", "swp3", "qos", "mapping"); b != nil {
						t.Errorf("the refused revision bound swp3: %v", b)
					}
					for id, state := range sw.Revisions() {
						if state != "applied" {
							t.Errorf("revision %s left %s: the provider detaches a refused revision", id, state)
						}
					}
					sw.RejectApplies("")
				},
				Config:           v3,
				ConfigPlanChecks: expectUpdates("roce_qos_policy.leaf"),
			},
		},
	})
}

func TestAccCumulusErrors(t *testing.T) {
	l := switchLab(t, "cumulus")
	sw := l.Cumulus("cumulus-1")
	// NVUE's messages come wrapped: a space in a want is any run of white space (wrappedRE).
	l.expectApplyErrors(t, []planError{
		{"PFC buffer on cumulus", `
resource "roce_pfc_interface" "x" {
  device    = "cumulus-1"
  interface = "swp1"
  buffer    = { xoff_bytes = 10000 }
}`, wrappedRE(`Not supported on platform cumulus.*PFC profile`).String(), nil},
		{"a per-class mtu and a non-swp port", replaced(t, cumulusPolicyHCL(150000, `"Ethernet1"`), "lossless = true", "lossless = true, mtu = 9216"),
			wrappedRE(`Not supported on platform cumulus.*per-class MTU.*Not supported on platform cumulus.*not a Cumulus switch port`).String(), nil},
		{"PFC without lossless buffers", cumulusPolicyHCL(150000, `"swp1"`),
			wrappedRE(`Cannot create QoS policy "ROCE" on device "cumulus-1".*ended invalid, nothing applied: Config invalid at qos\.pfc: PFC requires`).String(),
			func() { l.curl(t, "cumulus-1").change("/qos/roce", `{"enable": "off"}`) }},
		{"a wrong password", l.providerWith(`{ for k, v in local.inv : k => merge(v, { password = "wrong" }) }`) + cumulusPolicyHCL(150000, `"swp1"`),
			wrappedRE(`authentication failed`).String(), nil},
	})
	if at(sw.Applied(), "qos", "mapping", "ROCE") != nil {
		t.Error("a refused or invalid change left objects on the switch")
	}
}

// TestAccCumulusAnyOrder: a policy and the PFC watchdogs of its ports, with no depends_on,
// converge in one apply (the watchdog waits for the policy's PFC profile, which NVUE requires)
// and are destroyed in any order (the policy takes the watchdog with the PFC it removes), leaving
// the switch as it was; a policy removed alone leaves the interface's watchdog to show as drift.
func TestAccCumulusAnyOrder(t *testing.T) {
	l := switchLab(t, "cumulus")
	sw := l.Cumulus("cumulus-1")
	before := withoutEmpty(sw.Applied())
	unordered := strings.Replace(cumulusPFCHCL, "depends_on = [roce_qos_policy.leaf]", "", 1)
	both := l.providerHCL() + unordered + cumulusPolicyHCL(150000, `"swp1", "swp2"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy: func(*terraform.State) error {
			if after := withoutEmpty(sw.Applied()); after != before {
				return fmt.Errorf("destroy did not give back the applied configuration:\n%s", after)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: both, Check: func(*terraform.State) error {
				if s := at(sw.Applied(), "interface", "swp1", "qos", "pfc-watchdog", "state"); s != "enable" {
					return fmt.Errorf("watchdog %v", s)
				}
				return nil
			}},
			{ // the policy goes, the interface stays: its watchdog went with the PFC profile (drift)
				Config:             l.providerHCL() + unordered,
				ExpectNonEmptyPlan: true,
				Check: func(*terraform.State) error {
					if s := at(sw.Applied(), "interface", "swp1", "qos", "pfc-watchdog"); s != nil {
						return fmt.Errorf("the watchdog stayed without PFC: %v", s)
					}
					return nil
				},
			},
			{ // and cannot come back without a lossless policy, said before anything is sent
				Config:      l.providerHCL() + unordered,
				ExpectError: wrappedRE(`swp1.*cumulus-1.*the PFC watchdog on swp1 needs PFC on the port`),
			},
		},
	})
}

// TestAccFabricAuditCumulus: QoS typed on a Cumulus switch by an operator with NVUE (profiles
// of its own names, out of band with curl) is read by roce_fabric_audit as what each port does,
// nothing imported; the other ports, binding nothing, run the default-global profiles `qos roce`
// puts in place, which the applied configuration does not show. The host cabled to swp1, never
// configured, is checked against it.
func TestAccFabricAuditCumulus(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"cumulus": 1}, Hosts: map[string]int{"mlx5": 1}, NICPorts: 1})
	c := l.curl(t, "cumulus-1")
	// The operator's mapping sends DSCP 24-31 and 48-55 as NVUE's RoCE mode does, so the other
	// ports' default-global agrees with it (R10 compares the lossless and CNP DSCPs of every
	// policy).
	dscp := map[string]any{}
	for d := 24; d <= 31; d++ {
		dscp[fmt.Sprint(d)] = map[string]int{"switch-priority": 3}
		dscp[fmt.Sprint(d+24)] = map[string]int{"switch-priority": 6}
	}
	dscpJSON, _ := json.Marshal(dscp)
	c.gpuProfiles(string(dscpJSON))
	cfg := l.providerHCL() + auditHCL + `
output "swp1"  { value = ` + auditPort("cumulus-1", "swp1") + ` }
output "ports" { value = [for p in data.roce_fabric_audit.all.ports : "${p.interface} ${p.pfc_mode} ${p.policy}" if p.device == "cumulus-1"] }
`
	// Every port of the switch is read; only swp1 binds profiles, the others run the
	// default-global profiles of the lab switch's `qos roce` (lossless: PFC on switch priority 3).
	portsRead := []knownvalue.Check{knownvalue.StringExact("swp1 on GPU")}
	for i := 2; i <= 8; i++ {
		portsRead = append(portsRead, knownvalue.StringExact(fmt.Sprintf("swp%d on default-global", i)))
	}
	applyChecking(t, cfg,
		losslessPort("swp1", "GPU", "dscp", []int64{3}, map[string]knownvalue.Check{"ecn_traffic_classes": int64sExact(3)}),
		dscpClass("swp1", "26", 3),
		dscpClass("swp1", "48", 6),
		// The findings a network engineer would confirm: the never-configured host (trust pcp,
		// no PFC, DCQCN on by default) against the lossless swp1 (R1, R3, R13, R15, R17), and no
		// PFC watchdog on the switch (R11). The CNP class is strict and DSCP 26 is on TC 3: no R4,
		// no R10.
		statecheck.ExpectKnownOutputValue("rules", knownvalue.StringExact("R1 error mlx5-1, R11 warning cumulus-1, "+
			"R13 error cumulus-1, R15 error cumulus-1, R17 error cumulus-1, R3 error mlx5-1")),
		statecheck.ExpectKnownOutputValue("ports", knownvalue.ListExact(portsRead)),
	)
}

// TestAccFabricAuditCumulusPartialMap: an operator's NVUE mapping that lists only DSCP 26 and
// 48 leaves the others unmapped (the read cannot tell where the switch sends them). The audit
// says so instead of showing -1: swp1's dscp_to_traffic_class holds the two DSCPs it maps, and
// R10, comparing swp1 with the default-global profiles of the other ports (DSCP 24-31 on the
// lossless TC 3, 48-55 on TC 6), states the DSCPs left out together, as unmapped, once.
func TestAccFabricAuditCumulusPartialMap(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"cumulus": 1}, Hosts: map[string]int{"mlx5": 1}, NICPorts: 1})
	c := l.curl(t, "cumulus-1")
	c.gpuProfiles(`{"26": {"switch-priority": 3}, "48": {"switch-priority": 6}}`)
	cfg := l.providerHCL() + `
data "roce_fabric_audit" "all" {}

output "swp1_map" { value = ` + auditPort("cumulus-1", "swp1") + `.dscp_to_traffic_class }
output "r10"      { value = [for f in data.roce_fabric_audit.all.findings : f.message if f.rule == "R10"] }
`
	applyChecking(t, cfg,
		statecheck.ExpectKnownOutputValue("swp1_map", knownvalue.MapExact(map[string]knownvalue.Check{
			"26": knownvalue.Int64Exact(3), "48": knownvalue.Int64Exact(6),
		})),
		statecheck.ExpectKnownOutputValue("r10", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(
			"Policy GPU on cumulus-1 at port swp1 maps DSCPs 24, 25, 27, 28, 29, 30 and 31 to no traffic class (unmapped), " +
				"but cumulus-1 (policy default-global) to traffic class 3; DSCPs 49, 50, 51, 52, 53, 54 and 55 to no traffic " +
				"class (unmapped), but cumulus-1 (policy default-global) to traffic class 6. Lossless and CNP traffic must land " +
				"in the same traffic class on every hop, or PFC pauses and the CNP priority break at this switch. Map these " +
				"DSCPs as the other switches do.")})),
	)
}
