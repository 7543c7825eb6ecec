package driver

import (
	"context"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// exclusiveQoS and exclusivePFC give every write of a switch resource the device's write turn
// (devices.Registry.Exclusive) from the read it is built on to the write itself, so
// resources Terraform runs at once on one switch apply one after the other, each on what the
// previous left. Reads are not serialised.
type exclusiveQoS struct {
	QoSPolicy
	turn turn
}

func (d exclusiveQoS) Create(ctx context.Context, p fabric.QoSPolicy) (Prior, error) {
	return held(ctx, d.turn, func() (Prior, error) { return d.QoSPolicy.Create(ctx, p) })
}

func (d exclusiveQoS) Update(ctx context.Context, old, next fabric.QoSPolicy, prior Prior) (Prior, error) {
	return held(ctx, d.turn, func() (Prior, error) { return d.QoSPolicy.Update(ctx, old, next, prior) })
}

func (d exclusiveQoS) Delete(ctx context.Context, old fabric.QoSPolicy, prior Prior) error {
	_, err := held(ctx, d.turn, func() (Prior, error) { return nil, d.QoSPolicy.Delete(ctx, old, prior) })
	return err
}

type exclusivePFC struct {
	PFCInterface
	turn turn
}

func (d exclusivePFC) Create(ctx context.Context, p fabric.PFCInterface) (Prior, error) {
	return held(ctx, d.turn, func() (Prior, error) { return d.PFCInterface.Create(ctx, p) })
}

func (d exclusivePFC) Update(ctx context.Context, old, next fabric.PFCInterface, prior Prior) (Prior, error) {
	return held(ctx, d.turn, func() (Prior, error) { return d.PFCInterface.Update(ctx, old, next, prior) })
}

func (d exclusivePFC) Delete(ctx context.Context, old fabric.PFCInterface, prior Prior) error {
	_, err := held(ctx, d.turn, func() (Prior, error) { return nil, d.PFCInterface.Delete(ctx, old, prior) })
	return err
}

// turn waits for a device's write turn and returns its release.
type turn func(context.Context) (release func(), err error)

func turnOf(reg *devices.Registry, device string) turn {
	return func(ctx context.Context) (func(), error) { return reg.Exclusive(ctx, device) }
}

// held runs write in the turn. A write's prior comes back even with an error: a warning
// (Applied) carries both.
func held(ctx context.Context, t turn, write func() (Prior, error)) (Prior, error) {
	release, err := t(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return write()
}

// CheckIntent passes the plan-time intent check through to the platform's driver, where it
// has one (SONiC's buffer model check); it needs no turn.
func (d exclusivePFC) CheckIntent(ctx context.Context, want fabric.PFCInterface) error {
	if ic, ok := d.PFCInterface.(interface {
		CheckIntent(context.Context, fabric.PFCInterface) error
	}); ok {
		return ic.CheckIntent(ctx, want)
	}
	return nil
}
