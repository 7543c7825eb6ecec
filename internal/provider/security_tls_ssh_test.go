package provider

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	xssh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// otherCAPEM is a CA certificate that signed nothing in the lab.
func otherCAPEM(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "not the lab CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// otherHostKey is an SSH public key no lab device has.
func otherHostKey(t *testing.T) xssh.PublicKey {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, err := xssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func authorizedKey(k xssh.PublicKey) string {
	return strings.TrimSpace(string(xssh.MarshalAuthorizedKey(k)))
}

// fingerprintOf is the SHA256 fingerprint of a device's real host key (inventory host_key).
func fingerprintOf(t *testing.T, l *accLab, device string) string {
	t.Helper()
	k, _, _, _, err := xssh.ParseAuthorizedKey([]byte(l.Inventory().Devices[device].HostKey))
	if err != nil {
		t.Fatal(err)
	}
	return xssh.FingerprintSHA256(k)
}

// flat is CLI output with Terraform's diagnostic frame (│) and line wrapping undone.
func flat(out string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(out, "│", " ")), " ")
}

// secPolicyHCL is a minimal roce_qos_policy every switch platform accepts.
func secPolicyHCL(name, device, port string) string {
	return fmt.Sprintf(`
resource "roce_qos_policy" %q {
  device = %q
  classes = {
    roce    = { traffic_class = 3, dscp = [26], bandwidth_percent = 50 }
    default = { traffic_class = 0, dscp = [0], bandwidth_percent = 50 }
  }
  interfaces = [%q]
}
`, name, device, port)
}

// secNICHCL is a minimal roce_nic_qos.
func secNICHCL(name, device string) string {
	return fmt.Sprintf(`
resource "roce_nic_qos" %q {
  device           = %q
  interface        = "eth0"
  pfc_priorities   = [3]
  dscp_to_priority = { "26" = 3 }
}
`, name, device)
}

// mustFailClosed runs apply, which must fail naming every device with want(device), and then
// checks that no device ran a request and that the state holds nothing.
func mustFailClosed(t *testing.T, l *accLab, tf *tfCLI, want func(device string) []string, devs ...string) {
	t.Helper()
	l.ResetAllCounters()
	out, code := tf.run("apply", "-auto-approve", "-input=false", "-no-color")
	if code == 0 {
		t.Fatalf("apply must fail:\n%s", out)
	}
	text := flat(out)
	for _, d := range devs {
		for _, w := range want(d) {
			if !strings.Contains(text, w) {
				t.Errorf("the error for %s must say %q:\n%s", d, w, out)
			}
		}
		if c, _ := l.DeviceCounters(d); c.Requests != 0 {
			t.Errorf("%s received %d requests over a connection it was not verified on", d, c.Requests)
		}
	}
	if st := tf.must("show", "-json", "-no-color"); strings.Contains(st, `"resources"`) {
		t.Errorf("the state must hold nothing:\n%s", st)
	}
}

// TestAccSecurityWrongCA: a TLS switch (openconfig, sonic over gNMI, cumulus over NVUE's HTTPS)
// whose certificate the configured CA did not sign is refused: apply fails naming the device and
// the certificate problem, the switch receives no request at all (so no write), and nothing
// enters the state. Per device, provider
// wide, and with no CA at all (the system roots).
func TestAccSecurityWrongCA(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"openconfig": 1, "sonic": 1, "cumulus": 1}})
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "other-ca.pem"), otherCAPEM(t))
	resources := secPolicyHCL("oc", "openconfig-1", l.Inventory().Interfaces["openconfig-1"][0]) +
		secPolicyHCL("sonic", "sonic-1", l.Inventory().Interfaces["sonic-1"][0]) +
		secPolicyHCL("cumulus", "cumulus-1", "swp1")
	want := func(d string) []string {
		return []string{fmt.Sprintf("device %q (%s)", d, l.Inventory().Devices[d].Address), "x509: certificate signed by unknown authority"}
	}
	for _, c := range []struct{ name, devices, attrs string }{
		{"another CA on the device and provider-wide", `{
    "openconfig-1" = merge(local.inv["openconfig-1"], { ca_certificate = file("${path.module}/other-ca.pem") })
    "sonic-1"      = merge(local.inv["sonic-1"], { ca_certificate = null })
    "cumulus-1"    = merge(local.inv["cumulus-1"], { ca_certificate = file("${path.module}/other-ca.pem") })
  }`, `ca_certificate = file("${path.module}/other-ca.pem")`},
		{"no CA: the system roots", `{ for k, v in local.inv : k => merge(v, { ca_certificate = null }) }`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeMain(t, dir, l.providerWith(c.devices, c.attrs)+resources)
			tf := initCLI(t, dir)
			mustFailClosed(t, l, tf, want, "openconfig-1", "sonic-1", "cumulus-1")
			if s := l.Switch("openconfig-1").Counters().Set + l.SONiC("sonic-1").Counters().Set; s != 0 {
				t.Errorf("the switches received %d Set RPCs", s)
			}
		})
	}
}

