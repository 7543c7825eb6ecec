package mlx5

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// startHost starts one host of model ("": the default, OFED) with DefaultNICPorts netdevs,
// cabled to nothing; it stops with the test.
func startHost(t *testing.T, model string) *Host {
	t.Helper()
	if model == "" {
		model = OFED
	}
	spec := labtest.Spec(t, "mlx5", DefaultNICPorts, model)
	spec.Perftest = &traffic.Room{}
	return labtest.Start[*Host](t, Start, spec)
}

// hostEnv is one fresh host with a logged-in client (room labtest's SSH client).
type hostEnv struct {
	labtest.Shell
	h *Host
	d device.Entry
}

func newHostEnv(t *testing.T) *hostEnv {
	t.Helper()
	h := startHost(t, "")
	d := h.Entry()
	return &hostEnv{Shell: labtest.Shell{T: t, C: labtest.SSHClient(t, d)}, h: h, d: d}
}

// hostCase is a command and what it must print and exit with.
type hostCase struct {
	cmd, stdout, stderr string
	status              int
}

// expectRuns runs each case on h without SSH (Host.Run, as the login user) and checks its
// output and exit status.
func expectRuns(t *testing.T, h *Host, cases []hostCase) {
	t.Helper()
	for _, tc := range cases {
		if out, errOut, st := h.Run(tc.cmd); out != tc.stdout || errOut != tc.stderr || st != tc.status {
			t.Errorf("%s:\n got %q %q %d\nwant %q %q %d", tc.cmd, out, errOut, st, tc.stdout, tc.stderr, tc.status)
		}
	}
}

// realTool is the path of a program installed on this machine, found on PATH or in dirs; the
// test is skipped without it (pkg: the Debian package that has it), or fails under
// ROCE_REQUIRE_HOST_TOOLS=1 (.ci/run installs ethtool and perftest and sets it).
func realTool(t *testing.T, name, pkg string, dirs ...string) string {
	t.Helper()
	bin, err := exec.LookPath(name)
	for _, d := range dirs {
		if err != nil {
			bin, err = exec.LookPath(d + "/" + name)
		}
	}
	if err != nil {
		if os.Getenv("ROCE_REQUIRE_HOST_TOOLS") == "1" {
			t.Fatalf("no %s on this machine but ROCE_REQUIRE_HOST_TOOLS=1 (Debian: %s)", name, pkg)
		}
		t.Skipf("no %s on this machine (Debian: %s)", name, pkg)
	}
	return bin
}

// runReal runs bin with the words of cmd after the first as its arguments and returns what it
// printed and its exit status; argv[0] is cmd's first word, as a shell gives it.
func runReal(t *testing.T, bin, cmd string) (stdout, stderr string, status int) {
	t.Helper()
	words := strings.Fields(cmd)
	x := exec.Command(bin, words[1:]...)
	x.Args[0] = words[0]
	var out, errOut strings.Builder
	x.Stdout, x.Stderr = &out, &errOut
	if err := x.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		status = ee.ExitCode()
	}
	return out.String(), errOut.String(), status
}
