package provider

// The provider's security guarantees, in one place. Each test drives the real Terraform CLI
// (tfCLI: the provider binary installed from a filesystem mirror, as users install it) against
// the lab wherever the guarantee is about what Terraform shows, logs or stores:
//
//   - TestAccSecurityWrongCA: a gNMI switch whose certificate the configured CA did not sign is
//     refused before any RPC (security_tls_ssh_test.go).
//   - TestAccSecurityHostKeyMismatch: an SSH device presenting another host key than the pinned
//     host_key or the known_hosts_file entry is refused, naming the presented key's SHA256
//     fingerprint, before any command runs (security_tls_ssh_test.go).
//   - TestAccSecurityInsecureWarns: insecure = true, provider-wide or per device, warns on plan
//     and apply naming the devices, and still works (security_tls_ssh_test.go).
//   - TestAccSecuritySecretsNeverShown: passwords and private keys appear neither in the
//     TF_LOG=TRACE log nor in the state, `show -json` or plan output (security_secrets_test.go).
//   - TestAccSecurityHostileStrings: every attribute that reaches a CLI or shell refuses
//     hostile strings at plan time, on the attribute, before any device is contacted (here).
//   - TestSecurityAnchoredPatterns: every input validator is a regexp anchored at both ends, and
//     refuses the hostile strings (here).
//   - TestSecurityShellQuoting: the mlx5 scripts quote names even a caller forgot to validate,
//     checked with the real /bin/sh (here).

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// hostileNames are strings that would change the meaning of a CLI line or a shell command if
// they reached one unvalidated: a second line, a command separator, a pipe, an EOS or NX-OS
// comment, substitutions, quotes, escapes, blanks, options, globs and Unicode look-alikes of
// allowed characters.
var hostileNames = []string{
	"Ethernet1\nreload now",
	"Ethernet1\r\nreload",
	"Ethernet1;reload",
	"Ethernet1 ; reload",
	"Ethernet1|json",
	"Ethernet1 | include x",
	"ROCE!x",
	"#Ethernet1",
	"Ethernet1 #x",
	"eth0`touch pwned`",
	"eth0$(touch pwned)",
	"eth0${IFS}x",
	`eth0"x`,
	"eth0'x",
	`eth0\x`,
	"eth0 x",
	"eth0\t",
	"eth0&x",
	"eth0>x",
	"eth0<x",
	"eth0*",
	"eth0?",
	"~root",
	"../eth0",
	"-oProxyCommand=x",
	"--help",
	"\u0415thernet1",   // Cyrillic capital IE for the E
	"eth\uff10",        // fullwidth digit zero
	"eth0\uff1breload", // fullwidth semicolon
	"eth0\u200b",       // zero-width space
	"eth0\u202ex",      // right-to-left override
	"Ethernet1\u00a0x", // no-break space
}

// tooLong are names of allowed characters, longer than any device allows (the validators check
// lengths apart from the patterns).
var tooLong = []string{strings.Repeat("a", 300), "Ethernet" + strings.Repeat("1", 100)}

func allHostile() []string { return append(slices.Clone(hostileNames), tooLong...) }

