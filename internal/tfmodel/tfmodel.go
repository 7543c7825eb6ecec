// Package tfmodel moves Terraform object values into the provider's model structs and back, as
// the framework's tfsdk.Plan.Get and tfsdk.State.Set do, for the structs the provider uses:
// every field an attr.Value (types.String, types.List, ...) tagged `tfsdk:"name"`, or an
// embedded struct of such fields.
//
// Why not the framework's own Get/Set: terraform-plugin-framework (v1.19) reads a struct's tags
// on every call and compiles a regular expression for every field it checks
// (internal/reflect.isValidFieldName, hashicorp/terraform-plugin-framework#725). A no-change
// plan makes four such calls per resource; profiled at 1,568 resources, that was 27 % of the
// provider's allocations (DESIGN.md, Performance). Here a struct's fields are read once per
// type and kept.
//
// The checks are the framework's: the struct and the object must have exactly the same
// attributes, and a value must have its attribute's Terraform type; a mismatch is an error
// diagnostic that says it is a provider bug, never a panic.
package tfmodel

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// field is one tagged struct field: its attribute name and where it is (an index path through
// embedded structs).
type field struct {
	name  string
	index []int
}

var (
	attrValue = reflect.TypeFor[attr.Value]()
	fieldsOf  sync.Map // reflect.Type -> fieldsResult
)

type fieldsResult struct {
	fields []field
	err    error
}

// fields lists t's attribute fields, once per type.
func fields(t reflect.Type) ([]field, error) {
	if r, ok := fieldsOf.Load(t); ok {
		fr := r.(fieldsResult) //nolint:forcetypeassert // only fieldsResult is stored
		return fr.fields, fr.err
	}
	var out []field
	err := collect(t, nil, &out)
	if err == nil {
		seen := map[string]bool{}
		for _, f := range out {
			if seen[f.name] {
				err = fmt.Errorf("%s: attribute %q tagged twice", t, f.name)
				break
			}
			seen[f.name] = true
		}
	}
	fieldsOf.Store(t, fieldsResult{out, err})
	return out, err
}

func collect(t reflect.Type, prefix []int, out *[]field) error {
	for i := range t.NumField() {
		sf := t.Field(i)
		index := append(append([]int(nil), prefix...), i)
		tag, tagged := sf.Tag.Lookup("tfsdk")
		switch {
		case tag == "-":
		case !tagged && sf.Anonymous && sf.Type.Kind() == reflect.Struct:
			if err := collect(sf.Type, index, out); err != nil {
				return err
			}
		case !tagged:
			return fmt.Errorf("%s: field %s has no tfsdk tag", t, sf.Name)
		case !sf.IsExported():
			return fmt.Errorf("%s: field %s is not exported", t, sf.Name)
		case !sf.Type.Implements(attrValue):
			return fmt.Errorf("%s: field %s (%s) is not an attr.Value", t, sf.Name, sf.Type)
		default:
			*out = append(*out, field{name: tag, index: index})
		}
	}
	return nil
}

// Decode fills the struct target points to from raw, an object value of type typ.
func Decode(ctx context.Context, typ attr.Type, raw tftypes.Value, target any) diag.Diagnostics {
	var diags diag.Diagnostics
	dst := reflect.ValueOf(target)
	if dst.Kind() != reflect.Pointer || dst.Elem().Kind() != reflect.Struct {
		return bug(fmt.Errorf("decode target %T is not a pointer to a struct", target))
	}
	obj, ok := typ.(attr.TypeWithAttributeTypes)
	if !ok {
		return bug(fmt.Errorf("type %s is not an object type", typ))
	}
	fs, err := fields(dst.Elem().Type())
	if err != nil {
		return bug(err)
	}
	if !raw.IsKnown() || raw.IsNull() {
		// As the framework: a whole object that is null or unknown has no struct form.
		return bug(fmt.Errorf("%s: the object is null or unknown", dst.Elem().Type()))
	}
	var vals map[string]tftypes.Value
	if err := raw.As(&vals); err != nil {
		return bug(fmt.Errorf("value of %s: %w", dst.Elem().Type(), err))
	}
	types := obj.AttributeTypes()
	if err := sameNames(fs, types, dst.Elem().Type()); err != nil {
		return bug(err)
	}
	out := reflect.New(dst.Elem().Type()).Elem()
	for _, f := range fs {
		v, err := types[f.name].ValueFromTerraform(ctx, vals[f.name])
		if err != nil {
			return bug(fmt.Errorf("attribute %q: %w", f.name, err))
		}
		fv := out.FieldByIndex(f.index)
		rv := reflect.ValueOf(v)
		if !rv.Type().AssignableTo(fv.Type()) {
			return bug(fmt.Errorf("attribute %q: %T cannot be stored in %s", f.name, v, fv.Type()))
		}
		fv.Set(rv)
	}
	dst.Elem().Set(out)
	return diags
}

