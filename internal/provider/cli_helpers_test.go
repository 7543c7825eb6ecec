package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The real Terraform CLI, run as users run it, for what terraform-plugin-testing cannot do:
// local modules (terraform init must install them and the provider: a filesystem mirror) and
// warnings from check blocks.

var (
	mirrorOnce sync.Once
	mirrorDir  string
	mirrorErr  error
)

const mirrorVersion = "0.0.1"

// providerHost is the registry host that `source = "rocefabric/roce"` resolves to:
// registry.terraform.io under Terraform, registry.opentofu.org under OpenTofu. make
// testacc-tofu says so through TF_ACC_PROVIDER_HOST, which terraform-plugin-testing reads too.
func providerHost() string {
	if h := os.Getenv("TF_ACC_PROVIDER_HOST"); h != "" {
		return h
	}
	return "registry.terraform.io"
}

// providerMirror builds the provider once per test binary into a filesystem mirror.
func providerMirror(t *testing.T) string {
	t.Helper()
	mirrorOnce.Do(func() {
		mirrorDir, mirrorErr = os.MkdirTemp("", "roce-mirror") //nolint:usetesting // shared by the tests of this binary
		if mirrorErr != nil {
			return
		}
		bin := filepath.Join(mirrorDir, providerHost(), "rocefabric", "roce", mirrorVersion, "linux_amd64",
			"terraform-provider-roce_v"+mirrorVersion)
		out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput()
		if err != nil {
			mirrorErr = &buildError{err: err, out: string(out)}
		}
	})
	if mirrorErr != nil {
		t.Fatalf("building the provider into a mirror: %v", mirrorErr)
	}
	return mirrorDir
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// tfCLI runs Terraform commands in dir with a CLI configuration that installs rocefabric/roce
// from the mirror.
type tfCLI struct {
	t   *testing.T
	bin string
	dir string
	rc  string
}

func newTFCLI(t *testing.T, dir string) *tfCLI {
	t.Helper()
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if bin == "" {
		t.Fatal("TF_ACC_TERRAFORM_PATH must name the Terraform binary (make test sets it)")
	}
	mirror := providerMirror(t)
	rc := filepath.Join(t.TempDir(), "terraformrc")
	addr := providerHost() + "/rocefabric/roce"
	conf := `provider_installation {
  filesystem_mirror {
    path    = "` + mirror + `"
    include = ["` + addr + `"]
  }
  direct {
    exclude = ["` + addr + `"]
  }
}
`
	if err := os.WriteFile(rc, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return &tfCLI{t: t, bin: bin, dir: dir, rc: rc}
}

// run returns the combined output and the exit code.
func (c *tfCLI) run(args ...string) (string, int) {
	c.t.Helper()
	cmd := exec.Command(c.bin, append([]string{"-chdir=" + c.dir}, args...)...)
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+c.rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		c.t.Fatalf("terraform %v: %v", args, err)
	}
	return string(out), 0
}

// must runs a command that has to succeed.
func (c *tfCLI) must(args ...string) string {
	c.t.Helper()
	out, code := c.run(args...)
	if code != 0 {
		c.t.Fatalf("terraform %v exited %d:\n%s", args, code, out)
	}
	return out
}

// emptyPlan runs `terraform plan -detailed-exitcode` with args (a -var, say) and, unless the
// plan is empty (exit 0), reports through fail, saying when the plan ran: t.Fatalf where what
// follows means nothing on a plan with changes, t.Errorf where the test's further checks stand
// on their own. It returns the plan's output.
func (c *tfCLI) emptyPlan(fail func(format string, args ...any), when string, args ...string) string {
	c.t.Helper()
	out, code := c.run(append([]string{"plan", "-detailed-exitcode", "-input=false", "-no-color"}, args...)...)
	if code != 0 {
		fail("%s: the plan must be empty (exit 0), got %d:\n%s", when, code, out)
	}
	return out
}

// examplePath is the absolute path of examples/<elem...>: a guide's directory, or a module's,
// which a module block's source may name.
func examplePath(t *testing.T, elem ...string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join(append([]string{"..", "..", "examples"}, elem...)...))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// exampleCLI is the real CLI, initialised, in a fresh directory whose main.tf is the example
// file at path (below examples/): the example as users run it.
func exampleCLI(t *testing.T, path ...string) *tfCLI {
	t.Helper()
	src, err := os.ReadFile(examplePath(t, path...))
	if err != nil {
		t.Fatal(err)
	}
	return mainCLI(t, string(src))
}

// mainCLI is the real CLI, initialised, in a fresh directory whose main.tf is cfg.
func mainCLI(t *testing.T, cfg string) *tfCLI {
	t.Helper()
	dir := t.TempDir()
	writeMain(t, dir, cfg)
	return initCLI(t, dir)
}

// initCLI is the real CLI in dir, initialised: terraform init has installed dir's modules and
// the provider from the mirror.
func initCLI(t *testing.T, dir string) *tfCLI {
	t.Helper()
	tf := newTFCLI(t, dir)
	tf.must("init", "-input=false", "-no-color")
	return tf
}