// hostileJSON is allHostile() as a JSON object keyed by index, for for_each: the instance
// keys ("0", "1", ...) are plain, so diagnostics name them without escaping.
func hostileJSON(t *testing.T) string {
	t.Helper()
	m := map[string]string{}
	for i, s := range allHostile() {
		m[fmt.Sprint(i)] = s
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hostileHCL puts every hostile string into every attribute that reaches a CLI line or a shell
// command: policy, class and port names on both CLI switches, the PFC port, the NIC netdev
// (roce_nic_qos, roce_dcqcn_profile, roce_interface_counters) and the device name.
const hostileHCL = `
locals {
  hostile = jsondecode(file("${path.module}/hostile.json"))
  # One instance per CLI switch and hostile string, keyed "<device>/<index>".
  on_switches = { for p in setproduct(["eos-1", "nxos-1"], keys(local.hostile)) : "${p[0]}/${p[1]}" => { device = p[0], value = local.hostile[p[1]] } }
}

resource "roce_qos_policy" "name" {
  for_each   = local.on_switches
  device     = each.value.device
  name       = each.value.value
  classes    = { roce = { traffic_class = 3, dscp = [26], bandwidth_percent = 100 } }
}

resource "roce_qos_policy" "class" {
  for_each   = local.on_switches
  device     = each.value.device
  classes    = { (each.value.value) = { traffic_class = 3, dscp = [26], bandwidth_percent = 100 } }
}

resource "roce_qos_policy" "port" {
  for_each   = local.on_switches
  device     = each.value.device
  classes    = { roce = { traffic_class = 3, dscp = [26], bandwidth_percent = 100 } }
  interfaces = [each.value.value]
}

resource "roce_pfc_interface" "port" {
  for_each  = local.on_switches
  device    = each.value.device
  interface = each.value.value
}

resource "roce_nic_qos" "netdev" {
  for_each         = local.hostile
  device           = "mlx5-1"
  interface        = each.value
  pfc_priorities   = [3]
  dscp_to_priority = { "26" = 3 }
}

resource "roce_dcqcn_profile" "netdev" {
  for_each   = local.hostile
  device     = "mlx5-1"
  interface  = each.value
  priorities = [3]
}

data "roce_interface_counters" "netdev" {
  for_each  = local.hostile
  device    = "mlx5-1"
  interface = each.value
}

resource "roce_pfc_interface" "device" {
  for_each  = local.hostile
  device    = each.value
  interface = "Ethernet1"
}
`

// hostileMapsHCL puts every hostile string into the keys of the map resources' interfaces:
// the switch ones, then the host ones. The keys are known when Terraform validates the
// configuration (each.value above is not), so the host resources' validation errors would stop
// the plan before the switch ones are planned: each is planned apart.
var hostileMapsHCL = [][2]string{
	{`
resource "roce_pfc_interfaces" "port" {
  for_each   = toset(["eos-1", "nxos-1"])
  device     = each.value
  interfaces = { for k, v in local.hostile : v => {} }
}
`, `roce_pfc_interfaces.port`},
	{`
resource "roce_nic_qos_interfaces" "netdev" {
  device     = "mlx5-1"
  interfaces = { for k, v in local.hostile : v => { pfc_priorities = [3], dscp_to_priority = { "26" = 3 } } }
}

resource "roce_dcqcn_interfaces" "netdev" {
  device     = "mlx5-1"
  interfaces = { for k, v in local.hostile : v => { priorities = [3] } }
}
`, "roce_nic_qos_interfaces.netdev roce_dcqcn_interfaces.netdev"},
}

// providerWith is providerHCL with another devices expression and extra provider attributes;
// local.inv is the lab inventory's devices map.
func (l *accLab) providerWith(devices string, attrs ...string) string {
	return requiredProvidersHCL + fmt.Sprintf(`
locals {
  inv = jsondecode(file(%q)).devices
}

provider "roce" {
  timeout = "10s"
  retries = 1
  %s
  devices = %s
}
`, filepath.Join(l.dir, lab.InventoryFile), strings.Join(attrs, "\n  "), devices)
}

// tfDiag is one diagnostic of `terraform plan -json` (Terraform and OpenTofu print the same).
type tfDiag struct {
	Severity, Summary, Detail, Address string
	Snippet                            *struct{ Code string }
}

// jsonDiags returns the diagnostics of a -json run's output.
func jsonDiags(out string) []tfDiag {
	var ds []tfDiag
	for _, line := range strings.Split(out, "\n") {
		var msg struct {
			Type       string
			Diagnostic tfDiag
		}
		if json.Unmarshal([]byte(line), &msg) == nil && msg.Type == "diagnostic" {
			ds = append(ds, msg.Diagnostic)
		}
	}
	return ds
}

func summaries(ds []tfDiag) string {
	var out []string
	for _, d := range ds {
		code := ""
		if d.Snippet != nil {
			code = strings.TrimSpace(d.Snippet.Code)
		}
		out = append(out, fmt.Sprintf("%s %q at %q: %s", d.Severity, d.Summary, code, d.Detail))
	}
	return strings.Join(out, "\n")
}

// noRequests fails the test if any lab device received a connection or a request.
func noRequests(t *testing.T, l *accLab, when string) {
	t.Helper()
	for _, name := range l.Devices() {
		if c, _ := l.DeviceCounters(name); c.Connections != 0 || c.Requests != 0 {
			t.Errorf("%s: device %s received %d connections and %d requests; it must receive none", when, name, c.Connections, c.Requests)
		}
	}
}

// TestAccSecurityHostileStrings: a plan with hostile strings in every attribute that reaches a
// CLI or shell fails with an error on every instance, pointing at the attribute, and no device
// receives a connection. Device names with them fail the provider configuration on `devices`.
func TestAccSecurityHostileStrings(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"eos": 1, "nxos": 1}, Hosts: map[string]int{"mlx5": 1}})
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "hostile.json"), hostileJSON(t))
	writeMain(t, dir, l.providerHCL()+hostileHCL)
	tf := initCLI(t, dir)
	out, code := tf.run("plan", "-input=false", "-no-color", "-json")
	if code != 1 {
		t.Fatalf("the plan must fail (exit 1), got %d:\n%s", code, out)
	}
	byAddr := map[string][]tfDiag{}
	for _, d := range jsonDiags(out) {
		if d.Severity != "error" {
			t.Errorf("unexpected %s: %s: %s", d.Severity, d.Summary, d.Detail)
		}
		byAddr[d.Address] = append(byAddr[d.Address], d)
	}
	// Each instance's error is attached to the attribute holding the hostile string: Terraform
	// shows that attribute's line.
	onAttr := func(attr string) func(tfDiag) bool {
		return func(d tfDiag) bool {
			return d.Snippet != nil && strings.HasPrefix(strings.TrimSpace(d.Snippet.Code), attr+" ")
		}
	}
	check := func(addr, what string, ok func(tfDiag) bool) {
		t.Helper()
		if !slices.ContainsFunc(byAddr[addr], ok) {
			t.Errorf("%s: no error on %s; got %s", addr, what, summaries(byAddr[addr]))
		}
	}
	for i := range allHostile() {
		for _, sw := range []string{"eos-1", "nxos-1"} {
			key := fmt.Sprintf(`["%s/%d"]`, sw, i)
			check("roce_qos_policy.name"+key, "name", onAttr("name"))
			check("roce_qos_policy.class"+key, "classes", onAttr("classes"))
			check("roce_qos_policy.port"+key, "interfaces", onAttr("interfaces"))
			check("roce_pfc_interface.port"+key, "interface", onAttr("interface"))
		}
		key := fmt.Sprintf(`["%d"]`, i)
		check("roce_nic_qos.netdev"+key, "interface", onAttr("interface"))
		check("roce_dcqcn_profile.netdev"+key, "interface", onAttr("interface"))
		check("roce_pfc_interface.device"+key, "device", onAttr("device"))
		check("data.roce_interface_counters.netdev"+key, "interface", onAttr("interface"))
	}
	noRequests(t, l, "plan with hostile names")

	// The same strings as the keys of the map resources' interfaces: an error on each entry
	// that names it (the CLI points at the map, not inside it). The keys are known when
	// Terraform validates the configuration, so the key's own check (the schema's, reported
	// on the resource, not on an instance) names it in its summary; an entry's other mistakes
	// are named in their detail.
	for _, c := range hostileMapsHCL {
		writeMain(t, dir, l.providerHCL()+`
locals {
  hostile = jsondecode(file("${path.module}/hostile.json"))
}
`+c[0])
		out, code = tf.run("plan", "-input=false", "-no-color", "-json")
		if code != 1 {
			t.Fatalf("the plan must fail (exit 1), got %d:\n%s", code, out)
		}
		byAddr = map[string][]tfDiag{}
		for _, d := range jsonDiags(out) {
			byAddr[d.Address] = append(byAddr[d.Address], d)
		}
		for _, name := range allHostile() {
			onEntry := func(d tfDiag) bool {
				return d.Severity == "error" && (strings.HasPrefix(d.Detail, "Interface "+strconv.Quote(name)+": ") ||
					strings.Contains(d.Summary+d.Detail, strconv.Quote(name)))
			}
			for _, addr := range strings.Fields(c[1]) {
				check(addr, fmt.Sprintf("entry %q", name), onEntry)
			}
		}
	}
	noRequests(t, l, "plan with hostile interface keys")

	// Hostile device names in the provider's devices map (the names are keys only, but they
	// name devices in messages and import IDs): the provider configuration fails on devices.
	writeMain(t, dir, l.providerWith(`merge(local.inv, { for k, v in local.hostile : v => local.inv["eos-1"] })`)+`
locals {
  hostile = jsondecode(file("${path.module}/hostile.json"))
}

resource "roce_pfc_interface" "x" {
  device    = "eos-1"
  interface = "Ethernet1"
}
`)
	out, code = tf.run("plan", "-input=false", "-no-color", "-json")
	if code != 1 {
		t.Fatalf("the plan must fail (exit 1), got %d:\n%s", code, out)
	}
	ds := jsonDiags(out)
	for _, name := range allHostile() {
		want := "Attribute devices[" + strconv.Quote(name) + "] must start with a letter or digit"
		if !slices.ContainsFunc(ds, func(d tfDiag) bool { return strings.Contains(d.Detail, want) }) {
			t.Errorf("no error on devices[%q]; got %s", name, summaries(ds))
		}
	}
	noRequests(t, l, "plan with hostile device names")
}
