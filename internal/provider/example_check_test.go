package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// examples/check is run as users run it: the real Terraform CLI, the provider binary through
// dev_overrides, the lab's inventory. Its check blocks must stay quiet on a healthy port and
// warn (without failing the plan) while the port receives a PFC pause storm.
func TestAccExampleCheckWarnsOnStorm(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{}, Hosts: map[string]int{"mlx5": 1}})
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tf == "" {
		t.Fatal("TF_ACC_TERRAFORM_PATH must name the Terraform binary (make test sets it)")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-roce"), "../..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	rc := filepath.Join(work, "terraformrc")
	if err := os.WriteFile(rc, []byte(`provider_installation {
  dev_overrides { "rocefabric/roce" = "`+bin+`" }
  direct {}
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("../../examples/check/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(work, "check")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), src, 0o600); err != nil {
		t.Fatal(err)
	}
	plan := func() string {
		t.Helper()
		cmd := exec.Command(tf, "-chdir="+dir, "plan", "-no-color", "-input=false",
			"-var", "inventory="+filepath.Join(l.dir, lab.InventoryFile))
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("terraform plan failed (a check must warn, not fail): %v\n%s", err, out)
		}
		return string(out)
	}
	// The port runs RoCE with PFC on priority 3, as roce_nic_qos would leave it.
	if out, errOut, status := l.Host("mlx5-1").Run("sudo -n mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0"); status != 0 {
		t.Fatalf("enabling PFC: %s%s", out, errOut)
	}
	if out := plan(); strings.Contains(out, "Check block assertion failed") {
		t.Fatalf("a healthy port must not warn:\n%s", out)
	}
	if err := l.Host("mlx5-1").Storm("eth0", true); err != nil {
		t.Fatal(err)
	}
	out := plan()
	for _, want := range []string{"Warning: Check block assertion failed", "PFC pause storm on mlx5-1 eth0"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan output lacks %q:\n%s", want, out)
		}
	}
}
