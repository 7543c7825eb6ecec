package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

var _ datasource.DataSource = (*fabricCheckDataSource)(nil)

func newFabricCheckDataSource() datasource.DataSource {
	return &fabricCheckDataSource{"roce_fabric_check"}
}

// fabricCheckDataSource checks that switches and hosts agree. It reads no device: its inputs
// are the values that feed the resources, known at plan time.
type fabricCheckDataSource struct{ dataSourceName }

type fabricCheckModel struct {
	SwitchPolicies types.List `tfsdk:"switch_policies"`
	PFCInterfaces  types.List `tfsdk:"pfc_interfaces"`
	NICQoS         types.List `tfsdk:"nic_qos"`
	DCQCNProfiles  types.List `tfsdk:"dcqcn_profiles"`
	Links          types.List `tfsdk:"links"`
	Findings       types.List `tfsdk:"findings"`
	OK             types.Bool `tfsdk:"ok"`
}

var findingAttrTypes = map[string]attr.Type{
	"severity": types.StringType, "rule": types.StringType, "device": types.StringType, "message": types.StringType,
}

func (ds *fabricCheckDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	// Each list element takes the resource's arguments: the attributes are the resource's own.
	var d deriver
	defer d.report(&resp.Diagnostics)
	policy := d.attrs(resourceAttrs(newQoSPolicyResource()), false, "id")
	pfc := d.attrs(resourceAttrs(newPFCInterfaceResource()), false, "id")
	nic := d.attrs(resourceAttrs(newNICQoSResource()), false, "id", "persist", "tool")
	dcqcn := d.attrs(resourceAttrs(newDCQCNProfileResource()), false, "id", "persist")
	list := func(desc string, attrs map[string]schema.Attribute) schema.ListNestedAttribute {
		return schema.ListNestedAttribute{Optional: true, MarkdownDescription: desc, NestedObject: schema.NestedAttributeObject{Attributes: attrs}}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Checks a whole fabric for the inconsistencies that break RoCE (NIC PFC priorities against switch lossless classes, DSCP maps, trust, CNP class, ECN on lossless classes, DCQCN priorities, RoCE ToS, PFC on bound ports, switch agreement, PFC watchdogs) and, with `links`, the two ends of every cable. It reads no device: pass the same values (locals) that feed the resources. Use `ok` in a `lifecycle.precondition` to fail the plan, or a `check` block to warn.",
		Attributes: map[string]schema.Attribute{
			"switch_policies": list("`roce_qos_policy` arguments, one element per switch policy.", policy),
			"pfc_interfaces":  list("`roce_pfc_interface` arguments.", pfc),
			"nic_qos":         list("`roce_nic_qos` arguments.", nic),
			"dcqcn_profiles":  list("`roce_dcqcn_profile` arguments.", dcqcn),
			"links": schema.ListNestedAttribute{Optional: true,
				MarkdownDescription: "Cables between the devices, e.g. `data.roce_fabric_links.x.links`. With links, each cable's two ends are compared (R12-R17): an end with no RoCE configuration, trust, the RoCE and CNP DSCPs' priority, no-drop priorities and PFC at both ends (uplinks included), lossless MTU, ECN toward DCQCN NICs.",
				NestedObject:        schema.NestedAttributeObject{Attributes: linkAttrs(false)}},
			"findings": findingsAttr(),
			"ok":       okAttr(),
		},
	}
}

func (d *fabricCheckDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m fabricCheckModel
	resp.Diagnostics.Append(tfmodel.Config(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	f, diags := m.fabric(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Findings, m.OK = checked(f)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, m)...)
}

// findingsAttr is the findings of roce_fabric_check and roce_fabric_audit.
func findingsAttr() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Computed: true,
		MarkdownDescription: "One finding per violated rule instance: `severity` (`error` or `warning`), `rule` (`R1`..`R17`), `device` and a `message` saying what to change.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"severity": computedString(""), "rule": computedString(""), "device": computedString(""), "message": computedString(""),
		}}}
}

func okAttr() schema.BoolAttribute {
	return computedBool("False when any finding is an error.")
}

// fabric converts the inputs with the resources' own conversions, so defaults and key rules
// are the same. The field rules are the derived schema's validators (the resources' own); what
// relates an element's attributes is reported here, on the attribute at fault.
func (m fabricCheckModel) fabric(ctx context.Context) (fabric.Fabric, diag.Diagnostics) {
	var diags diag.Diagnostics
	var f fabric.Fabric
	eachInput(ctx, &diags, "switch_policies", m.SwitchPolicies, qosPolicyArgs.intent, func(e qosPolicyArgs, p fabric.QoSPolicy) {
		f.Policies = append(f.Policies, fabric.SwitchPolicy{Device: e.Device.ValueString(), Policy: p})
	})
	eachInput(ctx, &diags, "pfc_interfaces", m.PFCInterfaces, pfcInterfaceArgs.intent, func(e pfcInterfaceArgs, p fabric.PFCInterface) {
		f.PFC = append(f.PFC, fabric.SwitchPFC{Device: e.Device.ValueString(), PFC: p})
	})
	eachInput(ctx, &diags, "nic_qos", m.NICQoS, nicQoSArgs.intent, func(e nicQoSArgs, n fabric.NICQoS) {
		f.NICs = append(f.NICs, fabric.HostNIC{Device: e.Device.ValueString(), NIC: n})
	})
	eachInput(ctx, &diags, "dcqcn_profiles", m.DCQCNProfiles, dcqcnArgs.intent, func(e dcqcnArgs, d fabric.DCQCN) {
		f.DCQCN = append(f.DCQCN, fabric.HostDCQCN{Device: e.Device.ValueString(), DCQCN: d})
	})
	f.Links = linksOf(ctx, m.Links, &diags)
	return f, diags
}

// eachInput converts the elements of the list attribute attr with intent, reports what breaks
// the relations between an element's attributes on that element, and passes each to add.
func eachInput[E any, I fabric.Intent](ctx context.Context, diags *diag.Diagnostics, attr string, list types.List,
	intent func(E, context.Context) (I, diag.Diagnostics), add func(E, I)) {
	var elems []E
	diags.Append(list.ElementsAs(ctx, &elems, true)...)
	for i, e := range elems {
		in, d := intent(e, ctx)
		diags.Append(d...)
		reportAt(diags, path.Root(attr).AtListIndex(i), fabric.Relations(in))
		add(e, in)
	}
}

// intent is a dcqcn_profiles element as the resource's intent, with its defaults (a
// dcqcnModel's own intent shadows this one).
func (a dcqcnArgs) intent(ctx context.Context) (fabric.DCQCN, diag.Diagnostics) {
	a.CNPDSCP, a.CNPPriority = int64Or(a.CNPDSCP, 48), int64Or(a.CNPPriority, 6)
	// the check compares settings; persistence is the resource's
	return dcqcnModel{dcqcnArgs: a, Persist: types.BoolValue(false)}.intent(ctx)
}

func int64Or(v types.Int64, def int64) types.Int64 {
	if v.IsNull() || v.IsUnknown() {
		return types.Int64Value(def)
	}
	return v
}

// reportAt attaches an element's validation problems under its list element.
func reportAt(diags *diag.Diagnostics, base path.Path, probs fabric.Problems) {
	for _, pr := range probs {
		diags.AddAttributeError(tfPath(base, pr.Path), pr.Summary, fmt.Sprintf("%s (%s)", pr.Detail, base))
	}
}
