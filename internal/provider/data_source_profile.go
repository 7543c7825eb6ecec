package provider

import (
	"context"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

var _ datasource.DataSource = (*profileDataSource)(nil)

func newProfileDataSource() datasource.DataSource { return &profileDataSource{"roce_profile"} }

// profileDataSource turns a workload into consistent switch, NIC and DCQCN settings. It needs
// no device.
type profileDataSource struct{ dataSourceName }

type profileModel struct {
	Workload          types.String `tfsdk:"workload"`
	RoCEDSCP          types.Int64  `tfsdk:"roce_dscp"`
	CNPDSCP           types.Int64  `tfsdk:"cnp_dscp"`
	RoCEPriority      types.Int64  `tfsdk:"roce_priority"`
	CNPPriority       types.Int64  `tfsdk:"cnp_priority"`
	LinkSpeedGbps     types.Int64  `tfsdk:"link_speed_gbps"`
	PortBufferBytes   types.Int64  `tfsdk:"port_buffer_bytes"`
	SwitchClasses     types.Map    `tfsdk:"switch_classes"`
	PFCPriorities     types.Set    `tfsdk:"pfc_priorities"`
	NICDSCPToPriority types.Map    `tfsdk:"nic_dscp_to_priority"`
	RoCEToS           types.Int64  `tfsdk:"roce_tos"`
	ReactionPoint     types.Object `tfsdk:"reaction_point"`
	NotificationPoint types.Object `tfsdk:"notification_point"`
}

func (ds *profileDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	var d deriver
	defer d.report(&resp.Diagnostics)
	in := func(desc string, r fabric.IntRule) schema.Int64Attribute {
		return schema.Int64Attribute{Optional: true, Computed: true, MarkdownDescription: acceptedInt(desc, r),
			Validators: []validator.Int64{intRule(r)}}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Consistent RoCE settings for a workload, for switches, NICs and DCQCN alike: plug `switch_classes` into `roce_qos_policy.classes`, `pfc_priorities`, `nic_dscp_to_priority` and `roce_tos` into `roce_nic_qos`, `reaction_point` and `notification_point` into `roce_dcqcn_profile`, and feed the same values to `roce_fabric_check`.",
		Attributes: map[string]schema.Attribute{
			"workload": schema.StringAttribute{Required: true, Validators: []validator.String{stringRule{fabric.WorkloadRule}},
				MarkdownDescription: acceptedString("`ai-training` (lossless RoCE class, higher ECN Kmax, fast rate recovery), `storage` (lossless, "+
					"gentler rate cuts and smoother recovery) or `lossy` (no PFC; ECN and DCQCN only).", fabric.WorkloadRule)},
			"roce_dscp":       in("DSCP of RoCE data. Default 26.", fabric.RoCEDSCPRule),
			"cnp_dscp":        in("DSCP of CNPs. Default 48.", fabric.ProfileCNPDSCPRule),
			"roce_priority":   in("Priority / traffic class of RoCE data. Default 3.", fabric.RoCEPriorityRule),
			"cnp_priority":    in("Priority / traffic class of CNPs. Default 6.", fabric.ProfileCNPPriorityRule),
			"link_speed_gbps": in("Port speed the ECN thresholds are sized for. Default 400.", fabric.LinkSpeedRule),
			"port_buffer_bytes": in("The buffer one switch port may use, which bounds the ECN thresholds: where the speed-scaled Kmax would exceed it, "+
				"Kmax is this value and Kmin shrinks in proportion. Default 2621440 (2.5 MiB, this project's figure for one port's share of a 64 x 800G switch); "+
				"set your switch's figure where you know it.", fabric.PortBufferRule),
			"switch_classes": schema.MapNestedAttribute{Computed: true,
				MarkdownDescription: "Classes shaped like `roce_qos_policy.classes`.",
				NestedObject:        schema.NestedAttributeObject{Attributes: d.classes(true)}},
			"pfc_priorities":       schema.SetAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: "PFC (no-drop) priorities, for `roce_nic_qos.pfc_priorities` and DCQCN `priorities`."},
			"nic_dscp_to_priority": computedIntMap("For `roce_nic_qos.dscp_to_priority`."),
			"roce_tos":             computedInt("RoCE DSCP << 2 | ECT(0), for `roce_nic_qos.roce_tos`."),
			"reaction_point":       schema.SingleNestedAttribute{Computed: true, Attributes: d.params("reaction_point", true), MarkdownDescription: "For `roce_dcqcn_profile.reaction_point`."},
			"notification_point":   schema.SingleNestedAttribute{Computed: true, Attributes: d.params("notification_point", true), MarkdownDescription: "For `roce_dcqcn_profile.notification_point`."},
		},
	}
}

func (d *profileDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m profileModel
	resp.Diagnostics.Append(tfmodel.Config(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// Defaults fill only what the configuration leaves out, so an explicit 0 is judged (and
	// refused) rather than taken for "unset".
	opt := func(v types.Int64, def int) int {
		if v.IsNull() || v.IsUnknown() {
			return def
		}
		return int(v.ValueInt64())
	}
	in := fabric.ProfileInput{Workload: m.Workload.ValueString(),
		RoCEDSCP: opt(m.RoCEDSCP, fabric.DefaultRoCEDSCP), CNPDSCP: opt(m.CNPDSCP, fabric.DefaultCNPDSCP),
		RoCEPriority: opt(m.RoCEPriority, fabric.DefaultRoCEPriority), CNPPriority: opt(m.CNPPriority, fabric.DefaultCNPPriority),
		LinkSpeedGbps:   opt(m.LinkSpeedGbps, fabric.DefaultLinkSpeedGbps),
		PortBufferBytes: int64(opt(m.PortBufferBytes, int(fabric.DefaultPortBufferBytes)))}
	if probs := fabric.Relations(in); len(probs) > 0 { // the field rules are the schema's validators
		addProblems(&resp.Diagnostics, probs)
		return
	}
	p, err := fabric.BuildProfile(in)
	if err != nil {
		resp.Diagnostics.AddError("Cannot build the RoCE profile", err.Error())
		return
	}
	m.RoCEDSCP, m.CNPDSCP = types.Int64Value(int64(in.RoCEDSCP)), types.Int64Value(int64(in.CNPDSCP))
	m.RoCEPriority, m.CNPPriority = types.Int64Value(int64(in.RoCEPriority)), types.Int64Value(int64(in.CNPPriority))
	m.LinkSpeedGbps = types.Int64Value(int64(in.LinkSpeedGbps))
	m.PortBufferBytes = types.Int64Value(in.PortBufferBytes)
	classes := map[string]attr.Value{}
	for name, c := range p.SwitchClasses {
		obj, diags := types.ObjectValueFrom(ctx, classAttrTypes, classModelOf(c))
		resp.Diagnostics.Append(diags...)
		classes[name] = obj
	}
	m.SwitchClasses = types.MapValueMust(types.ObjectType{AttrTypes: classAttrTypes}, classes)
	m.PFCPriorities = intSet(p.PFCPriorities)
	nic := map[string]attr.Value{}
	for dscp, prio := range p.NICDSCPToPriority {
		nic[strconv.Itoa(dscp)] = types.Int64Value(int64(prio))
	}
	m.NICDSCPToPriority = types.MapValueMust(types.Int64Type, nic)
	m.RoCEToS = types.Int64Value(int64(p.RoCEToS))
	m.ReactionPoint = paramObject(rpAttrTypes, p.ReactionPoint, nil)
	m.NotificationPoint = paramObject(npAttrTypes, p.NotificationPoint, nil)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, m)...)
}
