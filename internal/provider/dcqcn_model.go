package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

type dcqcnModel struct {
	ID types.String `tfsdk:"id"`
	dcqcnArgs
	Persist types.Bool `tfsdk:"persist"`
}

// dcqcnArgs are the resource's arguments but persist; roce_fabric_check takes the same shape.
type dcqcnArgs struct {
	deviceInterface
	Priorities        types.Set    `tfsdk:"priorities"`
	CNPDSCP           types.Int64  `tfsdk:"cnp_dscp"`
	CNPPriority       types.Int64  `tfsdk:"cnp_priority"`
	ReactionPoint     types.Object `tfsdk:"reaction_point"`
	NotificationPoint types.Object `tfsdk:"notification_point"`
}

func paramAttrTypes(names []string) map[string]attr.Type {
	out := map[string]attr.Type{}
	for _, n := range names {
		if fabric.BoolParams[n] {
			out[n] = types.BoolType
		} else {
			out[n] = types.Int64Type
		}
	}
	return out
}

var (
	rpAttrTypes = paramAttrTypes(fabric.ReactionPointParams)
	npAttrTypes = paramAttrTypes(fabric.NotificationPointParams)
)

func (m dcqcnModel) known() bool {
	return knownValues(m.Device, m.Interface, m.Priorities, m.CNPDSCP, m.CNPPriority, m.ReactionPoint, m.NotificationPoint, m.Persist)
}

// params reads the set attributes of a parameter object (null ones are unmanaged).
func params(o types.Object) map[string]int64 {
	if o.IsNull() || o.IsUnknown() {
		return nil
	}
	out := map[string]int64{}
	for name, v := range o.Attributes() {
		switch x := v.(type) {
		case types.Int64:
			if !x.IsNull() && !x.IsUnknown() {
				out[name] = x.ValueInt64()
			}
		case types.Bool:
			if !x.IsNull() && !x.IsUnknown() {
				out[name] = 0
				if x.ValueBool() {
					out[name] = 1
				}
			}
		}
	}
	return out
}

func (m dcqcnModel) intent(ctx context.Context) (fabric.DCQCN, diag.Diagnostics) {
	var diags diag.Diagnostics
	d := fabric.DCQCN{
		Interface:         m.Interface.ValueString(),
		Priorities:        ints(ctx, m.Priorities, &diags),
		CNPDSCP:           int(m.CNPDSCP.ValueInt64()),
		CNPPriority:       int(m.CNPPriority.ValueInt64()),
		ReactionPoint:     params(m.ReactionPoint),
		NotificationPoint: params(m.NotificationPoint),
		Persist:           m.Persist.IsNull() || m.Persist.ValueBool(), // the schema's default
	}
	return d, diags
}

// paramObject renders device values for the parameters prior manages (all of them on import,
// prior nil); an object prior leaves null stays null.
func paramObject(attrTypes map[string]attr.Type, got map[string]int64, prior *types.Object) types.Object {
	if prior != nil && prior.IsNull() {
		return types.ObjectNull(attrTypes)
	}
	managed := map[string]bool{}
	if prior != nil {
		for name, v := range prior.Attributes() {
			managed[name] = !v.IsNull()
		}
	}
	vals := map[string]attr.Value{}
	anySet := false
	for name, t := range attrTypes {
		v, ok := got[name]
		take := ok && (prior == nil || managed[name])
		anySet = anySet || take
		switch {
		case t == types.BoolType && take:
			vals[name] = types.BoolValue(v != 0)
		case t == types.BoolType:
			vals[name] = types.BoolNull()
		case take:
			vals[name] = types.Int64Value(v)
		default:
			vals[name] = types.Int64Null()
		}
	}
	if !anySet && prior == nil {
		return types.ObjectNull(attrTypes)
	}
	return types.ObjectValueMust(attrTypes, vals)
}

func dcqcnFromIntent(device string, d fabric.DCQCN, prior *dcqcnModel) dcqcnModel {
	var rpPrior, npPrior *types.Object
	if prior != nil {
		rpPrior, npPrior = &prior.ReactionPoint, &prior.NotificationPoint
	}
	return dcqcnModel{
		ID: types.StringValue(device + "/" + d.Interface),
		dcqcnArgs: dcqcnArgs{
			deviceInterface:   deviceInterfaceOf(device, d.Interface),
			Priorities:        intSet(d.Priorities),
			CNPDSCP:           types.Int64Value(int64(d.CNPDSCP)),
			CNPPriority:       types.Int64Value(int64(d.CNPPriority)),
			ReactionPoint:     paramObject(rpAttrTypes, d.ReactionPoint, rpPrior),
			NotificationPoint: paramObject(npAttrTypes, d.NotificationPoint, npPrior),
		},
		Persist: types.BoolValue(d.Persist),
	}
}
