package provider

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

// interfaceModel is the Terraform model of a resource that owns one interface (a host netdev or a switch port).
type interfaceModel[I any] interface {
	intentModel[I]
	ids() (device, ifname types.String)
	id() types.String
	// imported reports a state that holds only the import ID's parts.
	imported() bool
}

// deviceInterface is the device and interface arguments of a resource that owns one interface,
// the same in each such resource (and in roce_fabric_check's elements).
type deviceInterface struct {
	Device    types.String `tfsdk:"device"`
	Interface types.String `tfsdk:"interface"`
}

func deviceInterfaceOf(device, ifname string) deviceInterface {
	return deviceInterface{Device: types.StringValue(device), Interface: types.StringValue(ifname)}
}

func (d deviceInterface) ids() (types.String, types.String) { return d.Device, d.Interface }
func (d deviceInterface) deviceName() types.String          { return d.Device }

// intentChecker is a driver that checks the planned settings against the device at plan time
// (SONiC: what the switch's buffer model lets roce_pfc_interface keep).
type intentChecker[I any] interface {
	CheckIntent(ctx context.Context, want I) error
}

// validatable is an intent that checks itself: all its rules (Validate), or only those that
// relate attributes (fabric.Relations; the schema validators check the rest).
type validatable = fabric.Intent

// interfaceOps is what such a resource needs from its driver.
type interfaceOps[I any] interface {
	Check(ctx context.Context, ifname string) error
	Read(ctx context.Context, ifname string, managed *I) (*I, error)
	Create(ctx context.Context, n I) (driver.Prior, error)
	Update(ctx context.Context, old, next I, prior driver.Prior) (driver.Prior, error)
	Delete(ctx context.Context, old I, prior driver.Prior) error
}

// interfaceResource is the CRUD shared by the resources that own one interface's settings on a
// device: a host netdev (roce_nic_qos, roce_dcqcn_profile) or a switch port (roce_pfc_interface).
type interfaceResource[M interfaceModel[I], I validatable] struct {
	deviceResource
	typeName, what string
	open           func(*devices.Registry, string) (interfaceOps[I], error)
	fromIntent     func(device string, got I, prior *M) M
	// checkPlatform reports, at plan time and without the device, what the device's platform
	// cannot express.
	checkPlatform func(dev devices.Device, in I) fabric.Problems
	// readAtPlan makes the plan read the device (hosts: the netdev exists, DCBX, lldpad).
	readAtPlan bool
	// computed, when set, gives the values of computed attributes that the device decides (not
	// the configuration), by attribute name: the plan takes them from its read, and an apply
	// whose plan could not know them from the device after the write.
	computed func(ctx context.Context, drv interfaceOps[I], ifname string) (map[string]attr.Value, error)
}

// hostInterface is the interfaceResource of a host netdev of resource typeName: the device
// must be a NIC host, and the plan reads the host (the netdev exists, DCBX, lldpad).
func hostInterface[M interfaceModel[I], I validatable, D interfaceOps[I]](typeName, what string,
	open func(*devices.Registry, string) (D, error), fromIntent func(string, I, *M) M) interfaceResource[M, I] {
	return interfaceResource[M, I]{
		typeName: typeName, what: what,
		open: func(reg *devices.Registry, device string) (interfaceOps[I], error) {
			return open(reg, device)
		},
		checkPlatform: func(dev devices.Device, _ I) fabric.Problems { return driver.CheckHostDevice(dev, typeName) },
		readAtPlan:    true,
		fromIntent:    fromIntent,
	}
}

// written records the outcome of a create or update (op): its failure (err), else the prior
// values in private state, the plan as the state, and the computed values the device decides
// where the plan left them unknown.
func (r *interfaceResource[M, I]) written(ctx context.Context, op string, drv interfaceOps[I], plan M, prior driver.Prior, err error,
	priv privateSetter, state *tfsdk.State, diags *diag.Diagnostics) {
	device, ifname := plan.ids()
	if r.failed(diags, op, device, ifname, err) {
		return
	}
	recordWrite(ctx, priv, prior, state, plan, diags)
	err = r.setComputed(ctx, drv, ifname.ValueString(), path.Empty(), true, state.GetAttribute, state.SetAttribute)
	r.failed(diags, "read after "+op, device, ifname, err)
}

