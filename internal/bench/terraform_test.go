package bench

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const unsupported = `
Warning: Provider development overrides are in effect

The following provider development overrides are set in the CLI configuration:
 - rocefabric/roce in /work/.bench/bin

Error: Unsupported argument

  on main.tf line 9, in provider "roce":
   9:   per_resource_reads = true

An argument named "per_resource_reads" is not expected here.
`

func TestFirstError(t *testing.T) {
	want := `Error: Unsupported argument: An argument named "per_resource_reads" is not expected here.`
	if got := FirstError(unsupported); got != want {
		t.Errorf("FirstError = %q, want %q", got, want)
	}
	boxed := "╷\n│ Error: Invalid provider configuration\n│ \n│   on main.tf line 3:\n│ \n│ Provider \"roce\" has no devices.\n╵\n"
	if got := FirstError(boxed); got != `Error: Invalid provider configuration: Provider "roce" has no devices.` {
		t.Errorf("boxed: %q", got)
	}
	if got := FirstError("Error: Two\n\nError: Three\n"); got != "Error: Two" {
		t.Errorf("summary only: %q", got)
	}
	if got := FirstError("Refreshing...\nNo changes. Your infrastructure matches the configuration.\n"); got != "No changes. Your infrastructure matches the configuration." {
		t.Errorf("no error: %q", got)
	}
}

func TestPlanChanges(t *testing.T) {
	add, change, destroy, ok := PlanChanges("...\nPlan: 0 to add, 13 to change, 0 to destroy.\n")
	if !ok || add != 0 || change != 13 || destroy != 0 {
		t.Errorf("PlanChanges = %d %d %d %v", add, change, destroy, ok)
	}
	if _, _, _, ok := PlanChanges("No changes."); ok {
		t.Error("PlanChanges found a plan line in none")
	}
}

type fakeCounters struct {
	resets int
	counts map[string]DeviceCount
}

func (f *fakeCounters) ResetAll() { f.resets++ }
func (f *fakeCounters) Count(d string) (DeviceCount, bool) {
	c, ok := f.counts[d]
	return c, ok
}

// fakeTerraform is a shell script standing in for Terraform: it prints its arguments and
// environment and exits with $FAKE_EXIT.
func fakeTerraform(t *testing.T, body string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "terraform")
	script := "#!/bin/sh\necho \"args: $*\"\necho \"rc: $TF_CLI_CONFIG_FILE $TF_IN_AUTOMATION $CHECKPOINT_DISABLE\"\n" + body + "\n"
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil { //nolint:gosec // an executable test script
		t.Fatal(err)
	}
	return bin
}

func TestMeasure(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("the fake terraform is a /bin/sh script, and this machine has no /bin/sh")
	}
	logs := t.TempDir()
	tf := Terraform{Bin: fakeTerraform(t, "printf '%s\\n' \"$FAKE_OUT\"\nexit ${FAKE_EXIT:-0}"), CLIConfig: "/tmp/rc", Parallelism: 10, LogDir: logs}
	counters := &fakeCounters{counts: map[string]DeviceCount{"sonic-1": {Connections: 1, Requests: 1}, "mlx5-1": {Connections: 1, Requests: 2}}}
	probe := Probe{Counters: counters, Devices: []string{"sonic-1", "mlx5-1", "gone-1"}, RSS: NewRSSSampler("/nonexistent/terraform-provider-roce", time.Millisecond)}

	t.Setenv("FAKE_EXIT", "2")
	t.Setenv("FAKE_OUT", "Plan: 0 to add, 1 to change, 0 to destroy.")
	t.Setenv("TF_LOG", "trace") // must not reach Terraform: it would slow every run
	s, out := tf.Measure(context.Background(), "drift", t.TempDir(), 2, probe, tf.PlanArgs()...)
	if s.Err != "" || s.Exit != 2 || s.Wall <= 0 || counters.resets != 1 {
		t.Errorf("sample %+v, resets %d", s, counters.resets)
	}
	if len(s.Counts) != 2 || s.Counts["mlx5-1"].Requests != 2 {
		t.Errorf("counts %v", s.Counts)
	}
	if !strings.Contains(out, "args: -chdir=") || !strings.Contains(out, "plan -detailed-exitcode -input=false -no-color -parallelism=10") ||
		!strings.Contains(out, "rc: /tmp/rc 1 1") {
		t.Errorf("output:\n%s", out)
	}
	if log, err := os.ReadFile(filepath.Join(logs, "drift.log")); err != nil || string(log) != out { //nolint:gosec // test file
		t.Errorf("log: %v", err)
	}
	if slices.ContainsFunc(tf.Env(), func(e string) bool { return strings.HasPrefix(e, "TF_LOG=") }) {
		t.Error("TF_LOG passed on")
	}

	t.Setenv("FAKE_EXIT", "1")
	t.Setenv("FAKE_OUT", unsupported)
	s, _ = tf.Measure(context.Background(), "b", t.TempDir(), 0, Probe{}, tf.PlanArgs()...)
	if want := `exit 1, want 0: Error: Unsupported argument: An argument named "per_resource_reads" is not expected here.`; s.Err != want {
		t.Errorf("error %q, want %q", s.Err, want)
	}
	if s.Counts != nil {
		t.Error("counts without a counter source")
	}

	tf.Bin = filepath.Join(t.TempDir(), "missing")
	if s, _ := tf.Measure(context.Background(), "x", t.TempDir(), 0, Probe{}, "plan"); !strings.Contains(s.Err, "terraform plan") {
		t.Errorf("missing binary: %q", s.Err)
	}
	if !slices.Contains(tf.ApplyArgs(), "-auto-approve") {
		t.Error("ApplyArgs")
	}
}

// TestMeasureCPU: a sample's CPU time includes what the processes Terraform started spent (the
// provider processes), not only Terraform's own.
func TestMeasureCPU(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("the fake terraform is a /bin/sh script, and this machine has no /bin/sh")
	}
	// The child spins for 300 ms of wall time, then the script waits for it, as Terraform waits
	// for its provider processes.
	spin := "end=$(($(date +%s%N) + 300000000)); while [ $(date +%s%N) -lt $end ]; do :; done"
	tf := Terraform{Bin: fakeTerraform(t, "sh -c '"+spin+"' &\nwait"), CLIConfig: "/tmp/rc", Parallelism: 10}
	s, out := tf.Measure(context.Background(), "cpu", t.TempDir(), 0, Probe{}, "plan")
	if s.Err != "" {
		t.Fatalf("sample %+v:\n%s", s, out)
	}
	// A shared machine may give the spinning child less than all of its 300 ms.
	if s.CPU < 100*time.Millisecond || s.CPU > s.Wall*4 {
		t.Errorf("CPU %s over a wall time of %s, want the child's spin counted", s.CPU, s.Wall)
	}
}
