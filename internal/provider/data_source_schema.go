package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Data sources describe the same shapes as the resources (so values plug straight in), with
// the data source schema types: all computed for outputs, all optional for inputs.

func dsAttr(computed bool, desc string) (optional, comp bool, d string) {
	return !computed, computed, desc
}

func dsInt(computed bool, desc string) schema.Int64Attribute {
	o, c, d := dsAttr(computed, desc)
	return schema.Int64Attribute{Optional: o, Computed: c, MarkdownDescription: d}
}

func dsBool(computed bool, desc string) schema.BoolAttribute {
	o, c, d := dsAttr(computed, desc)
	return schema.BoolAttribute{Optional: o, Computed: c, MarkdownDescription: d}
}

// dsOptString is an optional string input.
func dsOptString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: desc}
}

func dsIntSet(computed bool, desc string) schema.SetAttribute {
	o, c, d := dsAttr(computed, desc)
	return schema.SetAttribute{Optional: o, Computed: c, ElementType: types.Int64Type, MarkdownDescription: d}
}

func dsIntMap(computed bool, desc string) schema.MapAttribute {
	o, c, d := dsAttr(computed, desc)
	return schema.MapAttribute{Optional: o, Computed: c, ElementType: types.Int64Type, MarkdownDescription: d}
}

// classDataSchema is roce_qos_policy's class object.
func classDataSchema(computed bool) map[string]schema.Attribute {
	tc := schema.Int64Attribute{Required: !computed, Computed: computed, MarkdownDescription: "Traffic class 0-7."}
	return map[string]schema.Attribute{
		"traffic_class":     tc,
		"dscp":              dsIntSet(computed, "DSCP values of the class."),
		"pcp":               dsIntSet(computed, "802.1p values of the class."),
		"bandwidth_percent": dsInt(computed, "ETS share."),
		"strict_priority":   dsBool(computed, "Strict priority."),
		"lossless":          dsBool(computed, "PFC no-drop priority."),
		"mtu":               dsInt(computed, "Per-class MTU."),
		"ecn": schema.SingleNestedAttribute{Optional: !computed, Computed: computed, MarkdownDescription: "WRED/ECN marking.",
			Attributes: map[string]schema.Attribute{
				"min_threshold_bytes":      dsInt(computed, "Kmin, bytes."),
				"max_threshold_bytes":      dsInt(computed, "Kmax, bytes."),
				"mark_probability_percent": dsInt(computed, "Marking probability at Kmax."),
			}},
	}
}

// paramDataSchema is a DCQCN parameter object.
func paramDataSchema(names []string, computed bool) map[string]schema.Attribute {
	out := map[string]schema.Attribute{}
	for _, n := range names {
		if fabric.BoolParams[n] {
			out[n] = dsBool(computed, paramDocs[n])
		} else {
			out[n] = dsInt(computed, paramDocs[n])
		}
	}
	return out
}
