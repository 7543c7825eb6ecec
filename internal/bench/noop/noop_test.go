package noop

import (
	"context"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rocefabric/terraform-provider-roce/internal/bench"
	roce "github.com/rocefabric/terraform-provider-roce/internal/provider"
)

// The floor is only fair if it decodes and encodes what roce does: the same provider schema and
// the same resource types with the same schemas.
func TestSameSchemas(t *testing.T) {
	ctx := context.Background()
	shipped, floor := roce.New("test")(), New(roce.New("test"))()
	var rs, fs provider.SchemaResponse
	shipped.Schema(ctx, provider.SchemaRequest{}, &rs)
	floor.Schema(ctx, provider.SchemaRequest{}, &fs)
	if !rs.Schema.Type().TerraformType(ctx).Equal(fs.Schema.Type().TerraformType(ctx)) {
		t.Error("provider schemas differ")
	}
	rres, fres := shipped.Resources(ctx), floor.Resources(ctx)
	if len(rres) != len(fres) || len(rres) == 0 {
		t.Fatalf("%d resources, the provider has %d", len(fres), len(rres))
	}
	for i := range rres {
		r, f := rres[i](), fres[i]()
		var rm, fm resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "roce"}, &rm)
		f.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "roce"}, &fm)
		var rsch, fsch resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &rsch)
		f.Schema(ctx, resource.SchemaRequest{}, &fsch)
		// Validators and plan modifiers are functions (DeepEqual cannot compare them): the
		// schemas' types and their attribute sets are what the framework decodes by.
		if rm.TypeName != fm.TypeName || !rsch.Schema.Type().TerraformType(ctx).Equal(fsch.Schema.Type().TerraformType(ctx)) ||
			!reflect.DeepEqual(slices.Sorted(maps.Keys(rsch.Schema.Attributes)), slices.Sorted(maps.Keys(fsch.Schema.Attributes))) {
			t.Errorf("resource %s: the no-op's %s differs", rm.TypeName, fm.TypeName)
		}
		// No behaviour of roce's: the no-op implements none of the optional interfaces.
		if _, ok := f.(resource.ResourceWithModifyPlan); ok {
			t.Errorf("%s: the no-op modifies plans", fm.TypeName)
		}
		if _, ok := f.(resource.ResourceWithConfigure); ok {
			t.Errorf("%s: the no-op is configured", fm.TypeName)
		}
	}
}

// (d) and (f) are floors of (a) and (e) only if the no-op serves every resource type their
// configurations use: it does for every type the provider has (it takes them from the
// provider), so the map-keyed roce_*_interfaces come with the provider's; until then the bench
// knows (f) and (e) cannot run (bench.Unservable) instead of failing midway.
func TestServesTheBenchTypes(t *testing.T) {
	ctx := context.Background()
	typeNames := func(p provider.Provider) []string {
		var out []string
		for _, f := range p.Resources(ctx) {
			var m resource.MetadataResponse
			f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "roce"}, &m)
			out = append(out, m.TypeName)
		}
		return out
	}
	shipped, floor := typeNames(roce.New("test")()), typeNames(New(roce.New("test"))())
	f := bench.Fabric{Switches: []bench.Switch{{Name: "sonic-1", Ports: []string{"Ethernet0"}}}, Hosts: []bench.Host{{Name: "mlx5-1", NICs: []string{"eth0"}}}}
	resourceType := regexp.MustCompile(`(?m)^resource "([a-z0-9_]+)"`)
	for _, v := range bench.AllVariants {
		if v.IsFloor() {
			continue
		}
		unservable := bench.Unservable([]bench.Variant{v}, shipped)[v]
		for _, m := range resourceType.FindAllStringSubmatch(bench.Config(f, v, "/lab/inventory.json"), -1) {
			switch typ := m[1]; {
			case slices.Contains(floor, typ):
			case slices.Contains(shipped, typ):
				t.Errorf("%s: the provider has %s, the no-op does not", v.Label(), typ)
			case unservable == "":
				t.Errorf("%s uses %s, which neither provider has, and the bench would run it", v.Label(), typ)
			}
		}
	}
}

// Terraform refuses unknown values after apply: Known turns every unknown, nested too, into
// null and leaves known values alone.
func TestKnown(t *testing.T) {
	obj := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"id": tftypes.String, "device": tftypes.String,
		"nested": tftypes.Object{AttributeTypes: map[string]tftypes.Type{"n": tftypes.Number}},
	}}
	nested := obj.AttributeTypes["nested"]
	in := tftypes.NewValue(obj, map[string]tftypes.Value{
		"id":     tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"device": tftypes.NewValue(tftypes.String, "leaf1"),
		"nested": tftypes.NewValue(nested, map[string]tftypes.Value{"n": tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)}),
	})
	got, err := Known(in)
	if err != nil {
		t.Fatal(err)
	}
	if !got.IsFullyKnown() {
		t.Fatalf("unknowns left: %v", got)
	}
	want := tftypes.NewValue(obj, map[string]tftypes.Value{
		"id":     tftypes.NewValue(tftypes.String, nil),
		"device": tftypes.NewValue(tftypes.String, "leaf1"),
		"nested": tftypes.NewValue(nested, map[string]tftypes.Value{"n": tftypes.NewValue(tftypes.Number, nil)}),
	})
	if !got.Equal(want) {
		t.Errorf("Known = %v, want %v", got, want)
	}
}

// Create and Update hand the plan back as the state, its unknowns null (Known), and say nothing.
func TestCreateAndUpdateWriteThePlan(t *testing.T) {
	obj := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "device": tftypes.String}}
	plan := tftypes.NewValue(obj, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "device": tftypes.NewValue(tftypes.String, "leaf1"),
	})
	want := tftypes.NewValue(obj, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.String, nil), "device": tftypes.NewValue(tftypes.String, "leaf1"),
	})
	r := &noopResource{}
	var created resource.CreateResponse
	r.Create(context.Background(), resource.CreateRequest{Plan: tfsdk.Plan{Raw: plan}}, &created)
	var updated resource.UpdateResponse
	r.Update(context.Background(), resource.UpdateRequest{Plan: tfsdk.Plan{Raw: plan}}, &updated)
	for op, got := range map[string]struct {
		state tftypes.Value
		diags diag.Diagnostics
	}{"create": {created.State.Raw, created.Diagnostics}, "update": {updated.State.Raw, updated.Diagnostics}} {
		if !got.state.Equal(want) || got.diags.HasError() {
			t.Errorf("%s: state %v (%v), want %v", op, got.state, got.diags, want)
		}
	}
}
