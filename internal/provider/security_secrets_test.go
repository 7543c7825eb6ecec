package provider

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	xssh "golang.org/x/crypto/ssh"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// newPrivateKeyPEM returns an unencrypted client key: OpenSSH format for ed25519, PKCS#8 for RSA.
func newPrivateKeyPEM(t *testing.T, typ string) string {
	t.Helper()
	var block *pem.Block
	switch typ {
	case "ed25519":
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if block, err = xssh.MarshalPrivateKey(priv, ""); err != nil {
			t.Fatal(err)
		}
	default:
		priv, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		der, err := x509.MarshalPKCS8PrivateKey(priv)
		if err != nil {
			t.Fatal(err)
		}
		block = &pem.Block{Type: "PRIVATE KEY", Bytes: der}
	}
	return string(pem.EncodeToMemory(block))
}

// secretForms are the ways a secret could show up in text: itself, base64, hex, and a Go
// []byte rendering (a transport Config printed with %v).
func secretForms(s string) []string {
	b := []byte(s)
	if len(b) > 24 {
		b = b[len(b)/2-12 : len(b)/2+12]
	}
	return []string{s, base64.StdEncoding.EncodeToString([]byte(s)), hex.EncodeToString([]byte(s)),
		strings.Trim(fmt.Sprintf("%d", b), "[]")}
}

// secret is what must never appear of one secret: whole forms, and 16-character runs.
type secret struct {
	forms []string
	runs  map[string]bool
}

// keySecret is a PEM private key: its forms, and every 16-character run of every body line
// except runs that another key of the same type has too (format constants such as
// "b3BlbnNzaC1rZXkt", base64 of "openssh-key-").
func keySecret(t *testing.T, key, typ string) secret {
	t.Helper()
	runs := func(k string) map[string]bool {
		out := map[string]bool{}
		for _, line := range strings.Split(k, "\n") {
			for i := 0; !strings.HasPrefix(line, "-----") && i+16 <= len(line); i++ {
				out[line[i:i+16]] = true
			}
		}
		return out
	}
	s := secret{forms: secretForms(key), runs: runs(key)}
	for r := range runs(newPrivateKeyPEM(t, typ)) {
		delete(s.runs, r)
	}
	return s
}

// find returns the first form or run of s in text, and where.
func (s secret) find(text string) (string, int) {
	for _, f := range s.forms {
		if i := strings.Index(text, f); i >= 0 {
			return f, i
		}
	}
	for i := 0; i+16 <= len(text); i++ {
		if s.runs[text[i:i+16]] {
			return text[i : i+16], i
		}
	}
	return "", -1
}

