// Package driver joins a platform's pure translation (internal/platform/<name>) to the device
// session that carries it (internal/transport/...). Resources talk to one interface per
// resource type and never branch on platform or transport themselves.
package driver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
)

// Prior is what a resource recorded about a device before changing it (the values it must put
// back on destroy). It is opaque JSON kept in the resource's private state.
type Prior []byte

// QoSPolicy manages roce_qos_policy on one device.
type QoSPolicy interface {
	// Read returns the policy named name as the device has it, or nil when it is absent.
	// known is the policy as last recorded (nil on import): where the device holds the same
	// settings in another form, the recorded form is returned, so only real changes show.
	Read(ctx context.Context, name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, error)
	// Create writes p in one atomic operation; it fails with ErrExists when the device
	// already has a policy of that name.
	Create(ctx context.Context, p fabric.QoSPolicy) (Prior, error)
	// Update moves the device from old to next in one atomic operation (a rename included).
	Update(ctx context.Context, old, next fabric.QoSPolicy, prior Prior) (Prior, error)
	// Delete removes what the policy created and restores what it changed.
	Delete(ctx context.Context, old fabric.QoSPolicy, prior Prior) error
}

// ErrExists reports a create over an object the device already has.
var ErrExists = errors.New("already exists on the device")

// CheckQoSPolicy returns, at plan time and without touching the device, what the device's
// platform cannot express, each problem on its attribute and naming device and platform.
func CheckQoSPolicy(dev devices.Device, p fabric.QoSPolicy) fabric.Problems {
	d := platforms[dev.Platform]
	if d.qos == nil {
		var probs fabric.Problems
		probs.Add(fabric.Root("device"), "Platform does not support roce_qos_policy",
			fmt.Sprintf("Device %q has platform %s, which %s. roce_qos_policy is available on: %s.",
				dev.Name, dev.Platform, d.noQoS(), strings.Join(platformsWith(hasQoS), ", ")))
		return probs
	}
	probs := d.checkQoS(p)
	for i := range probs {
		probs[i].Detail = fmt.Sprintf("Device %q (platform %s): %s", dev.Name, dev.Platform, probs[i].Detail)
	}
	return append(probs, checkModel(dev)...)
}

// ForQoSPolicy returns the driver of a configured device.
func ForQoSPolicy(reg *devices.Registry, device string) (QoSPolicy, error) {
	drv, err := openDriver(reg, device, func(d platformDriver) func(*devices.Registry, string) (QoSPolicy, error) { return d.qos },
		func(d platformDriver) string { return "which " + d.noQoS() })
	if err != nil {
		return nil, err
	}
	return exclusiveQoS{drv, exclusive{reg, device, awaitGrace, queues(drv)}}, nil
}

func hasQoS(d platformDriver) bool { return d.qos != nil }

func (d platformDriver) noQoS() string {
	if d.whyNoQoS != "" {
		return d.whyNoQoS
	}
	return "this provider version cannot configure yet"
}

// found is a Read's answer from a device read's lookup: v when the device has it, else nil (the
// resource is gone).
func found[T any](v *T, ok bool) *T {
	if !ok {
		return nil
	}
	return v
}

// Applied reports an error that is only a warning: the change was committed to the device's
// running configuration, but saving it to the startup configuration (save_config) failed, or
// the device answered some lines with warnings. The resource records the change and warns;
// what says which, for the warning's summary ("applied but not saved").
func Applied(err error) (what string, ok bool) {
	var ce *cli.Error
	switch {
	case !errors.As(err, &ce):
		return "", false
	case ce.NotSaved:
		return "applied but not saved", true
	case ce.Warned():
		return "applied with warnings from the device", true
	}
	return "", false
}

// apply runs lines as one CLI transaction. A change committed but not saved, or answered with
// warnings, comes back as warn (Applied), not as err.
func apply(ctx context.Context, c cliConn, lines []string) (warn, err error) {
	err = c.Configure(ctx, lines)
	if _, ok := Applied(err); ok {
		return err, nil
	}
	return nil, err
}

// withWarning returns the prior a write recorded together with the write's warning, if any:
// withWarning(json.Marshal(p))(warn).
func withWarning(prior []byte, err error) func(warn error) (Prior, error) {
	return func(warn error) (Prior, error) {
		if err != nil {
			return nil, err
		}
		return prior, warn
	}
}

// reads ties a driver to its device's read snapshot: refreshes read through it
// (devices.Snapshot), and every write drops it (wrote), so the next read is fresh. Reads that
// a write decides from (the values before the change, the device's objects) are fresh, except
// on SONiC, whose writes are built on the snapshot and keep it up to date with their own
// accepted SetRequests (sonicDB.write).
type reads struct {
	reg    *devices.Registry
	device string
}

func newReads(reg *devices.Registry, device string) reads { return reads{reg: reg, device: device} }

// wrote drops the device's snapshots after a write, successful or not.
func (r reads) wrote() { r.reg.Invalidate(r.device) }
