package provider

import (
	"context"
	"iter"
	"maps"
	"slices"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

type qosPolicyModel struct {
	ID types.String `tfsdk:"id"`
	qosPolicyArgs
}

func (m qosPolicyModel) deviceName() types.String { return m.Device }

// qosPolicyArgs are the resource's arguments; roce_fabric_check takes the same shape.
type qosPolicyArgs struct {
	Device              types.String `tfsdk:"device"`
	Name                types.String `tfsdk:"name"`
	Trust               types.String `tfsdk:"trust"`
	DefaultTrafficClass types.Int64  `tfsdk:"default_traffic_class"`
	Classes             types.Map    `tfsdk:"classes"`
	Interfaces          types.Set    `tfsdk:"interfaces"`
}

type classModel struct {
	TrafficClass     types.Int64  `tfsdk:"traffic_class"`
	DSCP             types.Set    `tfsdk:"dscp"`
	PCP              types.Set    `tfsdk:"pcp"`
	BandwidthPercent types.Int64  `tfsdk:"bandwidth_percent"`
	StrictPriority   types.Bool   `tfsdk:"strict_priority"`
	Lossless         types.Bool   `tfsdk:"lossless"`
	MTU              types.Int64  `tfsdk:"mtu"`
	ECN              types.Object `tfsdk:"ecn"`
}

type ecnModel struct {
	MinThresholdBytes      types.Int64 `tfsdk:"min_threshold_bytes"`
	MaxThresholdBytes      types.Int64 `tfsdk:"max_threshold_bytes"`
	MarkProbabilityPercent types.Int64 `tfsdk:"mark_probability_percent"`
}

var ecnAttrTypes = map[string]attr.Type{
	"min_threshold_bytes":      types.Int64Type,
	"max_threshold_bytes":      types.Int64Type,
	"mark_probability_percent": types.Int64Type,
}

var classAttrTypes = map[string]attr.Type{
	"traffic_class":     types.Int64Type,
	"dscp":              types.SetType{ElemType: types.Int64Type},
	"pcp":               types.SetType{ElemType: types.Int64Type},
	"bandwidth_percent": types.Int64Type,
	"strict_priority":   types.BoolType,
	"lossless":          types.BoolType,
	"mtu":               types.Int64Type,
	"ecn":               types.ObjectType{AttrTypes: ecnAttrTypes},
}

// fullyKnown reports whether a Terraform value holds no unknown value at any depth.
func fullyKnown(v attr.Value) bool {
	if v.IsUnknown() {
		return false
	}
	switch x := v.(type) {
	case basetypes.MapValue:
		return allKnown(maps.Values(x.Elements()))
	case basetypes.SetValue:
		return allKnown(slices.Values(x.Elements()))
	case basetypes.ObjectValue:
		return allKnown(maps.Values(x.Attributes()))
	}
	return true
}

// allKnown reports whether every value of vs is fully known.
func allKnown(vs iter.Seq[attr.Value]) bool {
	for v := range vs {
		if !fullyKnown(v) {
			return false
		}
	}
	return true
}

// knownValues is the known of a resource's model: whether the values of its attributes, vs,
// are all fully known.
func knownValues(vs ...attr.Value) bool { return allKnown(slices.Values(vs)) }

func (m qosPolicyArgs) known() bool {
	return knownValues(m.Device, m.Name, m.Trust, m.DefaultTrafficClass, m.Classes, m.Interfaces)
}

// intent converts a fully known model into the fabric intent. Null values that have schema
// defaults are filled with those defaults, so config (before defaults) converts too.
func (m qosPolicyArgs) intent(ctx context.Context) (fabric.QoSPolicy, diag.Diagnostics) {
	var diags diag.Diagnostics
	p := fabric.QoSPolicy{
		Name:                stringOr(m.Name, fabric.DefaultPolicyName),
		Trust:               fabric.Trust(stringOr(m.Trust, string(fabric.TrustDSCP))),
		DefaultTrafficClass: int(m.DefaultTrafficClass.ValueInt64()),
		Classes:             map[string]fabric.Class{},
	}
	classes := map[string]classModel{}
	diags.Append(m.Classes.ElementsAs(ctx, &classes, false)...)
	for name, cm := range classes {
		c := fabric.Class{
			TrafficClass:   int(cm.TrafficClass.ValueInt64()),
			DSCP:           ints(ctx, cm.DSCP, &diags),
			StrictPriority: cm.StrictPriority.ValueBool(),
			Lossless:       cm.Lossless.ValueBool(),
		}
		if !cm.PCP.IsNull() {
			c.PCP = ints(ctx, cm.PCP, &diags)
			if c.PCP == nil {
				c.PCP = []int{}
			}
		}
		if !cm.BandwidthPercent.IsNull() {
			c.BandwidthPercent = fabric.Ptr(int(cm.BandwidthPercent.ValueInt64()))
		}
		if !cm.MTU.IsNull() {
			c.MTU = fabric.Ptr(int(cm.MTU.ValueInt64()))
		}
		if !cm.ECN.IsNull() {
			var em ecnModel
			diags.Append(cm.ECN.As(ctx, &em, basetypes.ObjectAsOptions{})...)
			prob := int64(100)
			if !em.MarkProbabilityPercent.IsNull() {
				prob = em.MarkProbabilityPercent.ValueInt64()
			}
			c.ECN = &fabric.ECN{MinThresholdBytes: em.MinThresholdBytes.ValueInt64(),
				MaxThresholdBytes: em.MaxThresholdBytes.ValueInt64(), MarkProbabilityPercent: int(prob)}
		}
		p.Classes[name] = c
	}
	var ifs []string
	if !m.Interfaces.IsNull() {
		diags.Append(m.Interfaces.ElementsAs(ctx, &ifs, false)...)
	}
	p.Interfaces = ifs
	p.Normalize()
	return p, diags
}

// fromIntent builds the model of a policy read from a device. prior (the state or plan before
// the read, nil on import) decides which optional attributes are managed: an optional
// attribute without a default that is null in prior stays null.
func fromIntent(ctx context.Context, device string, p fabric.QoSPolicy, prior *qosPolicyModel) (qosPolicyModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	priorClasses := map[string]classModel{}
	if prior != nil && !prior.Classes.IsNull() && !prior.Classes.IsUnknown() {
		diags.Append(prior.Classes.ElementsAs(ctx, &priorClasses, false)...)
	}
	classes := map[string]attr.Value{}
	for name, c := range p.Classes {
		pc, had := priorClasses[name]
		manage := func(v attr.Value) bool { return prior == nil || !had || !v.IsNull() }
		cm := classModelOf(c)
		if !manage(pc.PCP) {
			cm.PCP = types.SetNull(types.Int64Type)
		}
		if !manage(pc.MTU) {
			cm.MTU = types.Int64Null()
		}
		if !manage(pc.ECN) {
			cm.ECN = types.ObjectNull(ecnAttrTypes)
		}
		obj, d := types.ObjectValueFrom(ctx, classAttrTypes, cm)
		diags.Append(d...)
		classes[name] = obj
	}
	cmap, d := types.MapValue(types.ObjectType{AttrTypes: classAttrTypes}, classes)
	diags.Append(d...)
	ifs := make([]attr.Value, 0, len(p.Interfaces))
	for _, i := range p.Interfaces {
		ifs = append(ifs, types.StringValue(i))
	}
	return qosPolicyModel{
		ID: types.StringValue(device + "/" + p.Name),
		qosPolicyArgs: qosPolicyArgs{
			Device:              types.StringValue(device),
			Name:                types.StringValue(p.Name),
			Trust:               types.StringValue(string(p.Trust)),
			DefaultTrafficClass: types.Int64Value(int64(p.DefaultTrafficClass)),
			Classes:             cmap,
			Interfaces:          types.SetValueMust(types.StringType, ifs),
		}}, diags
}

// classModelOf renders a class with every attribute it sets.
func classModelOf(c fabric.Class) classModel {
	cm := classModel{
		TrafficClass:     types.Int64Value(int64(c.TrafficClass)),
		DSCP:             intSet(c.DSCP),
		PCP:              types.SetNull(types.Int64Type),
		BandwidthPercent: types.Int64Null(),
		StrictPriority:   types.BoolValue(c.StrictPriority),
		Lossless:         types.BoolValue(c.Lossless),
		MTU:              types.Int64Null(),
		ECN:              types.ObjectNull(ecnAttrTypes),
	}
	if c.PCP != nil {
		cm.PCP = intSet(c.PCP)
	}
	if c.BandwidthPercent != nil {
		cm.BandwidthPercent = types.Int64Value(int64(*c.BandwidthPercent))
	}
	if c.MTU != nil {
		cm.MTU = types.Int64Value(int64(*c.MTU))
	}
	if c.ECN != nil {
		cm.ECN = types.ObjectValueMust(ecnAttrTypes, map[string]attr.Value{
			"min_threshold_bytes":      types.Int64Value(c.ECN.MinThresholdBytes),
			"max_threshold_bytes":      types.Int64Value(c.ECN.MaxThresholdBytes),
			"mark_probability_percent": types.Int64Value(int64(c.ECN.MarkProbabilityPercent)),
		})
	}
	return cm
}

func stringOr(v types.String, def string) string {
	if v.IsNull() || v.IsUnknown() {
		return def
	}
	return v.ValueString()
}

func ints(ctx context.Context, s types.Set, diags *diag.Diagnostics) []int {
	if s.IsNull() || s.IsUnknown() {
		return nil
	}
	var vs []int64
	diags.Append(s.ElementsAs(ctx, &vs, false)...)
	if len(vs) == 0 {
		return nil
	}
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = int(v)
	}
	sort.Ints(out)
	return out
}

func intSet(vs []int) types.Set {
	els := make([]attr.Value, 0, len(vs))
	for _, v := range vs {
		els = append(els, types.Int64Value(int64(v)))
	}
	return types.SetValueMust(types.Int64Type, els)
}

// tfPath maps a fabric attribute path onto a Terraform path rooted at base.
func tfPath(base path.Path, p fabric.Path) path.Path {
	out := base
	for _, s := range p {
		if s.IsKey() {
			out = out.AtMapKey(s.MapKey)
		} else {
			out = out.AtName(s.Attr)
		}
	}
	return out
}

// addProblems attaches fabric problems to their attributes.
func addProblems(diags *diag.Diagnostics, probs fabric.Problems) {
	for _, pr := range probs {
		diags.AddAttributeError(tfPath(path.Empty(), pr.Path), pr.Summary, pr.Detail)
	}
}
