package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// Data sources describe the same shapes as the resources (so values plug straight in), with
// the data source schema types: all computed for outputs, all optional for inputs.

// classDataSchema is roce_qos_policy's class object, derived from the resource's.
func classDataSchema(computed bool) map[string]schema.Attribute {
	return dataAttrs(classSchema(), computed)
}

// resourceAttrs are a resource's attributes as its schema declares them.
func resourceAttrs(r resource.Resource) map[string]rschema.Attribute {
	var resp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return resp.Schema.Attributes
}

// dataAttrs derives data-source attributes from resource attributes, descriptions included, so
// the two never drift apart: outputs (computed) are all computed; inputs keep the resource's
// required attributes required and make the rest optional (the data source applies the
// resource's defaults itself). Attributes named in drop are left out (id, persist: the
// resource's own bookkeeping).
func dataAttrs(in map[string]rschema.Attribute, computed bool, drop ...string) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(in))
	for name, a := range in {
		if slices.Contains(drop, name) {
			continue
		}
		out[name] = dataAttr(a, computed)
	}
	return out
}

func dataAttr(a rschema.Attribute, computed bool) schema.Attribute {
	req := !computed && a.IsRequired()
	opt := !computed && !req
	// A data source replaces nothing: the resource's note on that does not apply here.
	desc := strings.ReplaceAll(a.GetMarkdownDescription(), " Changing it replaces the resource.", "")
	switch a := a.(type) {
	case rschema.StringAttribute:
		return schema.StringAttribute{Required: req, Optional: opt, Computed: computed, MarkdownDescription: desc}
	case rschema.Int64Attribute:
		return schema.Int64Attribute{Required: req, Optional: opt, Computed: computed, MarkdownDescription: desc}
	case rschema.BoolAttribute:
		return schema.BoolAttribute{Required: req, Optional: opt, Computed: computed, MarkdownDescription: desc}
	case rschema.SetAttribute:
		return schema.SetAttribute{Required: req, Optional: opt, Computed: computed, ElementType: a.ElementType, MarkdownDescription: desc}
	case rschema.MapAttribute:
		return schema.MapAttribute{Required: req, Optional: opt, Computed: computed, ElementType: a.ElementType, MarkdownDescription: desc}
	case rschema.MapNestedAttribute:
		return schema.MapNestedAttribute{Required: req, Optional: opt, Computed: computed, MarkdownDescription: desc,
			NestedObject: schema.NestedAttributeObject{Attributes: dataAttrs(a.NestedObject.Attributes, computed)}}
	case rschema.SingleNestedAttribute:
		return schema.SingleNestedAttribute{Required: req, Optional: opt, Computed: computed, MarkdownDescription: desc,
			Attributes: dataAttrs(a.Attributes, computed)}
	}
	panic(fmt.Sprintf("dataAttr: no data-source form for %T", a)) // a new attribute kind: add it here
}

// paramDataSchema is a DCQCN parameter object (roce_dcqcn_profile's reaction_point or
// notification_point), derived from the resource's.
func paramDataSchema(attr string, computed bool) map[string]schema.Attribute {
	obj, ok := resourceAttrs(newDCQCNProfileResource())[attr].(rschema.SingleNestedAttribute)
	if !ok {
		panic("roce_dcqcn_profile has no object attribute " + attr)
	}
	return dataAttrs(obj.Attributes, computed)
}
