package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// watchJob runs the guide's scheduled job (watch.sh) in its directory as the guide says, with
// the real CLI; it returns the job's output and exit code.
func watchJob(t *testing.T, g *guideRun, l *accLab) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", "./watch.sh")
	cmd.Dir = g.dir
	cmd.Env = append(os.Environ(), "TERRAFORM="+g.bin, "TF_CLI_CONFIG_FILE="+g.rc, "CHECKPOINT_DISABLE=1",
		"TF_VAR_inventory="+filepath.Join(l.dir, lab.InventoryFile), "TF_VAR_sample_seconds=1")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// TestAccModuleGuideWatchFabric: the watching-a-fabric guide's job against the lab the guide
// names (sonic-1, mlx5-1, mlx5-2). On the stock lab it fails on what the stock configuration
// gets wrong (the DSCP audit, the p99 of a path whose switch port is lossy) and on nothing the
// counters show; a PFC storm on one port and a congested lossless queue on another then fail
// the PFC and buffer checks, each line naming its port, while a check block alone would have
// let the plan pass.
func TestAccModuleGuideWatchFabric(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		if os.Getenv("ROCE_REQUIRE_JQ") != "" {
			t.Fatal("jq is required (ROCE_REQUIRE_JQ is set): ", err)
		}
		t.Skip("the guide's job reads check results with jq, which is not installed (.ci/run installs it)")
	}
	l := startLab(t, lab.Options{Switches: map[string]int{"sonic": 1}, Hosts: map[string]int{"mlx5": 2}})
	dir := t.TempDir()
	copyTF(t, guideExample(t, "watch-fabric"), dir)
	if err := exec.Command("cp", filepath.Join(guideExample(t, "watch-fabric"), "watch.sh"), dir).Run(); err != nil {
		t.Fatal(err)
	}
	g := &guideRun{tfCLI: initCLI(t, dir)}

	out, code := watchJob(t, g, l)
	if code != 1 || !strings.Contains(out, "check.dscp_marking fail:") || !strings.Contains(out, "check.latency_p99 fail: mlx5-1 eth0 -> mlx5-2 eth0: p99 latency") {
		t.Fatalf("stock lab: want exit 1 with the DSCP audit and the latency failing, got %d:\n%s", code, out)
	}
	for _, healthy := range []string{"check.pfc_pause", "check.switch_buffers", "check.roce_retransmits"} {
		if strings.Contains(out, healthy) {
			t.Errorf("stock lab: %s should pass (no storm, no congestion):\n%s", healthy, out)
		}
	}

	sw := l.SONiC("sonic-1")
	if err := sw.Storm("Ethernet0", true); err != nil {
		t.Fatal(err)
	}
	if err := sw.Congest("Ethernet8", 3, true); err != nil {
		t.Fatal(err)
	}
	out, code = watchJob(t, g, l)
	for _, want := range []string{
		"check.pfc_pause fail: sonic-1 Ethernet0: PFC pause storm:",
		"check.switch_buffers fail: sonic-1 Ethernet8: buffer utilisation 90 %",
	} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("storm and congestion: want exit 1 and %q, got %d:\n%s", want, code, out)
		}
	}
}