// TestAccSecuritySecretsNeverShown: a full apply, plan and destroy against every platform,
// with TF_LOG=TRACE: passwords (in the configuration, then from ROCE_PASSWORD) and private
// keys (OpenSSH ed25519 on an mlx5 host, PKCS#8 RSA on an eos switch, in the configuration,
// then from ROCE_PRIVATE_KEY) appear neither in the log, nor in terraform.tfstate, `terraform
// show -json` or any command's output, also when the key is all a device has and
// authentication fails. The lab's devices take passwords only: the keys are parsed and carried
// by the provider and transports, and offered where the device takes them.
func TestAccSecuritySecretsNeverShown(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"openconfig": 1, "sonic": 1, "eos": 2, "nxos": 1, "cumulus": 1},
		Hosts: map[string]int{"mlx5": 2}})
	inv := l.Inventory()
	password := inv.Devices["eos-1"].Password
	edKey, rsaKey := newPrivateKeyPEM(t, "ed25519"), newPrivateKeyPEM(t, "rsa")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "id_ed25519"), edKey)
	writeFile(t, filepath.Join(dir, "id_rsa"), rsaKey)
	logPath := filepath.Join(t.TempDir(), "trace.log")
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH", logPath)

	var resources strings.Builder
	for _, d := range []string{"openconfig-1", "sonic-1", "eos-1", "eos-2", "nxos-1", "cumulus-1"} {
		resources.WriteString(secPolicyHCL(d, d, inv.Interfaces[d][0]))
	}
	resources.WriteString(secNICHCL("mlx5-1", "mlx5-1") + secNICHCL("mlx5-2", "mlx5-2") + `
data "roce_interface_counters" "gpu" {
  device    = "mlx5-1"
  interface = "eth0"
}

data "roce_interface_counters" "oc" {
  device    = "openconfig-1"
  interface = "` + inv.Interfaces["openconfig-1"][0] + `"
}
`)
	keys := `{
    "mlx5-2" = merge(local.inv["mlx5-2"], { private_key = file("${path.module}/id_ed25519") })
    "eos-2"  = merge(local.inv["eos-2"], { private_key = file("${path.module}/id_rsa") })
  }`
	var shown []string // every output, state and show -json to search
	lifecycle := func(t *testing.T, cfg string) {
		t.Helper()
		writeMain(t, dir, cfg+resources.String())
		tf := newTFCLI(t, dir)
		shown = append(shown, tf.must("init", "-input=false", "-no-color"),
			tf.must("plan", "-input=false", "-no-color"),
			tf.must("apply", "-auto-approve", "-input=false", "-no-color"))
		shown = append(shown, tf.emptyPlan(t.Fatalf, "after apply"), tf.must("show", "-json", "-no-color"), tf.must("state", "pull"),
			string(mustRead(t, filepath.Join(dir, "terraform.tfstate"))),
			tf.must("destroy", "-auto-approve", "-input=false", "-no-color"))
	}
	t.Run("credentials in the configuration", func(t *testing.T) {
		lifecycle(t, l.providerWith(`merge(local.inv, `+keys+`)`))
	})
	t.Run("credentials from ROCE_PASSWORD and ROCE_PRIVATE_KEY", func(t *testing.T) {
		t.Setenv("ROCE_PASSWORD", password)
		t.Setenv("ROCE_PRIVATE_KEY", rsaKey)
		lifecycle(t, l.providerWith(`{ for k, v in local.inv : k => merge(v, { password = null }) }`))
	})
	t.Run("a key the device refuses", func(t *testing.T) {
		// Only the key: authentication fails, and says so without the key.
		tf := newTFCLI(t, dir)
		for d, res := range map[string]string{"mlx5-2": secNICHCL("mlx5-2", "mlx5-2"), "eos-2": secPolicyHCL("eos", "eos-2", "Ethernet1")} {
			writeMain(t, dir, l.providerWith(`{ for k, v in `+keys+` : k => merge(v, { password = "" }) }`)+res)
			out, code := tf.run("apply", "-auto-approve", "-input=false", "-no-color")
			if code == 0 || !strings.Contains(flat(out), fmt.Sprintf("authentication as %q failed", inv.Devices[d].Username)) {
				t.Errorf("%s: apply with a refused key must fail saying authentication failed:\n%s", d, out)
			}
			shown = append(shown, out, tf.must("show", "-json", "-no-color"))
		}
	})

	log := string(mustRead(t, logPath))
	// The log is worth searching: TRACE was on, and it holds our transports' events for every
	// device (gNMI RPCs, SSH commands, CLI lines), with their addresses.
	for _, want := range []string{"[TRACE] provider.terraform-provider-roce", "@module=roce.gnmi", "@module=roce.ssh", "@module=roce.cli",
		"@module=roce.nvue", "gNMI set", "CLI configure", "SSH run", "nvue revision ended",
		// Every CRUD operation logs itself with the resource type, device and platform.
		"roce create started", "roce read done", "roce delete done", "resource_type=roce_nic_qos", "platform=mlx5", "platform=sonic"} {
		if !strings.Contains(log, want) {
			t.Errorf("the TF_LOG=TRACE log has no %q; the test would prove nothing", want)
		}
	}
	// Each request prepared its transports' subsystems (with their masks) before any event:
	// tflog made none on demand, which it does unmasked and marks so.
	if strings.Contains(log, "new_logger_warning") {
		t.Errorf("a transport event was logged under a subsystem the request had not prepared (withTransportLogs)")
	}
	for name, d := range inv.Devices {
		if !strings.Contains(log, "address="+d.Address) || !regexp.MustCompile(`(?m)device=`+regexp.QuoteMeta(name)+`(\s|$)`).MatchString(log) {
			t.Errorf("the log has no transport event of %s (%s)", name, d.Address)
		}
	}
	secrets := map[string]secret{"password": {forms: secretForms(password)},
		"ed25519 key": keySecret(t, edKey, "ed25519"), "RSA key": keySecret(t, rsaKey, "rsa")}
	where := map[string]string{"the TF_LOG=TRACE log": log}
	for i, s := range shown {
		where[fmt.Sprintf("output, state or show -json #%d", i)] = s
	}
	for what, s := range secrets {
		for place, text := range where {
			if f, i := s.find(text); i >= 0 {
				t.Errorf("the %s appears in %s (%q): ...%s...", what, place, f, text[max(0, i-300):min(len(text), i+len(f)+100)])
			}
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
