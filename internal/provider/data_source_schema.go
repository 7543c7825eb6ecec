package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Data sources describe the same shapes as the resources (so values plug straight in), with
// the data source schema types: all computed for outputs, all optional for inputs.

// computedString, computedInt, computedFloat, computedBool, computedInts (a list) and
// computedIntMap are data-source outputs of those kinds.
func computedString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
}

func computedInt(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
}

func computedFloat(desc string) schema.Float64Attribute {
	return schema.Float64Attribute{Computed: true, MarkdownDescription: desc}
}

func computedBool(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
}

func computedInts(desc string) schema.ListAttribute {
	return schema.ListAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: desc}
}

func computedIntMap(desc string) schema.MapAttribute {
	return schema.MapAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: desc}
}

// deriver derives data-source attributes from resource attributes, descriptions included, so
// the two never drift apart: outputs (computed) are all computed; inputs keep the resource's
// required attributes required and make the rest optional (the data source applies the
// resource's defaults itself), and keep its validators (fabric's field rules). What it cannot derive (an attribute kind it does not know yet,
// a missing attribute) it reports through report, as an error of the data source's schema.
type deriver struct{ missing []string }

func (d *deriver) report(diags *diag.Diagnostics) {
	if len(d.missing) > 0 {
		diags.AddError("Incomplete data-source schema",
			"These resource attributes have no data-source form (a bug in the provider): "+strings.Join(d.missing, ", "))
	}
}

// classes is roce_qos_policy's class object.
func (d *deriver) classes(computed bool) map[string]schema.Attribute {
	return d.attrs(classSchema(), computed)
}

// params is a DCQCN parameter object: roce_dcqcn_profile's reaction_point or
// notification_point.
func (d *deriver) params(attr string, computed bool) map[string]schema.Attribute {
	obj, ok := resourceAttrs(newDCQCNProfileResource())[attr].(rschema.SingleNestedAttribute)
	if !ok {
		d.missing = append(d.missing, "roce_dcqcn_profile."+attr+" (not an object)")
		return nil
	}
	return d.attrs(obj.Attributes, computed)
}

// resourceAttrs are a resource's attributes as its schema declares them.
func resourceAttrs(r resource.Resource) map[string]rschema.Attribute {
	var resp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return resp.Schema.Attributes
}

// attrs derives in, leaving out the attributes named in drop (id, persist: the resource's own
// bookkeeping).
func (d *deriver) attrs(in map[string]rschema.Attribute, computed bool, drop ...string) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(in))
	for name, a := range in {
		if slices.Contains(drop, name) {
			continue
		}
		if da := d.attr(a, computed); da != nil {
			out[name] = da
		} else {
			d.missing = append(d.missing, fmt.Sprintf("%s (%T)", name, a))
		}
	}
	return out
}

func (d *deriver) attr(a rschema.Attribute, computed bool) schema.Attribute {
	req := !computed && a.IsRequired()
	opt := !computed && !req
	// A data source replaces nothing: the resource's note on that does not apply here.
	desc := strings.ReplaceAll(a.GetMarkdownDescription(), " Changing it replaces the resource.", "")
	switch a := a.(type) {
	case rschema.StringAttribute:
		return schema.StringAttribute{Required: req, Optional: opt, Computed: computed, MarkdownDescription: desc,
			Validators: inputs(computed, a.Validators)}
	case rschema.Int64Attribute:
		return schema.Int64Attribute{Required: req, Optional: opt, Computed: computed, MarkdownDescription: desc,
			Validators: inputs(computed, a.Validators)}
	case rschema.BoolAttribute:
		return schema.BoolAttribute{Required: req, Optional: opt, Computed: computed, MarkdownDescription: desc,
			Validators: inputs(computed, a.Validators)}
	case rschema.SetAttribute:
		return schema.SetAttribute{Required: req, Optional: opt, Computed: computed, ElementType: a.ElementType, MarkdownDescription: desc,
			Validators: inputs(computed, a.Validators)}
	case rschema.MapAttribute:
		return schema.MapAttribute{Required: req, Optional: opt, Computed: computed, ElementType: a.ElementType, MarkdownDescription: desc,
			Validators: inputs(computed, a.Validators)}
	case rschema.MapNestedAttribute:
		return schema.MapNestedAttribute{Required: req, Optional: opt, Computed: computed, MarkdownDescription: desc,
			Validators:   inputs(computed, a.Validators),
			NestedObject: schema.NestedAttributeObject{Attributes: d.attrs(a.NestedObject.Attributes, computed)}}
	case rschema.SingleNestedAttribute:
		return schema.SingleNestedAttribute{Required: req, Optional: opt, Computed: computed, MarkdownDescription: desc,
			Validators: inputs(computed, a.Validators), Attributes: d.attrs(a.Attributes, computed)}
	}
	return nil
}

// inputs are the validators of an input attribute: an output (computed) has no configuration
// to check.
func inputs[V any](computed bool, vs []V) []V {
	if computed {
		return nil
	}
	return vs
}
