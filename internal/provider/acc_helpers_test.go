package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

func TestMain(m *testing.M) {
	// The makefile sets these; set them too when someone runs `go test` by hand, so the
	// provider is addressed as rocefabric/roce and a missing ~/.terraformrc does not matter.
	if os.Getenv("TF_ACC_PROVIDER_NAMESPACE") == "" {
		_ = os.Setenv("TF_ACC_PROVIDER_NAMESPACE", "rocefabric")
	}
	if f := os.Getenv("TF_CLI_CONFIG_FILE"); f != "" {
		if _, err := os.Stat(f); err != nil {
			abs, _ := filepath.Abs("../../scripts/terraformrc")
			_ = os.Setenv("TF_CLI_CONFIG_FILE", abs)
		}
	}
	// The lab's OpenConfig datastore logs through glog, which writes files to /tmp unless
	// told otherwise.
	logs, err := os.MkdirTemp("", "roce-provider-test-logs")
	if err == nil {
		lab.KeepLogsIn(logs)
	}
	code := m.Run()
	if logs != "" {
		_ = os.RemoveAll(logs)
	}
	if mirrorDir != "" {
		_ = os.RemoveAll(mirrorDir)
	}
	os.Exit(code)
}

var protoV6Factories = map[string]func() (tfprotov6.ProviderServer, error){
	"roce": providerserver.NewProtocol6WithError(New("test")()),
}

// accLab is a lab running in the test process with its inventory written to disk, the way
// users feed `rocelab up`'s inventory to the provider.
type accLab struct {
	*lab.Lab
	dir string
}

// startLab starts an in-process lab for one acceptance test; it is skipped (by
// terraform-plugin-testing, which says why) unless TF_ACC is set.
func startLab(t *testing.T, opts lab.Options) *accLab {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does) to run it against the real Terraform CLI")
	}
	if opts.Switches == nil {
		opts.Switches = map[string]int{"openconfig": 1}
	}
	opts.Dir = t.TempDir()
	l, err := lab.Start(context.Background(), opts)
	if err != nil {
		t.Fatalf("lab: %v", err)
	}
	t.Cleanup(l.Stop)
	return &accLab{Lab: l, dir: opts.Dir}
}

// switchLab starts a lab of one switch of platform (eos, nxos, cumulus, sonic, openconfig),
// named <platform>-1.
func switchLab(t *testing.T, platform string) *accLab {
	return startLab(t, lab.Options{Switches: map[string]int{platform: 1}})
}

// applyChecking applies cfg in one step and checks the state it leaves with checks.
func applyChecking(t *testing.T, cfg string, checks ...statecheck.StateCheck) {
	t.Helper()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps:                    []resource.TestStep{{Config: cfg, ConfigStateChecks: checks}},
	})
}

// requiredProvidersHCL is the terraform block every test configuration starts with: the
// provider's source address, as the README gives it.
const requiredProvidersHCL = `
terraform {
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}
`

// providerHCL configures the provider from the lab's inventory file, exactly as the README
// tells users to.
func (l *accLab) providerHCL() string { return l.providerTimeoutHCL(10 * time.Second) }

// providerTimeoutHCL is providerHCL with another timeout of one device operation.
func (l *accLab) providerTimeoutHCL(timeout time.Duration) string {
	return requiredProvidersHCL + fmt.Sprintf(`
provider "roce" {
  timeout = "%s"
  retries = 1
  devices = jsondecode(file(%q)).devices
}
`, timeout, filepath.Join(l.dir, lab.InventoryFile))
}

// expectUpdates expects the plan to update each of the resources addrs in place.
func expectUpdates(addrs ...string) resource.ConfigPlanChecks {
	checks := make([]plancheck.PlanCheck, 0, len(addrs))
	for _, a := range addrs {
		checks = append(checks, plancheck.ExpectResourceAction(a, plancheck.ResourceActionUpdate))
	}
	return resource.ConfigPlanChecks{PreApply: checks}
}

// expectEmptyPlan expects the plan to change nothing.
var expectEmptyPlan = resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}

// planError is a configuration that must fail with an error matching want (at plan time, or
// at apply time for expectApplyErrors); pre, when set, prepares the lab first.
type planError struct {
	name, config, want string
	pre                func()
}

// expectPlanErrors plans each case in its own subtest, the lab's provider block before a
// configuration that has none; after, when set, runs after each.
func (l *accLab) expectPlanErrors(t *testing.T, cases []planError, after func()) {
	t.Helper()
	l.expectErrors(t, cases, true, after)
}

// expectApplyErrors is expectPlanErrors for errors the plan or the apply may give: each case is
// applied.
func (l *accLab) expectApplyErrors(t *testing.T, cases []planError) {
	t.Helper()
	l.expectErrors(t, cases, false, nil)
}

func (l *accLab) expectErrors(t *testing.T, cases []planError, planOnly bool, after func()) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.config
			if !strings.Contains(cfg, `provider "roce"`) {
				cfg = l.providerHCL() + cfg
			}
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: protoV6Factories, Steps: []resource.TestStep{{
				PreConfig: c.pre, Config: cfg, PlanOnly: planOnly, ExpectError: regexp.MustCompile(c.want),
			}}})
			if after != nil {
				after()
			}
		})
	}
}

// leafPolicyHCL is the contract's example policy, the roce class lossless, on device's ports
// (roceExtra: more attributes of the roce class, such as `mtu = 9216`). A class is one line, so
// a test edits it with replaced.
func leafPolicyHCL(device string, ecnMin int, ports string, roceExtra ...string) string {
	extra := ""
	for _, e := range roceExtra {
		extra += ", " + e
	}
	return fmt.Sprintf(`
resource "roce_qos_policy" "leaf" {
  device = %q
  classes = {
    roce    = { traffic_class = 3, dscp = [26], bandwidth_percent = 50, lossless = true%s, ecn = { min_threshold_bytes = %d, max_threshold_bytes = 1536000 } }
    cnp     = { traffic_class = 6, dscp = [48], strict_priority = true }
    default = { traffic_class = 0, dscp = [0], bandwidth_percent = 50 }
  }
  interfaces = [%s]
}
`, device, extra, ecnMin, ports)
}

// importedAttrs is an ImportStateCheck: the import returned one resource, with each attribute
// of want.
func importedAttrs(want map[string]string) resource.ImportStateCheckFunc {
	return func(states []*terraform.InstanceState) error {
		if len(states) != 1 {
			return fmt.Errorf("import returned %d resources", len(states))
		}
		got := states[0].Attributes
		for _, k := range slices.Sorted(maps.Keys(want)) {
			if got[k] != want[k] {
				return fmt.Errorf("imported %s = %q, want %q", k, got[k], want[k])
			}
		}
		return nil
	}
}

// replaced is s with its first old replaced by with; a missing old fails the test (the
// configuration would not be the one the test means).
func replaced(t *testing.T, s, old, with string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("%q is not in the configuration:\n%s", old, s)
	}
	return strings.Replace(s, old, with, 1)
}
