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
