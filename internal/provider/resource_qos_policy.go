package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

var (
	_ resource.ResourceWithConfigure      = (*qosPolicyResource)(nil)
	_ resource.ResourceWithImportState    = (*qosPolicyResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*qosPolicyResource)(nil)
	_ resource.ResourceWithValidateConfig = (*qosPolicyResource)(nil)
)

// privateKeyPrior is the private-state key holding what the device had before we changed it.
const privateKeyPrior = "prior.v1"

func newQoSPolicyResource() resource.Resource { return &qosPolicyResource{} }

type qosPolicyResource struct{ deviceResource }

func (r *qosPolicyResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_qos_policy"
}

func (r *qosPolicyResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	// Ranges, fixed values and name forms are fabric's field rules, checked by the schema
	// validators (validators.go); ValidateConfig checks the relations between attributes.
	resp.Schema = schema.Schema{
		MarkdownDescription: "A switch's RoCE QoS policy: DSCP classification into traffic classes (all 64 DSCPs written, unlisted ones to `default_traffic_class`), ETS scheduling (bandwidth shares or strict priority), ECN/WRED marking per class, lossless (PFC no-drop) classes, bound to a set of ports. The whole policy is written in one atomic device operation.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "`<device>/<name>`."},
			"device": schema.StringAttribute{Required: true,
				MarkdownDescription: "Name of the switch in the provider's `devices` map. Changing it replaces the resource.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"name": ruledString(schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(fabric.DefaultPolicyName),
				MarkdownDescription: "Policy name, carried in the names of the device objects the policy creates. Default `ROCE`. A change renames the objects in place, in one atomic operation."},
				fabric.PolicyNameRule),
			"trust": ruledString(schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(string(fabric.TrustDSCP)),
				MarkdownDescription: "Field the switch classifies on. Default `dscp`."}, fabric.QoSTrustRule),
			"default_traffic_class": ruledInt(schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(0),
				MarkdownDescription: "Traffic class of every DSCP no class lists. Default `0`."}, fabric.DefaultTrafficClassRule),
			"classes": ruledKeys(schema.MapNestedAttribute{Required: true,
				MarkdownDescription: "Traffic classes keyed by class name.",
				NestedObject:        schema.NestedAttributeObject{Attributes: classSchema()}}, fabric.ClassNameRule),
			"interfaces": ruledStrings(schema.SetAttribute{Optional: true, Computed: true, ElementType: types.StringType,
				Default:             setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{})),
				MarkdownDescription: "Ports the policy is bound to. Default: none."}, fabric.PortNameRule),
		},
	}
}

func classSchema() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"traffic_class": ruledInt(schema.Int64Attribute{Required: true,
			MarkdownDescription: "Traffic class, unique across classes: the internal class, the 802.1p priority used for PFC and the egress queue."},
			fabric.TrafficClassRule),
		"dscp": ruledInts(schema.SetAttribute{Optional: true, Computed: true, ElementType: types.Int64Type,
			Default:             setdefault.StaticValue(types.SetValueMust(types.Int64Type, []attr.Value{})),
			MarkdownDescription: "DSCP values classified into this class; disjoint across classes."}, fabric.ClassDSCPRule),
		"pcp": ruledInts(schema.SetAttribute{Optional: true, ElementType: types.Int64Type,
			MarkdownDescription: "802.1p values classified into this class (with `trust = pcp|dscp_pcp`). Not on `openconfig`."}, fabric.ClassPCPRule),
		"bandwidth_percent": ruledInt(schema.Int64Attribute{Optional: true,
			MarkdownDescription: "ETS minimum bandwidth share. Exactly one of `bandwidth_percent` and `strict_priority`; the shares of non-strict classes sum to 100."},
			fabric.ClassShareRule),
		"strict_priority": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "Schedule this class strictly before the others (CNP traffic). Default `false`."},
		"lossless": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "PFC no-drop priority. At most 2 lossless classes. Not on `openconfig` (no PFC model)."},
		"mtu": ruledInt(schema.Int64Attribute{Optional: true,
			MarkdownDescription: "Per-class MTU, on platforms that have one (NX-OS network-qos)."}, fabric.MTURule),
		"ecn": schema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "WRED/ECN marking on this class's queue. Unmanaged while unset.",
			Attributes: map[string]schema.Attribute{
				"min_threshold_bytes": ruledInt(schema.Int64Attribute{Required: true,
					MarkdownDescription: "Queue depth, in bytes, where marking starts (Kmin)."}, fabric.ECNMinThresholdRule),
				"max_threshold_bytes": schema.Int64Attribute{Required: true,
					MarkdownDescription: "Queue depth, in bytes, where marking reaches `mark_probability_percent` (Kmax); at least the minimum."},
				"mark_probability_percent": ruledInt(schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(100),
					MarkdownDescription: "Marking probability at the maximum threshold. Default `100`."}, fabric.MarkProbabilityRule),
			}},
	}
}

func (r *qosPolicyResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	validateRelations[qosPolicyModel](ctx, req, resp)
}

