package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	xssh "golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

func eosLab(t *testing.T) *accLab {
	return startLab(t, lab.Options{Switches: map[string]int{"eos": 1}})
}

func eosLeaf(sw *lab.EOSSwitch) cliLeaf {
	return cliLeaf{device: "eos-1", running: sw.RunningConfig, blockOf: section, leftover: "configuration sessions",
		leftovers: sessionNames(sw), connections: func() int64 { return sw.Counters().Connections },
		policy: eosPolicyHCL, port: "Ethernet1", platform: "eos"}
}

// eosPolicyHCL is the contract's example policy, the roce class lossless, on EOS ports.
func eosPolicyHCL(ecnMin int, ports string) string { return leafPolicyHCL("eos-1", ecnMin, ports) }

func eosPFCHCL(port string, detection int) string {
	return fmt.Sprintf(`
resource "roce_pfc_interface" "e1" {
  device     = "eos-1"
  interface  = %q
  watchdog   = { action = "drop", detection_time_ms = %d, restoration_time_ms = 400 }
  depends_on = [roce_qos_policy.leaf]
}
`, port, detection)
}

// section returns the running-config block that starts with header (through its closing "!").
func section(running, header string) string {
	i := strings.Index(running, "\n"+header+"\n")
	if i < 0 {
		return ""
	}
	rest := running[i+1:]
	if j := strings.Index(rest, "\n!"); j >= 0 {
		return rest[:j]
	}
	return rest
}

// sessionNames lists the configuration sessions the switch keeps.
func sessionNames(sw *lab.EOSSwitch) func() []string {
	return func() []string {
		var out []string
		for _, s := range sw.Sessions() {
			out = append(out, fmt.Sprint(s))
		}
		return out
	}
}

func TestAccEOSPolicyAndPFC(t *testing.T) {
	l := eosLab(t)
	v1 := l.providerHCL() + eosPolicyHCL(153600, `"Ethernet1", "Ethernet2"`) + eosPFCHCL("Ethernet1", 200)
	v2 := l.providerHCL() + eosPolicyHCL(204800, `"Ethernet2", "Ethernet3"`) + eosPFCHCL("Ethernet1", 300)
	l.policyAndPFC(t, eosLeaf(l.EOS("eos-1")), v1, v2, [][3]string{
		// EOS already sends 24-31 to TC 3 and 0-7 to TC 1: the whole map moves every DSCP no
		// class lists to the default class, and only what differs is shown.
		{"unlisted DSCPs -> default TC 0", "", "\nqos map dscp 0 1 2 3 4 5 6 7 16 "},
		{"DSCP 26 stays in TC 3, its neighbours leave it", "", " 24 25 27 28 "},
		{"ECN in kbytes on the instantaneous queue", "qos profile ROCE", "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100 weight 0"},
		{"ECN counter", "qos profile ROCE", "random-detect ecn count"},
		{"roce lossless", "qos profile ROCE", "priority-flow-control priority 3 no-drop"},
		{"cnp strict", "qos profile ROCE", "tx-queue 6\n      priority strict\n"},
		{"Ethernet1 bound", "interface Ethernet1", "service-profile ROCE"},
		{"Ethernet2 bound", "interface Ethernet2", "service-profile ROCE"},
		{"PFC on", "interface Ethernet1", "priority-flow-control on"},
		{"watchdog", "interface Ethernet1", "priority-flow-control pause watchdog port timer timeout 0.20 polling-interval auto recovery-time 0.40"},
	}, []resource.TestStep{
		// EOS keeps no class names (a tx-queue has none, `qos map` is global): an import
		// names each class tc<N>, and lists every DSCP the whole map sends to it.
		{ResourceName: "roce_qos_policy.leaf", ImportState: true, ImportStateId: "eos-1/ROCE",
			ImportStateCheck: func(states []*terraform.InstanceState) error {
				if len(states) != 1 {
					return fmt.Errorf("import returned %d resources", len(states))
				}
				got := states[0].Attributes
				for k, v := range map[string]string{
					"name": "ROCE", "trust": "dscp", "default_traffic_class": "0",
					"interfaces.#": "2", "interfaces.0": "Ethernet1", "interfaces.1": "Ethernet2",
					"classes.%":                 "3",
					"classes.tc3.traffic_class": "3", "classes.tc3.dscp.#": "1", "classes.tc3.dscp.0": "26",
					"classes.tc3.bandwidth_percent": "50", "classes.tc3.lossless": "true",
					"classes.tc3.ecn.min_threshold_bytes": "153600", "classes.tc3.ecn.max_threshold_bytes": "1536000",
					"classes.tc3.ecn.mark_probability_percent": "100",
					"classes.tc6.strict_priority":              "true", "classes.tc6.dscp.#": "1", "classes.tc6.dscp.0": "48",
					"classes.tc0.bandwidth_percent": "50", "classes.tc0.dscp.#": "62", "classes.tc0.lossless": "false",
				} {
					if got[k] != v {
						return fmt.Errorf("imported %s = %q, want %q", k, got[k], v)
					}
				}
				return nil
			}},
		{ResourceName: "roce_pfc_interface.e1", ImportState: true, ImportStateId: "eos-1/Ethernet1", ImportStateVerify: true},
	}, policyMove{
		unbound: "interface Ethernet1", bound: "service-profile",
		updated: [][3]string{
			{"Ethernet3 bound", "interface Ethernet3", "service-profile ROCE"},
			{"ECN updated", "qos profile ROCE", "minimum-threshold 200 kbytes"},
		},
		operator: []string{"qos profile ROCE", "tx-queue 3",
			"random-detect ecn minimum-threshold 100 kbytes maximum-threshold 1500 kbytes",
			"interface Ethernet1", "no priority-flow-control on"},
		repaired: [][3]string{
			{"ECN repaired", "qos profile ROCE", "minimum-threshold 200 kbytes"},
			{"PFC repaired", "interface Ethernet1", "priority-flow-control on"},
		},
	})
}

