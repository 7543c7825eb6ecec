package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Schema validators built from the field rules of package fabric (fabric/rules.go), the one
// declaration of the provider's ranges, fixed values and name forms. Each puts the rule's check
// on its attribute, so Terraform reports a mistake there with the text fabric's Validate gives,
// and appends what the rule accepts to the attribute's description: tfplugindocs renders
// descriptions, not validators. ValidateConfig then checks only the relations between
// attributes (fabric.Relations), so each mistake is reported once.

// intRule checks an integer (or each element, through setvalidator/mapvalidator) against r.
type intRule fabric.IntRule

func (v intRule) Description(context.Context) string { return "value " + intDoc(fabric.IntRule(v)) }
func (v intRule) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v intRule) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if summary, ok := fabric.IntRule(v).Check(req.ConfigValue.ValueInt64()); !ok {
		resp.Diagnostics.AddAttributeError(req.Path, summary, v.Detail)
	}
}

// stringRule checks a string (an element, a map key) against r.
type stringRule struct{ r fabric.StringRule }

func (v stringRule) Description(context.Context) string { return "value " + stringDoc(v.r) }
func (v stringRule) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v stringRule) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if summary, detail, ok := v.r.Check(req.ConfigValue.ValueString()); !ok {
		resp.Diagnostics.AddAttributeError(req.Path, summary, detail)
	}
}

// intDoc is what r accepts, for the docs: "`0`-`7`", "at least `1`".
func intDoc(r fabric.IntRule) string {
	if r.Max == fabric.NoMax {
		return fmt.Sprintf("at least `%d`", r.Min)
	}
	return fmt.Sprintf("`%d`-`%d`", r.Min, r.Max)
}

// stringDoc is what r accepts, for the docs.
func stringDoc(r fabric.StringRule) string {
	if len(r.OneOf) == 0 {
		return r.Doc
	}
	q := make([]string, len(r.OneOf))
	for i, s := range r.OneOf {
		q[i] = "`" + s + "`"
	}
	return "one of " + strings.Join(q, ", ")
}

// describe appends sentences to a description.
func describe(desc string, more ...string) string {
	return strings.Join(append([]string{strings.TrimSpace(desc)}, more...), " ")
}

// acceptedInt and acceptedString are desc with what r accepts.
func acceptedInt(desc string, r fabric.IntRule) string {
	return describe(desc, "Accepted: "+intDoc(r)+".")
}
func acceptedString(desc string, r fabric.StringRule) string {
	return describe(desc, "Accepted: "+stringDoc(r)+".")
}

func ruledInt(a schema.Int64Attribute, r fabric.IntRule) schema.Int64Attribute {
	a.Validators = append(a.Validators, intRule(r))
	a.MarkdownDescription = acceptedInt(a.MarkdownDescription, r)
	return a
}

func ruledString(a schema.StringAttribute, r fabric.StringRule) schema.StringAttribute {
	a.Validators = append(a.Validators, stringRule{r})
	a.MarkdownDescription = acceptedString(a.MarkdownDescription, r)
	return a
}

// ruledInts checks each element of a set of integers.
func ruledInts(a schema.SetAttribute, r fabric.IntRule) schema.SetAttribute {
	a.Validators = append(a.Validators, setvalidator.ValueInt64sAre(intRule(r)))
	a.MarkdownDescription = describe(a.MarkdownDescription, "Each value: "+intDoc(r)+".")
	return a
}

// ruledStrings checks each element of a set of strings.
func ruledStrings(a schema.SetAttribute, r fabric.StringRule) schema.SetAttribute {
	a.Validators = append(a.Validators, setvalidator.ValueStringsAre(stringRule{r}))
	a.MarkdownDescription = describe(a.MarkdownDescription, "Each value: "+stringDoc(r)+".")
	return a
}

// ruledIntMap checks the keys and values of a map of integers.
func ruledIntMap(a schema.MapAttribute, key fabric.StringRule, value fabric.IntRule) schema.MapAttribute {
	a.Validators = append(a.Validators, mapvalidator.KeysAre(stringRule{key}), mapvalidator.ValueInt64sAre(intRule(value)))
	a.MarkdownDescription = describe(a.MarkdownDescription, "Keys: "+stringDoc(key)+"; values: "+intDoc(value)+".")
	return a
}

// ruledKeys checks the keys of a map of objects.
func ruledKeys(a schema.MapNestedAttribute, key fabric.StringRule) schema.MapNestedAttribute {
	a.Validators = append(a.Validators, mapvalidator.KeysAre(stringRule{key}))
	a.MarkdownDescription = describe(a.MarkdownDescription, "Keys: "+stringDoc(key)+".")
	return a
}
