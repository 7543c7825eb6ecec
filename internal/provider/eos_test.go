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

func eosLeaf(sw *lab.EOSSwitch) cliLeaf {
	return cliLeaf{sw: sw, device: "eos-1", running: sw.RunningConfig, blockOf: section, leftover: "configuration sessions",
		leftovers: sessionNames(sw), policy: eosPolicyHCL, pfc: eosPFCHCL, port: "Ethernet1", platform: "eos"}
}

// eosPolicyHCL is the contract's example policy, the roce class lossless, on EOS ports.
func eosPolicyHCL(ecnMin int, ports string) string { return leafPolicyHCL("eos-1", ecnMin, ports) }

// eosPFCHCL is the port's PFC with a watchdog that detects a storm after detection ms.
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

func TestAccEOSHostKeyMismatch(t *testing.T) {
	l := switchLab(t, "eos")
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
	l := switchLab(t, "eos")
	sw := l.EOS("eos-1")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(l.providerHCL()+eosPolicyHCL(153600, `"Ethernet1"`)), 0o600); err != nil {
		t.Fatal(err)
	}
	tf := initCLI(t, dir)
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
	tf.emptyPlan(t.Errorf, "after the warned apply")
}

// Queues without a class keep the platform default: the profile has no block for them (queue 7,
// the control queue, and the unused ones stay strict), and a class removed later loses its
// block.
func TestAccEOSUnusedQueuesUntouched(t *testing.T) {
	l := switchLab(t, "eos")
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
	l := switchLab(t, "eos")
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
