package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

// deviceResource is embedded by every resource that lives on one device: it receives the
// provider data and holds the device checks all of them share.
type deviceResource struct{ pd *providerData }

func (r *deviceResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.pd = providerDataOf(req.ProviderData, &resp.Diagnostics)
}

// providerDataOf is the provider data a resource or data source is configured with: nil
// before the provider is configured (validation), or when data is not the provider's (a bug,
// reported).
func providerDataOf(data any, diags *diag.Diagnostics) *providerData {
	if data == nil {
		return nil
	}
	pd, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("got %T; this is a bug in the provider", data))
	}
	return pd
}

// trace starts the log of one CRUD operation: every later log line of the request carries the
// resource type, the device and its platform, and credentials are masked (a mask set in
// Configure does not reach the requests' contexts), the transports' included. done logs how
// the operation ended.
func (r *deviceResource) trace(ctx context.Context, op, typeName string, device types.String) (context.Context, func(*diag.Diagnostics)) {
	ctx = withTransportLogs(ctx)
	ctx = tflog.SetField(ctx, "resource_type", typeName)
	ctx = tflog.SetField(ctx, "device", device.ValueString())
	if d, ok := r.registry().Device(device.ValueString()); ok {
		ctx = tflog.SetField(ctx, "platform", d.Platform)
	}
	tflog.Debug(ctx, "roce "+op+" started")
	return ctx, func(diags *diag.Diagnostics) {
		if diags.HasError() {
			tflog.Debug(ctx, "roce "+op+" failed", map[string]any{"errors": diags.ErrorsCount()})
			return
		}
		tflog.Debug(ctx, "roce "+op+" done", map[string]any{"warnings": diags.WarningsCount()})
	}
}

func (r *deviceResource) registry() *devices.Registry {
	if r.pd == nil {
		return devices.NewRegistry(nil, nil)
	}
	return r.pd.registry
}

// plannedDevice returns the device a plan names, or adds an error on `device` when the
// provider knows its devices and this one is not among them. ok is false when there is
// nothing to check yet (unknown values) or the device is unknown.
func (r *deviceResource) plannedDevice(name types.String, diags *diag.Diagnostics) (devices.Device, bool) {
	if r.pd == nil || !r.pd.known || name.IsUnknown() || name.IsNull() {
		return devices.Device{}, false
	}
	dev, ok := r.pd.registry.Device(name.ValueString())
	if !ok {
		diags.AddAttributeError(path.Root("device"), "Unknown device", r.pd.registry.UnknownDeviceDetail(name.ValueString()))
	}
	return dev, ok
}

// checkDeviceForDestroy refuses to refresh or destroy a resource whose device has left
// `devices`: without the device's address and credentials the objects on it can be neither
// read nor removed.
func (r *deviceResource) checkDeviceForDestroy(name types.String, diags *diag.Diagnostics) {
	if r.pd == nil || !r.pd.known || name.IsNull() || name.IsUnknown() {
		return
	}
	if _, ok := r.pd.registry.Device(name.ValueString()); !ok {
		diags.AddAttributeError(path.Root("device"), "Device removed while its resources remain",
			fmt.Sprintf("Device %q is no longer in the provider's `devices` map, but this resource lives on it. Keep the device in `devices` until its resources are destroyed, then remove it.", name.ValueString()))
	}
}

// importDeviceID splits an import ID `<device>/<rest>` on the first "/" (interface names may
// hold "/") and sets device and the attribute second. A device the provider does not know is
// refused here, naming the configured ones, rather than later as a device removed from
// `devices`.
func (r *deviceResource) importDeviceID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, second, example string) {
	device, rest, ok := r.importID(req.ID, second, example, &resp.Diagnostics)
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("device"), device)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(second), rest)...)
}

// importID splits and checks an import ID `<device>/<rest>` (importDeviceID).
func (r *deviceResource) importID(id, second, example string, diags *diag.Diagnostics) (device, rest string, ok bool) {
	device, rest, ok = strings.Cut(id, "/")
	if !ok || device == "" || rest == "" {
		diags.AddError("Invalid import ID",
			fmt.Sprintf("Import ID %q must be <device>/<%s>, for example %s.", id, second, example))
		return "", "", false
	}
	if r.pd != nil && r.pd.known {
		if _, ok := r.pd.registry.Device(device); !ok {
			diags.AddError("Unknown device in the import ID", fmt.Sprintf("Import ID %q: %s", id, r.pd.registry.UnknownDeviceDetail(device)))
			return "", "", false
		}
	}
	return device, rest, true
}

// setID plans the resource's id when the plan does not already hold it. A plan with no change
// holds it (the framework copies the prior state's id), and Plan.SetAttribute walks and copies
// the whole planned object: about 2 % of the bytes a no-change plan allocated in the provider
// (DESIGN.md, Performance).
func setID(ctx context.Context, resp *resource.ModifyPlanResponse, planned types.String, id string) {
	if planned.Equal(types.StringValue(id)) {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), id)...)
}

