package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

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

// providerHCL configures the provider from the lab's inventory file, exactly as the README
// tells users to.
func (l *accLab) providerHCL() string {
	return fmt.Sprintf(`
terraform {
  required_providers {
    roce = { source = "rocefabric/roce" }
  }
}

provider "roce" {
  timeout = "10s"
  retries = 1
  devices = jsondecode(file(%q)).devices
}
`, filepath.Join(l.dir, lab.InventoryFile))
}
