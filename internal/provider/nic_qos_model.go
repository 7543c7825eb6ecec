package provider

import (
	"context"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

type nicQoSModel struct {
	ID types.String `tfsdk:"id"`
	nicQoSArgs
	Persist types.Bool   `tfsdk:"persist"`
	Tool    types.String `tfsdk:"tool"`
}

func (m nicQoSModel) known() bool { return m.nicQoSArgs.known() && fullyKnown(m.Persist) }

func (m nicQoSModel) intent(ctx context.Context) (fabric.NICQoS, diag.Diagnostics) {
	n, diags := m.nicQoSArgs.intent(ctx)
	n.Persist = m.Persist.IsNull() || m.Persist.ValueBool() // the schema's default
	return n, diags
}

// nicQoSArgs are the resource's arguments; roce_fabric_check takes the same shape.
type nicQoSArgs struct {
	deviceInterface
	Trust          types.String `tfsdk:"trust"`
	PFCPriorities  types.Set    `tfsdk:"pfc_priorities"`
	DSCPToPriority types.Map    `tfsdk:"dscp_to_priority"`
	PriorityToTC   types.Map    `tfsdk:"priority_to_tc"`
	ETS            types.Map    `tfsdk:"ets"`
	RoCEToS        types.Int64  `tfsdk:"roce_tos"`
}

type etsModel struct {
	BandwidthPercent types.Int64 `tfsdk:"bandwidth_percent"`
	StrictPriority   types.Bool  `tfsdk:"strict_priority"`
}

var etsAttrTypes = map[string]attr.Type{"bandwidth_percent": types.Int64Type, "strict_priority": types.BoolType}

func (m nicQoSArgs) known() bool {
	return knownValues(m.Device, m.Interface, m.Trust, m.PFCPriorities, m.DSCPToPriority, m.PriorityToTC, m.ETS, m.RoCEToS)
}

// intMap converts a map(number) with numeric keys. A bad key is left out: the schema's key
// validator (fabric's key rule) reports it.
func intMap(ctx context.Context, attrName string, m types.Map, parse func(string) (int, error), diags *diag.Diagnostics) map[int]int {
	if m.IsNull() || m.IsUnknown() {
		return nil
	}
	raw := map[string]int64{}
	diags.Append(m.ElementsAs(ctx, &raw, false)...)
	parsed, _ := fabric.ParseKeys(fabric.Root(attrName), raw, parse)
	out := make(map[int]int, len(parsed))
	for k, v := range parsed {
		out[k] = int(v)
	}
	return out
}

func (m nicQoSArgs) intent(ctx context.Context) (fabric.NICQoS, diag.Diagnostics) {
	var diags diag.Diagnostics
	n := fabric.NICQoS{
		Interface:      m.Interface.ValueString(),
		Trust:          fabric.Trust(stringOr(m.Trust, string(fabric.TrustDSCP))),
		PFCPriorities:  ints(ctx, m.PFCPriorities, &diags),
		DSCPToPriority: intMap(ctx, "dscp_to_priority", m.DSCPToPriority, fabric.ParseDSCPKey, &diags),
		PriorityToTC:   intMap(ctx, "priority_to_tc", m.PriorityToTC, fabric.ParsePriorityKey, &diags),
	}
	if n.DSCPToPriority == nil {
		n.DSCPToPriority = map[int]int{}
	}
	if !m.ETS.IsNull() && !m.ETS.IsUnknown() {
		raw := map[string]etsModel{}
		diags.Append(m.ETS.ElementsAs(ctx, &raw, false)...)
		parsed, _ := fabric.ParseKeys(fabric.Root("ets"), raw, fabric.ParseTCKey) // bad keys: as intMap
		n.ETS = map[int]fabric.ETSClass{}
		for tc, e := range parsed {
			c := fabric.ETSClass{StrictPriority: e.StrictPriority.ValueBool()}
			if !e.BandwidthPercent.IsNull() {
				c.BandwidthPercent = fabric.Ptr(int(e.BandwidthPercent.ValueInt64()))
			}
			n.ETS[tc] = c
		}
	}
	if !m.RoCEToS.IsNull() {
		n.RoCEToS = fabric.Ptr(int(m.RoCEToS.ValueInt64()))
	}
	return n, diags
}

// nicFromIntent builds the model of what a host has. n holds whole maps as the host has them
// (64 DSCPs, 8 priorities, 8 TCs); the model lists, like a configuration, the entries that
// differ from the neutral value (priority 0, TC 0, 0 % and not strict) plus any entry prior
// lists. Attributes unmanaged in prior (null) stay null, except on import (prior nil), which
// reads everything.
func nicFromIntent(device string, n fabric.NICQoS, prior *nicQoSModel) nicQoSModel {
	var keepDSCP, keepPrio, keepTC map[string]bool
	if prior != nil {
		keepDSCP = mapKeys(prior.DSCPToPriority)
		keepPrio = mapKeys(prior.PriorityToTC)
		keepTC = mapKeys(prior.ETS)
	}
	m := nicQoSModel{ID: types.StringValue(device + "/" + n.Interface), nicQoSArgs: nicQoSArgs{
		deviceInterface: deviceInterfaceOf(device, n.Interface),
		Trust:           types.StringValue(string(n.Trust)),
		PFCPriorities:   intSet(n.PFCPriorities),
		DSCPToPriority:  numMap(n.DSCPToPriority, keepDSCP),
		PriorityToTC:    types.MapNull(types.Int64Type),
		ETS:             types.MapNull(types.ObjectType{AttrTypes: etsAttrTypes}),
		RoCEToS:         types.Int64Null(),
	}}
	if n.PriorityToTC != nil && (prior == nil || !prior.PriorityToTC.IsNull()) {
		m.PriorityToTC = numMap(n.PriorityToTC, keepPrio)
	}
	if n.ETS != nil && (prior == nil || !prior.ETS.IsNull()) {
		els := map[string]attr.Value{}
		for tc, e := range n.ETS {
			neutral := !e.StrictPriority && (e.BandwidthPercent == nil || *e.BandwidthPercent == 0)
			if neutral && !keepTC[strconv.Itoa(tc)] {
				continue
			}
			bw := types.Int64Null()
			if e.BandwidthPercent != nil && !e.StrictPriority {
				bw = types.Int64Value(int64(*e.BandwidthPercent))
			}
			els[strconv.Itoa(tc)] = types.ObjectValueMust(etsAttrTypes, map[string]attr.Value{
				"bandwidth_percent": bw, "strict_priority": types.BoolValue(e.StrictPriority)})
		}
		m.ETS = types.MapValueMust(types.ObjectType{AttrTypes: etsAttrTypes}, els)
	}
	if n.RoCEToS != nil && (prior == nil || !prior.RoCEToS.IsNull()) {
		m.RoCEToS = types.Int64Value(int64(*n.RoCEToS))
	}
	m.Persist = types.BoolValue(n.Persist)
	m.Tool = types.StringNull()
	if n.Tool != "" {
		m.Tool = types.StringValue(n.Tool)
	}
	return m
}

// numMap renders a whole map sparsely: entries with a non-zero value, and those keep names.
func numMap(m map[int]int, keep map[string]bool) types.Map {
	els := map[string]attr.Value{}
	for k, v := range m {
		if v != 0 || keep[strconv.Itoa(k)] {
			els[strconv.Itoa(k)] = types.Int64Value(int64(v))
		}
	}
	return types.MapValueMust(types.Int64Type, els)
}

// mapKeys returns the keys of a known map value.
func mapKeys(m types.Map) map[string]bool {
	out := map[string]bool{}
	if m.IsNull() || m.IsUnknown() {
		return out
	}
	for k := range m.Elements() {
		out[k] = true
	}
	return out
}