func TestAccEOSRejectedChange(t *testing.T) {
	l := eosLab(t)
	sw := l.EOS("eos-1")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: rejectedChangeSteps(t, sw, l.providerHCL()+eosPolicyHCL(153600, `"Ethernet1"`), l.providerHCL()+eosPolicyHCL(204800, `"Ethernet1"`),
			refusal{"random-detect ecn", "Unavailable command (not supported on this hardware platform)",
				regexp.MustCompile(`(?s)Cannot create QoS policy "ROCE" on device "eos-1".*random-detect ecn.*%\s+Unavailable\s+command\s+\(not\s+supported\s+on\s+this\s+hardware\s+platform\)`)},
			refusal{"minimum-threshold 200 kbytes", "Invalid input",
				regexp.MustCompile(`(?s)Cannot update QoS policy "ROCE".*minimum-threshold\s+200\s+kbytes.*%\s+Invalid\s+input`)},
			"configuration sessions", sessionNames(sw)),
	})
}

func TestAccEOSPlanTimeErrors(t *testing.T) {
	l := eosLab(t)
	l.planErrors(t, eosLeaf(l.EOS("eos-1")), "Ethernet1\nreload now",
		planError{"injection in a bound port", eosPolicyHCL(153600, `"Ethernet1 | json"`), `(?s)interfaces`, nil},
		planError{"injection in a policy name", `
resource "roce_qos_policy" "x" {
  device = "eos-1"
  name   = "ROCE!x"
  classes = { roce = { traffic_class = 3, dscp = [26], bandwidth_percent = 100 } }
  interfaces = ["Ethernet1"]
}`, `(?s)name`, nil},
		planError{"strict class below a round-robin class", replaced(t, eosPolicyHCL(153600, `"Ethernet1"`), "traffic_class = 6", "traffic_class = 2"),
			`(?s)Not supported on platform eos.*EOS makes every queue below a round-robin\s+queue\s+round-robin\s+too`, nil},
		planError{"per-class mtu", `
resource "roce_qos_policy" "x" {
  device = "eos-1"
  classes = { roce = { traffic_class = 3, dscp = [26], bandwidth_percent = 100, mtu = 9216 } }
}`, `(?s)Not supported on platform eos.*nxos`, nil},
		planError{"pfc mode auto", `
resource "roce_pfc_interface" "x" {
  device    = "eos-1"
  interface = "Ethernet1"
  mode      = "auto"
}`, `(?s)Not supported on platform eos.*DCBX`, nil},
		planError{"pfc headroom", `
resource "roce_pfc_interface" "x" {
  device    = "eos-1"
  interface = "Ethernet1"
  buffer    = { xoff_bytes = 122880, xon_bytes = 61440 }
}`, `(?s)Not supported on platform eos`, nil},
		planError{"watchdog not in 10 ms steps", `
resource "roce_pfc_interface" "x" {
  device    = "eos-1"
  interface = "Ethernet1"
  watchdog  = { detection_time_ms = 205, restoration_time_ms = 400 }
}`, `(?s)Not supported on platform eos.*10 ms`, nil})
}