// Encode is the object value of type typ that src (a struct, or a pointer to one) holds.
func Encode(ctx context.Context, typ attr.Type, src any) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	v := reflect.ValueOf(src)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return tftypes.Value{}, bug(fmt.Errorf("encode source %T is not a struct", src))
	}
	obj, ok := typ.(attr.TypeWithAttributeTypes)
	if !ok {
		return tftypes.Value{}, bug(fmt.Errorf("type %s is not an object type", typ))
	}
	fs, err := fields(v.Type())
	if err != nil {
		return tftypes.Value{}, bug(err)
	}
	types := obj.AttributeTypes()
	if err := sameNames(fs, types, v.Type()); err != nil {
		return tftypes.Value{}, bug(err)
	}
	vals := make(map[string]tftypes.Value, len(fs))
	for _, f := range fs {
		av, _ := v.FieldByIndex(f.index).Interface().(attr.Value)
		want := types[f.name].TerraformType(ctx)
		if av == nil || !want.Equal(av.Type(ctx).TerraformType(ctx)) {
			return tftypes.Value{}, bug(fmt.Errorf("attribute %q: value of type %v, the schema says %v", f.name, typeOf(ctx, av), want))
		}
		tv, err := av.ToTerraformValue(ctx)
		if err != nil {
			return tftypes.Value{}, bug(fmt.Errorf("attribute %q: %w", f.name, err))
		}
		vals[f.name] = tv
	}
	tt := typ.TerraformType(ctx)
	if err := tftypes.ValidateValue(tt, vals); err != nil {
		return tftypes.Value{}, bug(err)
	}
	return tftypes.NewValue(tt, vals), diags
}

func typeOf(ctx context.Context, v attr.Value) any {
	if v == nil {
		return "nil"
	}
	return v.Type(ctx).TerraformType(ctx)
}

// sameNames is the framework's 1:1 rule: a typo in a tag is an error, not a silently null
// attribute.
func sameNames(fs []field, types map[string]attr.Type, t reflect.Type) error {
	var structOnly, objectOnly []string
	have := make(map[string]bool, len(fs))
	for _, f := range fs {
		have[f.name] = true
		if _, ok := types[f.name]; !ok {
			structOnly = append(structOnly, f.name)
		}
	}
	for name := range types {
		if !have[name] {
			objectOnly = append(objectOnly, name)
		}
	}
	if len(structOnly) == 0 && len(objectOnly) == 0 {
		return nil
	}
	sort.Strings(objectOnly)
	return fmt.Errorf("%s does not match its schema: struct only [%s], schema only [%s]", t,
		strings.Join(structOnly, ", "), strings.Join(objectOnly, ", "))
}

func bug(err error) diag.Diagnostics {
	var diags diag.Diagnostics
	diags.AddError("Value Conversion Error",
		"An unexpected error was encountered converting between Terraform and provider values. This is always an error in the provider. Please report the following to the provider developer:\n\n"+err.Error())
	return diags
}

// The framework's request and response data, read and written through Decode and Encode.

// Plan decodes a plan into target.
func Plan(ctx context.Context, p tfsdk.Plan, target any) diag.Diagnostics {
	return Decode(ctx, p.Schema.Type(), p.Raw, target)
}

// State decodes a state into target.
func State(ctx context.Context, s tfsdk.State, target any) diag.Diagnostics {
	return Decode(ctx, s.Schema.Type(), s.Raw, target)
}

// Config decodes a configuration into target.
func Config(ctx context.Context, c tfsdk.Config, target any) diag.Diagnostics {
	return Decode(ctx, c.Schema.Type(), c.Raw, target)
}

// SetState replaces the whole state with src. State.Set of a tftypes.Value checks its type
// against the schema and stores it: no reflection.
func SetState(ctx context.Context, s *tfsdk.State, src any) diag.Diagnostics {
	v, diags := Encode(ctx, s.Schema.Type(), src)
	if diags.HasError() {
		return diags
	}
	return append(diags, s.Set(ctx, v)...)
}

// SetPlan replaces the whole plan with src.
func SetPlan(ctx context.Context, p *tfsdk.Plan, src any) diag.Diagnostics {
	v, diags := Encode(ctx, p.Schema.Type(), src)
	if diags.HasError() {
		return diags
	}
	return append(diags, p.Set(ctx, v)...)
}