func (r *qosPolicyResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, ok := beginModifyPlan[qosPolicyModel](ctx, &r.deviceResource, req, resp, nil)
	if !ok {
		return
	}
	if !plan.Device.IsUnknown() && !plan.Name.IsUnknown() {
		id := plan.Device.ValueString() + "/" + plan.Name.ValueString()
		setID(ctx, resp, plan.ID, id)
		plan.ID = types.StringValue(id)
	}
	dev, ok := r.plannedDevice(plan.Device, &resp.Diagnostics)
	if !ok || !plan.known() {
		return
	}
	p, diags := plan.intent(ctx)
	resp.Diagnostics.Append(diags...)
	addProblems(&resp.Diagnostics, driver.CheckQoSPolicy(dev, p))
}

func (r *qosPolicyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	ctx, plan, done := start[qosPolicyModel](ctx, &r.deviceResource, "create", "roce_qos_policy", planOf(req.Plan), &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	p := intentOf[fabric.QoSPolicy](ctx, plan, &resp.Diagnostics)
	drv, ok := r.driver("create", plan.Device, p.Name, &resp.Diagnostics)
	if !ok {
		return
	}
	prior, err := drv.Create(ctx, p)
	if errors.Is(err, driver.ErrExists) {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "QoS policy already exists",
			fmt.Sprintf("Device %q already has a QoS policy named %q. Import it (terraform import %s %s/%s) or choose another name.",
				plan.Device.ValueString(), p.Name, "roce_qos_policy.NAME", plan.Device.ValueString(), p.Name))
		return
	}
	r.written(ctx, "create", plan, p.Name, prior, err, resp.Private, &resp.State, &resp.Diagnostics)
}

func (r *qosPolicyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	ctx, st, done := startOnState[qosPolicyModel](ctx, &r.deviceResource, "read", "roce_qos_policy", req.State, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	drv, ok := r.driver("read", st.Device, st.Name.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	var known *fabric.QoSPolicy
	if !st.Classes.IsNull() {
		k := intentOf[fabric.QoSPolicy](ctx, st, &resp.Diagnostics)
		known = &k
	}
	got, err := drv.Read(ctx, st.Name.ValueString(), known)
	if r.failed(&resp.Diagnostics, "read", st.Device, st.Name.ValueString(), err) {
		return
	}
	if settled(ctx, &resp.State, known, got) {
		return
	}
	prior := &st
	if st.Classes.IsNull() { // import: everything the resource would manage
		prior = nil
	} else if got.ListsAllDSCPs() {
		// Every DSCP is in a class, so default_traffic_class has no effect on the device and
		// some platforms keep no trace of it: keep the configured value.
		got.DefaultTrafficClass = int(st.DefaultTrafficClass.ValueInt64())
	}
	m, diags := fromIntent(ctx, st.Device.ValueString(), *got, prior)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, m)...)
}

func (r *qosPolicyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	ctx, plan, st, done := startUpdate[qosPolicyModel](ctx, &r.deviceResource, "roce_qos_policy", req, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	next, old := intentOf[fabric.QoSPolicy](ctx, plan, &resp.Diagnostics), intentOf[fabric.QoSPolicy](ctx, st, &resp.Diagnostics)
	prior := priorOf(ctx, req.Private, &resp.Diagnostics)
	drv, ok := r.driver("update", plan.Device, old.Name, &resp.Diagnostics)
	if !ok {
		return
	}
	newPrior, err := drv.Update(ctx, old, next, prior)
	// A new name forces a replacement: next.Name is old.Name.
	r.written(ctx, "update", plan, next.Name, newPrior, err, resp.Private, &resp.State, &resp.Diagnostics)
}

func (r *qosPolicyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	ctx, st, done := startOnState[qosPolicyModel](ctx, &r.deviceResource, "delete", "roce_qos_policy", req.State, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	old := intentOf[fabric.QoSPolicy](ctx, st, &resp.Diagnostics)
	prior := priorOf(ctx, req.Private, &resp.Diagnostics)
	drv, ok := r.driver("delete", st.Device, old.Name, &resp.Diagnostics)
	if !ok {
		return
	}
	r.failed(&resp.Diagnostics, "delete", st.Device, old.Name, drv.Delete(ctx, old, prior))
}

func (r *qosPolicyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	r.importDeviceID(ctx, req, resp, "name", "leaf-1/ROCE")
}

// driver opens the QoS policy driver of device for op on the policy name, unless op has
// already failed (diags holds an error); a failure to open it is reported.
func (r *qosPolicyResource) driver(op string, device types.String, name string, diags *diag.Diagnostics) (driver.QoSPolicy, bool) {
	if diags.HasError() {
		return nil, false
	}
	drv, err := driver.ForQoSPolicy(r.registry(), device.ValueString())
	return drv, !r.failed(diags, op, device, name, err)
}

// written records the outcome of a create or update (op) of the policy name: its failure
// (err), else the ID, the prior values in private state and the plan as the state.
func (r *qosPolicyResource) written(ctx context.Context, op string, plan qosPolicyModel, name string, prior driver.Prior, err error,
	priv privateSetter, state *tfsdk.State, diags *diag.Diagnostics) {
	if r.failed(diags, op, plan.Device, name, err) {
		return
	}
	plan.ID = types.StringValue(plan.Device.ValueString() + "/" + name)
	recordWrite(ctx, priv, prior, state, plan, diags)
}

// failed reports a failed operation on the policy name of device.
func (r *qosPolicyResource) failed(diags *diag.Diagnostics, op string, device types.String, name string, err error) bool {
	return opFailed(diags, op, fmt.Sprintf("QoS policy %q on device %q", name, device.ValueString()), err)
}