// setComputed sets r.computed's values on a plan or state (set), in the object at base (the
// root, or a map resource's entry), where they are unknown when onlyUnknown.
func (r *interfaceResource[M, I]) setComputed(ctx context.Context, drv interfaceOps[I], ifname string, base path.Path, onlyUnknown bool,
	get func(context.Context, path.Path, any) diag.Diagnostics, set func(context.Context, path.Path, any) diag.Diagnostics) error {
	if r.computed == nil {
		return nil
	}
	vals, err := r.computed(ctx, drv, ifname)
	if err != nil {
		return err
	}
	for name, v := range vals {
		var cur types.String
		if onlyUnknown {
			if get(ctx, base.AtName(name), &cur); !cur.IsUnknown() {
				continue
			}
		}
		set(ctx, base.AtName(name), v)
	}
	return nil
}

func (r *interfaceResource[M, I]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(r.typeName, "roce")
}

func (r *interfaceResource[M, I]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	validateRelations[M](ctx, req, resp)
}

func (r *interfaceResource[M, I]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	ctx = withTransportLogs(ctx) // it reads devices
	plan, ok := beginModifyPlan[M](ctx, &r.deviceResource, req, resp, nil)
	if !ok {
		return
	}
	device, ifname := plan.ids()
	if !device.IsUnknown() && !ifname.IsUnknown() {
		setID(ctx, resp, plan.id(), device.ValueString()+"/"+ifname.ValueString())
	}
	if !ifname.IsUnknown() {
		r.claim(device, map[string]attr.Value{ifname.ValueString(): nil}, &resp.Diagnostics)
	}
	dev, ok := r.plannedDevice(device, &resp.Diagnostics)
	if !ok || !plan.known() {
		return
	}
	in, diags := plan.intent(ctx)
	resp.Diagnostics.Append(diags...)
	if probs := r.checkPlatform(dev, in); len(probs) > 0 {
		addProblems(&resp.Diagnostics, probs)
		return
	}
	if !r.readAtPlan || len(in.Validate()) > 0 {
		return // ValidateConfig reports invalid values
	}
	if !req.State.Raw.IsNull() && req.Plan.Raw.Equal(req.State.Raw) {
		return // nothing to apply: nothing to check on the device
	}
	var drv interfaceOps[I]
	probs, err := r.checkBeforeChange(ctx, &drv, device.ValueString(), ifname.ValueString(), in, func(drv interfaceOps[I]) error {
		return r.setComputed(ctx, drv, ifname.ValueString(), path.Empty(), false, resp.Plan.GetAttribute, resp.Plan.SetAttribute)
	})
	addProblems(&resp.Diagnostics, probs) // on the attribute at fault
	r.checkFailed(&resp.Diagnostics, path.Root("interface"), !req.State.Raw.IsNull(), device.ValueString(), ifname.ValueString(), err)
}

// checkBeforeChange checks on the device what a plan is about to change on interface ifname:
// that the interface is there and can take it (Check), the planned settings where the driver
// checks them (CheckIntent, whose problems are returned apart, for the attributes at fault),
// then the values the device decides (computed, when not nil). *drv is opened on first use, so
// a map or group opens its device once for all its interfaces.
func (r *interfaceResource[M, I]) checkBeforeChange(ctx context.Context, drv *interfaceOps[I], device, ifname string, in I,
	computed func(interfaceOps[I]) error) (fabric.Problems, error) {
	if *drv == nil {
		d, err := r.open(r.registry(), device)
		if err != nil {
			return nil, err
		}
		*drv = d
	}
	if err := (*drv).Check(ctx, ifname); err != nil {
		return nil, err
	}
	if ic, ok := (*drv).(intentChecker[I]); ok {
		if err := ic.CheckIntent(ctx, in); err != nil {
			var probs fabric.Problems
			if errors.As(err, &probs) {
				return probs, nil
			}
			return nil, err
		}
	}
	if computed == nil {
		return nil, nil
	}
	return nil, computed(*drv)
}

// checkFailed reports checkBeforeChange's error on the attribute at. Terraform plans again
// during apply, so the check also fails an apply: the summary names the operation it guards
// (an update of an interface the resource had, else a create), as the apply's own errors do.
func (r *interfaceResource[M, I]) checkFailed(diags *diag.Diagnostics, at path.Path, had bool, device, ifname string, err error) {
	if err == nil {
		return
	}
	op := "create"
	if had {
		op = "update"
	}
	diags.AddAttributeError(at, fmt.Sprintf("Cannot %s %s of %q on device %q", op, r.what, ifname, device),
		"Checking the interface before the change failed: "+err.Error())
}

