package mlx5

import (
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
