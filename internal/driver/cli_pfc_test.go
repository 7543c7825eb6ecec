package driver

import (
	"context"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// fakePort is a CLI switch with one setting per port ("its mode line") for cliPFC.
type fakePort struct {
	mode map[string]string
	sent [][]string
}

type fakePFCPrior struct {
	Mode string `json:"mode"`
}

func (f *fakePort) device() string { return "sw" }
func (f *fakePort) apply(_ context.Context, l []string) (error, error) {
	f.sent = append(f.sent, l)
	return nil, nil
}
func (f *fakePort) configure(_ context.Context, l []string) error {
	f.sent = append(f.sent, l)
	return nil
}
func (f *fakePort) refresh(context.Context, string) (*fakePort, error)       { return f, nil }
func (f *fakePort) readFor(context.Context, string) (*fakePort, error)       { return f, nil }
func (f *fakePort) readForDelete(context.Context, string) (*fakePort, error) { return f, nil }
func (f *fakePort) pfc(cfg *fakePort, port string) (*fabric.PFCInterface, bool) {
	m, ok := cfg.mode[port]
	return &fabric.PFCInterface{Interface: port, Mode: m}, ok
}
func (f *fakePort) checkWrite(*fakePort, fabric.PFCInterface) error { return nil }
func (f *fakePort) priorOf(cfg *fakePort, port string) fakePFCPrior {
	return fakePFCPrior{Mode: cfg.mode[port]}
}
func (f *fakePort) adopt(*fakePFCPrior, *fakePort, *fabric.PFCInterface, fabric.PFCInterface) {}
func (f *fakePort) importedPrior(string) (fakePFCPrior, error) {
	return fakePFCPrior{Mode: "auto"}, nil
}
func (f *fakePort) lines(cfg *fakePort, port string, _, next *fabric.PFCInterface, prior fakePFCPrior) ([]string, error) {
	m := prior.Mode
	if next != nil {
		m = next.Mode
	}
	cfg.mode[port] = m
	return []string{port + " " + m}, nil
}

// The PFC interface records the port's own line at create and keeps that record across
// updates (the line is its own by then); delete puts it back, and after an import (nothing
// recorded) puts back the platform default.
func TestCLIPFCPriorBookkeeping(t *testing.T) {
	sw := &fakePort{mode: map[string]string{"e1": "off"}}
	d := cliPFC[fakePort, fakePFCPrior]{sw}
	ctx := context.Background()
	on := fabric.PFCInterface{Interface: "e1", Mode: fabric.PFCModeOn}
	raw, err := d.Create(ctx, on)
	if err != nil {
		t.Fatal(err)
	}
	auto := fabric.PFCInterface{Interface: "e1", Mode: fabric.PFCModeAuto}
	if raw, err = d.Update(ctx, on, auto, raw); err != nil {
		t.Fatal(err)
	}
	if err := d.Delete(ctx, auto, raw); err != nil {
		t.Fatal(err)
	}
	if sw.mode["e1"] != "off" {
		t.Errorf("delete left %q, want the recorded off", sw.mode["e1"])
	}
	if err := d.Delete(ctx, on, nil); err != nil {
		t.Fatal(err)
	}
	if sw.mode["e1"] != "auto" {
		t.Errorf("delete after import left %q, want the platform default auto", sw.mode["e1"])
	}
	if _, err := d.Update(ctx, on, auto, Prior("{")); err == nil {
		t.Error("corrupt private state must be an error, not a silent reset")
	}
}