func (r *interfaceResource[M, I]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	ctx, plan, done := start[M](ctx, &r.deviceResource, "create", r.typeName, planOf(req.Plan), &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	in := intentOf[I](ctx, plan, &resp.Diagnostics)
	device, ifname := plan.ids()
	drv, ok := r.driver("create", device, ifname, &resp.Diagnostics)
	if !ok {
		return
	}
	prior, err := drv.Create(ctx, in)
	r.written(ctx, "create", drv, plan, prior, err, resp.Private, &resp.State, &resp.Diagnostics)
}

func (r *interfaceResource[M, I]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	ctx, st, done := startOnState[M](ctx, &r.deviceResource, "read", r.typeName, req.State, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	device, ifname := st.ids()
	if resp.Diagnostics.HasError() {
		return
	}
	var managed *I
	if !st.imported() {
		m := intentOf[I](ctx, st, &resp.Diagnostics)
		managed = &m
	}
	drv, ok := r.driver("read", device, ifname, &resp.Diagnostics)
	if !ok {
		return
	}
	got, err := drv.Read(ctx, ifname.ValueString(), managed)
	if r.failed(&resp.Diagnostics, "read", device, ifname, err) {
		return
	}
	if settled(ctx, &resp.State, managed, got) {
		return
	}
	prior := &st
	if st.imported() {
		prior = nil
	}
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, r.fromIntent(device.ValueString(), *got, prior))...)
}

func (r *interfaceResource[M, I]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	ctx, plan, st, done := startUpdate[M](ctx, &r.deviceResource, r.typeName, req, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	next, old := intentOf[I](ctx, plan, &resp.Diagnostics), intentOf[I](ctx, st, &resp.Diagnostics)
	prior := priorOf(ctx, req.Private, &resp.Diagnostics)
	device, ifname := plan.ids()
	drv, ok := r.driver("update", device, ifname, &resp.Diagnostics)
	if !ok {
		return
	}
	newPrior, err := drv.Update(ctx, old, next, prior)
	r.written(ctx, "update", drv, plan, newPrior, err, resp.Private, &resp.State, &resp.Diagnostics)
}

func (r *interfaceResource[M, I]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	ctx, st, done := startOnState[M](ctx, &r.deviceResource, "delete", r.typeName, req.State, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	old := intentOf[I](ctx, st, &resp.Diagnostics)
	prior := priorOf(ctx, req.Private, &resp.Diagnostics)
	device, ifname := st.ids()
	drv, ok := r.driver("delete", device, ifname, &resp.Diagnostics)
	if !ok {
		return
	}
	r.failed(&resp.Diagnostics, "delete", device, ifname, drv.Delete(ctx, old, prior))
}

func (r *interfaceResource[M, I]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	r.importDeviceID(ctx, req, resp, "interface", "gpu-1/eth0")
}

// settled reports a read that writes no new state, where the resource's Read is done: got nil,
// the object is gone from the device and the resource leaves the state; or got is what the
// state says (managed), and the state the framework copied into the response stays as it is.
// Encoding it again was the largest single part of Read's allocations in a no-change plan, 5 %
// of all (DESIGN.md, Performance).
func settled[I any](ctx context.Context, state *tfsdk.State, managed, got *I) bool {
	if got == nil {
		state.RemoveResource(ctx)
		return true
	}
	return managed != nil && reflect.DeepEqual(*managed, *got)
}

// driver opens the driver of device for op, unless op has already failed (diags holds an
// error); a failure to open it is reported.
func (r *interfaceResource[M, I]) driver(op string, device, ifname types.String, diags *diag.Diagnostics) (interfaceOps[I], bool) {
	if diags.HasError() {
		return nil, false
	}
	drv, err := r.open(r.registry(), device.ValueString())
	return drv, !r.failed(diags, op, device, ifname, err)
}

// failed reports a failed operation naming the resource, the device and the interface.
func (r *interfaceResource[M, I]) failed(diags *diag.Diagnostics, op string, device, ifname types.String, err error) bool {
	return opFailed(diags, op, fmt.Sprintf("%s of %q on device %q", r.what, ifname.ValueString(), device.ValueString()), err)
}
