package driver

import (
	"context"
	"errors"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// exclusive gives every write of a switch resource the device's write turn
// (devices.Registry.Exclusive) from the read it is built on to the write itself, so resources
// Terraform runs at once on one switch apply one after the other, each on what the previous
// left. Reads are not serialised.
type exclusive struct {
	reg    *devices.Registry
	device string
	// grace is how long a write that needs another's change (fabric.NeedsLossless) waits for
	// some other write to the device to begin.
	grace time.Duration
	// queued: the driver's writes take the turn themselves, one device request at a time, so
	// that writes Terraform runs at once can share a request (sonicDB.write, devices.Write).
	queued bool
}

// queues reports a driver whose writes take the device's write turn themselves.
func queues(drv any) bool {
	_, ok := drv.(interface{ queuesWrites() })
	return ok
}

// awaitGrace covers Terraform starting the resources of one walk a moment apart.
const awaitGrace = 3 * time.Second

// held runs write in the turn. A write's prior comes back even with an error: a warning
// (Applied) carries both.
func (x exclusive) held(ctx context.Context, write func() (Prior, error)) (Prior, error) {
	if x.queued {
		return write()
	}
	release, err := x.reg.Exclusive(ctx, x.device)
	if err != nil {
		return nil, err
	}
	prior, err := write()
	release(!isNeedsLossless(err))
	return prior, err
}

// isNeedsLossless reports a write refused before anything was sent for want of a lossless
// class.
func isNeedsLossless(err error) bool {
	var needs fabric.NeedsLossless
	return errors.As(err, &needs)
}

// heldAwaiting runs write in the turn; when the device lacks a lossless class the write needs,
// it lets the turn go, waits for the next other write to the device (the policy Terraform runs
// beside it, when nothing orders the two) and tries again, until no other write comes. A
// queued driver's writes are counted before the write is queued: a write finished between
// that count and the build costs one more build, never a missed wake-up.
func (x exclusive) heldAwaiting(ctx context.Context, write func() (Prior, error)) (Prior, error) {
	for {
		var seen uint64
		prior, err := x.held(ctx, func() (Prior, error) {
			seen = x.reg.Writes(x.device)
			return write()
		})
		if !isNeedsLossless(err) || !x.reg.AwaitWrite(ctx, x.device, seen, x.grace) {
			return prior, err
		}
	}
}

type exclusiveQoS struct {
	QoSPolicy
	exclusive
}

func (d exclusiveQoS) Create(ctx context.Context, p fabric.QoSPolicy) (Prior, error) {
	return d.held(ctx, func() (Prior, error) { return d.QoSPolicy.Create(ctx, p) })
}

func (d exclusiveQoS) Update(ctx context.Context, old, next fabric.QoSPolicy, prior Prior) (Prior, error) {
	return d.held(ctx, func() (Prior, error) { return d.QoSPolicy.Update(ctx, old, next, prior) })
}

func (d exclusiveQoS) Delete(ctx context.Context, old fabric.QoSPolicy, prior Prior) error {
	_, err := d.held(ctx, func() (Prior, error) { return nil, d.QoSPolicy.Delete(ctx, old, prior) })
	return err
}

type exclusivePFC struct {
	PFCInterface
	exclusive
}

func (d exclusivePFC) Create(ctx context.Context, p fabric.PFCInterface) (Prior, error) {
	return d.heldAwaiting(ctx, func() (Prior, error) { return d.PFCInterface.Create(ctx, p) })
}

func (d exclusivePFC) Update(ctx context.Context, old, next fabric.PFCInterface, prior Prior) (Prior, error) {
	return d.heldAwaiting(ctx, func() (Prior, error) { return d.PFCInterface.Update(ctx, old, next, prior) })
}

func (d exclusivePFC) Delete(ctx context.Context, old fabric.PFCInterface, prior Prior) error {
	_, err := d.held(ctx, func() (Prior, error) { return nil, d.PFCInterface.Delete(ctx, old, prior) })
	return err
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