// opFailed reports a failed device operation op on subject (`QoS policy "ROCE" on device
// "leaf-1"`) and whether the resource must stop. A change the device took with a complaint
// (driver.Applied) is a warning: it is on the device, so the state records it.
func opFailed(diags *diag.Diagnostics, op, subject string, err error) bool {
	if err == nil {
		return false
	}
	if what, ok := driver.Applied(err); ok {
		diags.AddWarning(subject+" "+what, err.Error())
		return false
	}
	diags.AddError("Cannot "+op+" "+subject, err.Error())
	return true
}

// recordWrite records a successful create or update: what the device had before, kept in
// private state for the next update or the delete, and the resource's new state.
func recordWrite(ctx context.Context, priv privateSetter, prior driver.Prior, state *tfsdk.State, model any, diags *diag.Diagnostics) {
	diags.Append(setPrivate(ctx, priv, privateKeyPrior, prior)...)
	diags.Append(tfmodel.SetState(ctx, state, model)...)
}

// onDevice is the model of a resource that lives on one device.
type onDevice interface{ deviceName() types.String }

// beginModifyPlan reads a ModifyPlan's plan, and its prior state into st when st is not nil
// and the resource exists. A destroy only checks that the device is still configured; it, and
// a plan that cannot be read, return ok false: nothing more to plan.
func beginModifyPlan[M onDevice](ctx context.Context, r *deviceResource, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse,
	st *M) (plan M, ok bool) {
	if req.Plan.Raw.IsNull() {
		var gone M
		resp.Diagnostics.Append(tfmodel.State(ctx, req.State, &gone)...)
		r.checkDeviceForDestroy(gone.deviceName(), &resp.Diagnostics)
		return plan, false
	}
	resp.Diagnostics.Append(tfmodel.Plan(ctx, req.Plan, &plan)...)
	if st != nil && !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(tfmodel.State(ctx, req.State, st)...)
	}
	return plan, !resp.Diagnostics.HasError()
}

// planOf and stateOf are start's get for a request's plan and state, read by tfmodel.
func planOf(p tfsdk.Plan) func(context.Context, any) diag.Diagnostics {
	return func(ctx context.Context, v any) diag.Diagnostics { return tfmodel.Plan(ctx, p, v) }
}

func stateOf(s tfsdk.State) func(context.Context, any) diag.Diagnostics {
	return func(ctx context.Context, v any) diag.Diagnostics { return tfmodel.State(ctx, s, v) }
}

// start reads the model of CRUD operation op of resource typeName (from the plan or the state:
// get) and starts its trace; done, deferred, logs how the operation ended.
func start[M onDevice](ctx context.Context, r *deviceResource, op, typeName string, get func(context.Context, any) diag.Diagnostics,
	diags *diag.Diagnostics) (context.Context, M, func(*diag.Diagnostics)) {
	var m M
	diags.Append(get(ctx, &m)...)
	ctx, done := r.trace(ctx, op, typeName, m.deviceName())
	return ctx, m, done
}

// startOnState is start for a read or a delete, whose model is the state: the resource's
// device must still be configured (checkDeviceForDestroy).
func startOnState[M onDevice](ctx context.Context, r *deviceResource, op, typeName string, state tfsdk.State,
	diags *diag.Diagnostics) (context.Context, M, func(*diag.Diagnostics)) {
	ctx, m, done := start[M](ctx, r, op, typeName, stateOf(state), diags)
	r.checkDeviceForDestroy(m.deviceName(), diags)
	return ctx, m, done
}

// startUpdate is start for an update: the plan, and the state it replaces (st).
func startUpdate[M onDevice](ctx context.Context, r *deviceResource, typeName string, req resource.UpdateRequest,
	diags *diag.Diagnostics) (_ context.Context, plan, st M, _ func(*diag.Diagnostics)) {
	diags.Append(tfmodel.State(ctx, req.State, &st)...)
	ctx, plan, done := start[M](ctx, r, "update", typeName, planOf(req.Plan), diags)
	return ctx, plan, st, done
}

// intentModel is the model of a resource whose settings are a fabric intent I.
type intentModel[I any] interface {
	onDevice
	intent(ctx context.Context) (I, diag.Diagnostics)
	known() bool
}

// intentOf is m's settings as a fabric intent, its conversion's problems added to diags;
// after an earlier error nothing is converted (the zero intent).
func intentOf[I any, M intentModel[I]](ctx context.Context, m M, diags *diag.Diagnostics) I {
	var in I
	if diags.HasError() {
		return in
	}
	in, d := m.intent(ctx)
	diags.Append(d...)
	return in
}

// priorOf is what the device had before the resource changed it (recordWrite), for an update
// or a delete.
func priorOf(ctx context.Context, priv privateGetter, diags *diag.Diagnostics) driver.Prior {
	prior, d := getPrivate(ctx, priv, privateKeyPrior)
	diags.Append(d...)
	return prior
}

// validateRelations is the ValidateConfig of a resource whose model is a fabric intent: once
// the configuration is known, what relates its attributes (fabric.Relations), on the attribute
// at fault. The schema validators check each attribute by itself.
func validateRelations[M intentModel[I], I fabric.Intent](ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m M
	resp.Diagnostics.Append(tfmodel.Config(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() || !m.known() {
		return
	}
	in, diags := m.intent(ctx)
	resp.Diagnostics.Append(diags...)
	addProblems(&resp.Diagnostics, fabric.Relations(in))
}
