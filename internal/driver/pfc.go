package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/sonic"
)

// PFCInterface manages roce_pfc_interface on one switch.
type PFCInterface = Keyed[fabric.PFCInterface]

// Keyed manages a resource that one name on the device keys (a switch port, a host's netdev),
// T its configuration: the shape every per-port and per-NIC resource's driver has. Check is the
// plan-time check of the name; Read returns the device's settings shaped like managed (nil on
// import: everything), or nil when the name is gone; Create and Update return what Delete
// restores.
type Keyed[T any] interface {
	Check(ctx context.Context, name string) error
	Read(ctx context.Context, name string, managed *T) (*T, error)
	Create(ctx context.Context, v T) (Prior, error)
	Update(ctx context.Context, old, next T, prior Prior) (Prior, error)
	Delete(ctx context.Context, old T, prior Prior) error
}

// CheckPFCInterface reports at plan time what the device's platform cannot do with p.
func CheckPFCInterface(dev devices.Device, p fabric.PFCInterface) fabric.Problems {
	var probs fabric.Problems
	d := platforms[dev.Platform]
	if d.pfc == nil {
		why := d.whyNoPFC
		if why == "" {
			why = "this provider version cannot configure its PFC yet"
		}
		probs.Add(fabric.Root("device"), "Platform does not support roce_pfc_interface",
			fmt.Sprintf("Device %q has platform %s: %s. roce_pfc_interface is supported on %s.", dev.Name, dev.Platform, why,
				strings.Join(sortedPlatformsWith(hasPFC), ", ")))
		return probs
	}
	for _, u := range d.checkPFC(p) {
		probs.Add(attrPath(u.Attr), "Not supported on platform "+dev.Platform,
			fmt.Sprintf("Device %q (platform %s): %s.", dev.Name, dev.Platform, u.Reason))
	}
	return append(probs, checkModel(dev)...)
}

func hasPFC(d platformDriver) bool { return d.pfc != nil }

// ForPFCInterface returns the roce_pfc_interface driver of a configured switch.
func ForPFCInterface(reg *devices.Registry, device string) (PFCInterface, error) {
	drv, err := openDriver(reg, device, func(d platformDriver) func(*devices.Registry, string) (PFCInterface, error) { return d.pfc },
		func(platformDriver) string { return "which has no roce_pfc_interface driver" })
	if err != nil {
		return nil, err
	}
	return exclusivePFC{drv, exclusive{reg, device, awaitGrace, queues(drv)}}, nil
}

type sonicPFC struct{ sonicDB }

var openSONiCPFC = over(openSONiCDB, func(d sonicDB) PFCInterface { return sonicPFC{d} })

// Check needs nothing from the device at plan time: the device checks run at apply, against
// the switch as it is then (the bound policy may be created in the same apply).
func (d sonicPFC) Check(context.Context, string) error { return nil }

// CheckIntent refuses at plan time what the switch's buffer model would not keep
// (sonic.CheckBufferModel), from the device's read snapshot. Only a plan that sets a headroom
// reads the device.
func (d sonicPFC) CheckIntent(ctx context.Context, want fabric.PFCInterface) error {
	if want.Buffer == nil || (want.Buffer.XoffBytes == nil && want.Buffer.XonBytes == nil) {
		return nil
	}
	db, err := d.snap(ctx)
	if err != nil {
		return err
	}
	if err := sonic.CheckBufferModel(want, db); err != nil {
		var probs fabric.Problems
		attr := "xoff_bytes"
		if want.Buffer.XoffBytes == nil {
			attr = "xon_bytes"
		}
		probs.Add(attrPath([]string{"buffer", attr}), "Not kept by this switch's buffer model", err.Error()+".")
		return probs
	}
	return nil
}

func (d sonicPFC) Read(ctx context.Context, port string, _ *fabric.PFCInterface) (*fabric.PFCInterface, error) {
	db, err := d.snap(ctx)
	if err != nil {
		return nil, err
	}
	return found(db.PFC(port)), nil
}

func (d sonicPFC) writePFC(ctx context.Context, old *fabric.PFCInterface, next fabric.PFCInterface, raw Prior) (Prior, error) {
	recorded, err := decodeAs[sonic.PFCPrior](raw)
	if err != nil {
		return nil, err
	}
	var prior sonic.PFCPrior
	err = d.write(ctx, func(db *sonic.DB) (*gpb.SetRequest, error) {
		if err := sonic.CheckPFCAgainst(next, db); err != nil {
			return nil, err
		}
		prior = recorded.Merge(db.PFCPrior(next.Interface, next))
		return sonic.BuildPFCSet(next.Interface, old, &next, db, prior)
	})
	if err != nil {
		return nil, err
	}
	return json.Marshal(prior)
}

func (d sonicPFC) Create(ctx context.Context, p fabric.PFCInterface) (Prior, error) {
	return d.writePFC(ctx, nil, p, nil)
}

func (d sonicPFC) Update(ctx context.Context, old, next fabric.PFCInterface, prior Prior) (Prior, error) {
	return d.writePFC(ctx, &old, next, prior)
}

func (d sonicPFC) Delete(ctx context.Context, old fabric.PFCInterface, raw Prior) error {
	prior, err := decodeAs[sonic.PFCPrior](raw)
	if err != nil {
		return err
	}
	return d.write(ctx, func(db *sonic.DB) (*gpb.SetRequest, error) {
		return sonic.BuildPFCSet(old.Interface, &old, nil, db, prior)
	})
}
