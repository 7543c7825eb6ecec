package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/bench"
)

// moduleRoot is the directory of the repository's go.mod.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("run the bench inside the repository (no go.mod found)")
	}
	return filepath.Dir(gomod), nil
}

// buildProvider builds the provider (pkg ".") or the bench's no-op provider
// ("./internal/bench/cmd/noop") from source into dir, under the name dev_overrides wants.
// With ROCE_PPROF_DIR set it builds with the roceprofile tag: every provider process Terraform
// starts then writes its CPU profile and its peak heap profile there (internal/profiling).
func buildProvider(ctx context.Context, root, pkg, dir string) (string, error) {
	bin := filepath.Join(dir, "terraform-provider-roce")
	args := []string{"build", "-o", bin}
	if os.Getenv("ROCE_PPROF_DIR") != "" {
		args = append(args, "-tags", "roceprofile")
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkg)...) //nolint:gosec // go build into the bench's output directory
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build the provider: %w\n%s", err, out)
	}
	return bin, nil
}

// findTerraform is TF_ACC_TERRAFORM_PATH, or the pinned Terraform scripts/tool.sh finds (and
// installs with go install the first time).
func findTerraform(ctx context.Context, root string) (string, error) {
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p, nil
	}
	cmd := exec.CommandContext(ctx, filepath.Join(root, "scripts", "tool.sh"), "terraform") //nolint:gosec // the repository's own script
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("scripts/tool.sh terraform: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// workspace is one measured configuration: a directory with main.tf and its state.
type workspace struct {
	variant bench.Variant
	fabric  bench.Fabric
	dir     string
}

// writeConfig writes the configuration of a variant for a fabric into dir.
func writeConfig(dir string, f bench.Fabric, v bench.Variant, inventory string) error {
	if err := os.MkdirAll(dir, 0o750); err != nil { //nolint:gosec // under the output directory the user named
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(bench.Config(f, v, inventory)), 0o600) //nolint:gosec // idem
}

// applyFull applies the full fabric's configuration of a variant from an empty state and
// returns the measured run and the state.
func applyFull(ctx context.Context, tf bench.Terraform, dir string, f bench.Fabric, v bench.Variant, inventory string,
	probe bench.Probe) (bench.Sample, []byte, error) {
	if err := writeConfig(dir, f, v, inventory); err != nil {
		return bench.Sample{}, nil, err
	}
	name := fmt.Sprintf("apply-%s-%d", v, time.Now().UnixNano())
	s, _ := tf.Measure(ctx, name, dir, 0, probe, tf.ApplyArgs()...)
	if s.Err != "" {
		return s, nil, fmt.Errorf("terraform apply %s: %s (log: %s)", v.Label(), s.Err, filepath.Join(tf.LogDir, name+".log"))
	}
	progress("apply %s: %d resources in %s, CPU %s, RSS %s", v.Label(), f.Resources(v.Shape()), bench.Seconds(s.Wall), bench.Seconds(s.CPU), bench.MB(s.PeakRSSKB))
	state, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate")) //nolint:gosec // our own work directory
	if err != nil {
		return s, nil, err
	}
	if n, err := bench.StateInstances(state); err != nil || n != f.Resources(v.Shape()) {
		return s, nil, fmt.Errorf("apply %s: state holds %d resources, want %d (%v)", v.Label(), n, f.Resources(v.Shape()), err)
	}
	return s, state, nil
}

// prepare writes a workspace: the configuration and the full state cut down to its fabric.
func prepare(dir string, f bench.Fabric, v bench.Variant, inventory string, fullState []byte) (workspace, error) {
	if err := writeConfig(dir, f, v, inventory); err != nil {
		return workspace{}, err
	}
	state, err := bench.SubsetState(fullState, f.Keys(v.Shape()))
	if err != nil {
		return workspace{}, err
	}
	if n, err := bench.StateInstances(state); err != nil || n != f.Resources(v.Shape()) {
		return workspace{}, fmt.Errorf("%s: subset state holds %d resources, want %d (%v)", dir, n, f.Resources(v.Shape()), err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate"), state, 0o600); err != nil { //nolint:gosec // under the output directory the user named
		return workspace{}, err
	}
	return workspace{variant: v, fabric: f, dir: dir}, nil
}

// writeCLIConfig writes the Terraform CLI configuration that maps rocefabric/roce to the
// provider just built.
func writeCLIConfig(path, providerDir string) error {
	return os.WriteFile(path, []byte(bench.CLIConfig(providerDir)), 0o600)
}

// drift changes the PFC watchdog detection time of the given ports out of band, one gNMI Set
// per switch.
func drift(ctx context.Context, inv bench.Inventory, ports []string, value int) error {
	for sw, paths := range bench.DriftPaths(ports) {
		if err := bench.SetOutOfBand(ctx, inv.Devices[sw], paths, fmt.Sprint(value)); err != nil {
			return fmt.Errorf("%s: %w", sw, err)
		}
	}
	return nil
}

func progress(format string, a ...any) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "[%s] ", time.Now().Format("15:04:05"))
	fmt.Fprintf(&b, format, a...)
	b.WriteByte('\n')
	_, _ = os.Stderr.Write(b.Bytes())
}
