package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// CounterSource is the lab's per-device counters.
type CounterSource interface {
	ResetAll()
	Count(device string) (DeviceCount, bool)
}

// Terraform runs the Terraform CLI as a user does, with the bench's CLI configuration.
type Terraform struct {
	Bin         string
	CLIConfig   string // TF_CLI_CONFIG_FILE
	Parallelism int
	LogDir      string // each run's output is kept here
}

// Env is the environment of every Terraform command: the caller's, with the CLI configuration,
// no checkpoint calls and automation output.
func (t Terraform) Env() []string {
	var env []string
	for _, e := range os.Environ() {
		if k, _, _ := strings.Cut(e, "="); k == "TF_CLI_CONFIG_FILE" || k == "TF_LOG" || k == "TF_LOG_PATH" {
			continue
		}
		env = append(env, e)
	}
	return append(env, "TF_CLI_CONFIG_FILE="+t.CLIConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
}

// Run runs `terraform -chdir=dir args...` and returns its combined output and exit code; err is
// set only when Terraform could not be run at all.
func (t Terraform) Run(ctx context.Context, dir string, args ...string) (string, int, error) {
	out, code, _, err := t.run(ctx, dir, args...)
	return out, code, err
}

// run is Run that also returns the CPU time (user and system) of Terraform and of the provider
// processes it started: on Linux a process's rusage as its parent's wait sees it includes the
// children it waited for itself, and Terraform waits for every provider process it starts.
func (t Terraform) run(ctx context.Context, dir string, args ...string) (string, int, time.Duration, error) {
	cmd := exec.CommandContext(ctx, t.Bin, append([]string{"-chdir=" + dir}, args...)...) //nolint:gosec // the Terraform binary the user chose
	cmd.Env = t.Env()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var cpu time.Duration
	if ps := cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), ee.ExitCode(), cpu, nil
	}
	if err != nil {
		return out.String(), -1, cpu, fmt.Errorf("terraform %s: %w", strings.Join(args, " "), err)
	}
	return out.String(), 0, cpu, nil
}

// PlanArgs are the arguments of a measured plan.
func (t Terraform) PlanArgs() []string {
	return []string{"plan", "-detailed-exitcode", "-input=false", "-no-color", "-parallelism=" + strconv.Itoa(t.Parallelism)}
}

// ApplyArgs are the arguments of the setup applies.
func (t Terraform) ApplyArgs() []string {
	return []string{"apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=" + strconv.Itoa(t.Parallelism)}
}

// DestroyArgs are the arguments of a measured destroy.
func (t Terraform) DestroyArgs() []string {
	return []string{"destroy", "-auto-approve", "-input=false", "-no-color", "-parallelism=" + strconv.Itoa(t.Parallelism)}
}

// Probe is what a measured run watches besides the clock.
type Probe struct {
	Counters CounterSource // nil: none
	Devices  []string      // whose counters the sample keeps
	RSS      *RSSSampler   // nil: none
}

// Measure runs one command and records a sample; wantExit is the exit code that means success
// (0 for a plan without changes, 2 for one with changes). The run's output goes to
// LogDir/name.log and is returned.
func (t Terraform) Measure(ctx context.Context, name, dir string, wantExit int, probe Probe, args ...string) (Sample, string) {
	if probe.Counters != nil {
		probe.Counters.ResetAll()
	}
	if probe.RSS != nil {
		probe.RSS.Start()
	}
	start := time.Now()
	out, code, cpu, err := t.run(ctx, dir, args...)
	s := Sample{Wall: time.Since(start), CPU: cpu, Exit: code}
	if probe.RSS != nil {
		s.PeakRSSKB, s.Processes = probe.RSS.Stop()
	}
	if probe.Counters != nil {
		s.Counts = map[string]DeviceCount{}
		for _, d := range probe.Devices {
			if c, ok := probe.Counters.Count(d); ok {
				s.Counts[d] = c
			}
		}
	}
	switch {
	case err != nil:
		s.Err = err.Error()
	case code != wantExit:
		s.Err = fmt.Sprintf("exit %d, want %d: %s", code, wantExit, FirstError(out))
	}
	if t.LogDir != "" {
		_ = os.MkdirAll(t.LogDir, 0o750)
		_ = os.WriteFile(filepath.Join(t.LogDir, name+".log"), []byte(out), 0o600)
	}
	return s, out
}

var planSummary = regexp.MustCompile(`(?m)^Plan: (\d+) to add, (\d+) to change, (\d+) to destroy\.`)

// PlanChanges reads the "Plan: A to add, C to change, D to destroy." line of a plan's output.
func PlanChanges(out string) (add, change, destroy int, ok bool) {
	m := planSummary.FindStringSubmatch(out)
	if m == nil {
		return 0, 0, 0, false
	}
	add, _ = strconv.Atoi(m[1])
	change, _ = strconv.Atoi(m[2])
	destroy, _ = strconv.Atoi(m[3])
	return add, change, destroy, true
}

// FirstError summarises Terraform's first error diagnostic: its summary line and the first line
// of its detail ("Error: Unsupported argument: An argument named ... is not expected here.").
// Without an error diagnostic it is the output's last line.
func FirstError(out string) string {
	lines := strings.Split(out, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(lines[i], "╷"), "│ "), " ")
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, "Error: ") {
			continue
		}
		for _, d := range lines[i+1:] {
			switch {
			case d == "" || strings.HasPrefix(d, " ") || d == "│" || d == "╵":
				continue // blank, or the indented source snippet
			case strings.HasPrefix(d, "Error: ") || strings.HasPrefix(d, "Warning: "):
				return l
			}
			return l + ": " + d
		}
		return l
	}
	last := strings.TrimSpace(out)
	if i := strings.LastIndexByte(last, '\n'); i >= 0 {
		last = last[i+1:]
	}
	return last
}