func TestAccEOSHostKeyMismatch(t *testing.T) {
	l := eosLab(t)
	inv := fmt.Sprintf("jsondecode(file(%q)).devices", l.dir+"/"+lab.InventoryFile)
	// A pinned key that is not the switch's.
	wrong := strings.TrimSpace(string(xssh.MarshalAuthorizedKey(otherHostKey(t))))
	cfg := strings.Replace(l.providerHCL(), inv,
		fmt.Sprintf(`merge(%s, { "eos-1" = merge(%s["eos-1"], { host_key = %q }) })`, inv, inv, wrong), 1) +
		eosPFCHCL("Ethernet1", 200)
	cfg = unordered(cfg)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{{
			Config:      cfg,
			ExpectError: regexp.MustCompile(`(?s)host key mismatch: the\s+host presented ssh-ed25519\s+SHA256:\S+, which is not the pinned\s+host_key`),
		}},
	})
	if s := l.EOS("eos-1").RunningConfig(); strings.Contains(s, "priority-flow-control") {
		t.Errorf("the switch was configured over a connection whose host key did not match:\n%s", s)
	}
}

// A line the switch takes with a `! ` warning (EOS applies it; eos-switch.md, "Refusals") is
// recorded, and the warning reaches the user naming the line; the next plan is empty.
func TestAccEOSDeviceWarning(t *testing.T) {
	l := eosLab(t)
	sw := l.EOS("eos-1")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(l.providerHCL()+eosPolicyHCL(153600, `"Ethernet1"`)), 0o600); err != nil {
		t.Fatal(err)
	}
	tf := newTFCLI(t, dir)
	tf.must("init", "-input=false", "-no-color")
	const warning = "! Interface does not exist. The configuration will not take effect until the module is inserted."
	sw.WarnLines("interface Ethernet1", warning)
	out := tf.must("apply", "-auto-approve", "-input=false", "-no-color")
	for _, want := range []string{`Warning: QoS policy "ROCE" on device "eos-1" applied with warnings from the device`,
		`"interface Ethernet1": ` + warning} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("apply output lacks %q:\n%s", want, out)
		}
	}
	sw.WarnLines("", "")
	if out, code := tf.run("plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Errorf("plan after the warned apply: exit %d\n%s", code, out)
	}
}

// Queues without a class keep the platform default: the profile has no block for them (queue 7,
// the control queue, and the unused ones stay strict), and a class removed later loses its
// block.
func TestAccEOSUnusedQueuesUntouched(t *testing.T) {
	l := eosLab(t)
	sw := l.EOS("eos-1")
	withStorage := replaced(t, eosPolicyHCL(153600, `"Ethernet1"`), "    cnp     =",
		"    storage = { traffic_class = 4, dscp = [10], bandwidth_percent = 10 }\n    cnp     =")
	withStorage = replaced(t, withStorage, "bandwidth_percent = 50, lossless", "bandwidth_percent = 40, lossless")
	blocks := func(want ...string) func(*terraform.State) error {
		return func(*terraform.State) error {
			profile := sw.RunningConfig()
			profile = profile[strings.Index(profile, "qos profile ROCE"):]
			profile = profile[:strings.Index(profile, "\n!\n")]
			var got []string
			for _, l := range strings.Split(profile, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "tx-queue") {
					got = append(got, strings.TrimSpace(l))
				}
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				return fmt.Errorf("tx-queue blocks %v, want %v:\n%s", got, want, profile)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{Config: l.providerHCL() + withStorage, Check: blocks("tx-queue 0", "tx-queue 3", "tx-queue 4", "tx-queue 6")},
			{Config: l.providerHCL() + eosPolicyHCL(153600, `"Ethernet1"`), Check: blocks("tx-queue 0", "tx-queue 3", "tx-queue 6")},
		},
	})
}

// A policy and the PFC interface of its port converge in one apply in either order, without
// depends_on, and destroy in either order leaves the switch as it was: they own disjoint lines
// (the profile's no-drop priorities and the port's service-profile; the port's PFC lines).
func TestAccEOSAnyOrder(t *testing.T) {
	l := eosLab(t)
	sw := eosLeaf(l.EOS("eos-1"))
	before := sw.running()
	pfc, policy := unordered(eosPFCHCL("Ethernet1", 200)), eosPolicyHCL(153600, `"Ethernet1"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		CheckDestroy:             sw.restored(before),
		// Every apply is followed by a plan that must be empty.
		Steps: []resource.TestStep{
			{Config: l.providerHCL() + pfc},          // the PFC interface first
			{Config: l.providerHCL() + pfc + policy}, // then the policy, unordered
			{Config: l.providerHCL() + pfc},          // the policy destroyed first
			{Config: l.providerHCL() + policy + pfc},
			{Config: l.providerHCL() + policy}, // the PFC interface destroyed first
		},
	})
}
