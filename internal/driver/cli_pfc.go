package driver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// cliPFCPlatform is one CLI platform's part of roce_pfc_interface over its configuration C
// and the prior P the interface records of the port's own lines; cliPFC holds the rest.
type cliPFCPlatform[C, P any] interface {
	device() string
	apply(ctx context.Context, lines []string) (warn, err error)
	configure(ctx context.Context, lines []string) error
	// refresh is the configuration for Read; a port the switch lacks reads as absent (nil).
	refresh(ctx context.Context, port string) (*C, error)
	// readFor reads the configuration a write to port is built on; readForDelete the one a
	// delete is (nil where the platform's delete lines need none).
	readFor(ctx context.Context, port string) (*C, error)
	readForDelete(ctx context.Context, port string) (*C, error)
	pfc(cfg *C, port string) (*fabric.PFCInterface, bool)
	// checkWrite refuses what the switch cannot take on next.
	checkWrite(cfg *C, next fabric.PFCInterface) error
	// priorOf is the port's own lines as cfg has them.
	priorOf(cfg *C, port string) P
	// adopt records, from cfg, what next manages for the first time.
	adopt(prior *P, cfg *C, old *fabric.PFCInterface, next fabric.PFCInterface)
	// importedPrior is what delete restores when nothing was recorded (an import).
	importedPrior(port string) (P, error)
	lines(cfg *C, port string, old, next *fabric.PFCInterface, prior P) ([]string, error)
}

// cliPFC is roce_pfc_interface on a CLI switch.
type cliPFC[C, P any] struct{ p cliPFCPlatform[C, P] }

// Check needs nothing from the device at plan time.
func (d cliPFC[C, P]) Check(context.Context, string) error { return nil }

func (d cliPFC[C, P]) Read(ctx context.Context, port string, _ *fabric.PFCInterface) (*fabric.PFCInterface, error) {
	cfg, err := d.p.refresh(ctx, port)
	if err != nil || cfg == nil {
		return nil, err
	}
	p, ok := d.p.pfc(cfg, port)
	if !ok {
		return nil, nil
	}
	return p, nil
}

// decodePFC reads the private state; nil when nothing was recorded.
func decodePFC[P any](raw Prior) (*P, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	p := new(P)
	if err := json.Unmarshal(raw, p); err != nil {
		return nil, fmt.Errorf("private state is unreadable: %w", err)
	}
	return p, nil
}

func (d cliPFC[C, P]) write(ctx context.Context, old *fabric.PFCInterface, next fabric.PFCInterface, raw Prior) (Prior, error) {
	cfg, err := d.p.readFor(ctx, next.Interface)
	if err != nil {
		return nil, err
	}
	if err := d.p.checkWrite(cfg, next); err != nil {
		return nil, err
	}
	prior, err := decodePFC[P](raw)
	if err != nil {
		return nil, err
	}
	if prior == nil {
		p := d.p.priorOf(cfg, next.Interface)
		prior = &p
	}
	d.p.adopt(prior, cfg, old, next)
	lines, err := d.p.lines(cfg, next.Interface, old, &next, *prior)
	if err != nil {
		return nil, err
	}
	return applied(ctx, d.p.apply, lines, prior)
}

func (d cliPFC[C, P]) Create(ctx context.Context, p fabric.PFCInterface) (Prior, error) {
	return d.write(ctx, nil, p, nil)
}

func (d cliPFC[C, P]) Update(ctx context.Context, old, next fabric.PFCInterface, prior Prior) (Prior, error) {
	return d.write(ctx, &old, next, prior)
}

func (d cliPFC[C, P]) Delete(ctx context.Context, old fabric.PFCInterface, raw Prior) error {
	prior, err := decodePFC[P](raw)
	if err != nil {
		return err
	}
	if prior == nil {
		p, err := d.p.importedPrior(old.Interface)
		if err != nil {
			return err
		}
		prior = &p
	}
	cfg, err := d.p.readForDelete(ctx, old.Interface)
	if err != nil {
		return err
	}
	lines, err := d.p.lines(cfg, old.Interface, &old, nil, *prior)
	if err != nil {
		return err
	}
	return d.p.configure(ctx, lines)
}