// TestAccSecurityHostKeyMismatch: an SSH device (mlx5 host, eos and nxos switches) presenting
// another key than the pinned host_key, or than known_hosts_file has for its address, is
// refused: apply fails naming the device and the SHA256 fingerprint of the key it presented, no
// command runs (the lab counts none after the handshake), nothing enters the state. A pinned
// host_key on eos is TestAccEOSHostKeyMismatch (eos_test.go).
func TestAccSecurityHostKeyMismatch(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"eos": 1, "nxos": 1}, Hosts: map[string]int{"mlx5": 1}})
	dir := t.TempDir()
	wrong := otherHostKey(t)
	var known strings.Builder
	for _, d := range []string{"eos-1", "nxos-1", "mlx5-1"} {
		known.WriteString(knownhosts.Line([]string{knownhosts.Normalize(l.Inventory().Devices[d].Address)}, wrong) + "\n")
	}
	writeFile(t, filepath.Join(dir, "known_hosts"), known.String())
	resources := map[string]string{"mlx5-1": secNICHCL("gpu", "mlx5-1"), "eos-1": secPolicyHCL("eos", "eos-1", "Ethernet1"),
		"nxos-1": secPolicyHCL("nxos", "nxos-1", "Ethernet1/1")}
	for _, c := range []struct {
		name, devices, attrs, why string
		on                        []string
	}{
		{"pinned host_key", fmt.Sprintf(`{ for k, v in local.inv : k => merge(v, { host_key = %q }) }`, authorizedKey(wrong)), "",
			"which is not the pinned host_key (ssh-ed25519 " + xssh.FingerprintSHA256(wrong) + ")", []string{"mlx5-1", "nxos-1"}},
		{"known_hosts_file", `{ for k, v in local.inv : k => merge(v, { host_key = null }) }`, fmt.Sprintf("known_hosts_file = %q", filepath.Join(dir, "known_hosts")),
			"but known_hosts_file " + filepath.Join(dir, "known_hosts") + " has ssh-ed25519 " + xssh.FingerprintSHA256(wrong), []string{"mlx5-1", "eos-1", "nxos-1"}},
	} {
		for _, d := range c.on {
			t.Run(c.name+"/"+d, func(t *testing.T) {
				// One device per run: a host is checked at plan time, a switch at apply.
				sub := filepath.Join(dir, c.name+"-"+d)
				if err := os.Mkdir(sub, 0o750); err != nil {
					t.Fatal(err)
				}
				writeMain(t, sub, l.providerWith(c.devices, c.attrs)+resources[d])
				tf := initCLI(t, sub)
				mustFailClosed(t, l, tf, func(d string) []string {
					return []string{fmt.Sprintf("device %q (%s)", d, l.Inventory().Devices[d].Address),
						"host key mismatch: the host presented ssh-ed25519 " + fingerprintOf(t, l, d), c.why}
				}, d)
			})
		}
	}
}

// TestAccSecurityInsecureWarns: insecure = true, provider-wide or on one device, makes plan and
// apply warn naming exactly the devices whose identity is not verified, and still works: the
// devices are configured although their CA and host keys are wrong.
func TestAccSecurityInsecureWarns(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"sonic": 1, "eos": 1}, Hosts: map[string]int{"mlx5": 1}})
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "other-ca.pem"), otherCAPEM(t))
	wrong := fmt.Sprintf(`{ for k, v in local.inv : k => merge(v, v.platform == "sonic" ? { ca_certificate = file("${path.module}/other-ca.pem") } : { host_key = %q }) }`,
		authorizedKey(otherHostKey(t)))
	resources := secPolicyHCL("sonic", "sonic-1", "Ethernet0") + secPolicyHCL("eos", "eos-1", "Ethernet1") + secNICHCL("gpu", "mlx5-1")
	const summary = "Warning: Device identity verification is off"
	for _, c := range []struct{ name, devices, attrs, named string }{
		{"provider-wide", wrong, "insecure = true\n  insecure_host_key = true", "= true for eos-1, mlx5-1, sonic-1:"},
		{"TLS only", `merge(local.inv, { "sonic-1" = merge(local.inv["sonic-1"], { ca_certificate = file("${path.module}/other-ca.pem") }) })`,
			"insecure = true", "= true for sonic-1:"},
		{"one device", fmt.Sprintf(`merge(local.inv, { "mlx5-1" = merge(local.inv["mlx5-1"], { host_key = %q, insecure_host_key = true }) })`,
			authorizedKey(otherHostKey(t))), "", "= true for mlx5-1:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeMain(t, dir, l.providerWith(c.devices, c.attrs)+resources)
			tf := initCLI(t, dir)
			for _, args := range [][]string{{"plan", "-input=false", "-no-color"}, {"apply", "-auto-approve", "-input=false", "-no-color"}} {
				text := flat(tf.must(args...))
				if !strings.Contains(text, summary) || !strings.Contains(text, c.named) {
					t.Errorf("terraform %s must warn %q naming the devices (%q):\n%s", args[0], summary, c.named, text)
				}
			}
			if st := tf.must("state", "list"); strings.Count(st, "roce_") != 3 {
				t.Errorf("apply must still configure every device, state:\n%s", st)
			}
			tf.must("destroy", "-auto-approve", "-input=false", "-no-color")
		})
	}
}
