package tfmodel

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The shapes the provider's models have: primitives, a set, a map, a list of objects, a nested
// object, and an embedded struct holding some of the attributes.
type counters struct {
	Pause types.Map     `tfsdk:"pause"`
	Ratio types.Float64 `tfsdk:"ratio"`
}

type model struct {
	ID       types.String `tfsdk:"id"`
	Count    types.Int64  `tfsdk:"count"`
	On       types.Bool   `tfsdk:"on"`
	Prios    types.Set    `tfsdk:"prios"`
	Links    types.List   `tfsdk:"links"`
	Point    types.Object `tfsdk:"point"`
	Ignored  string       `tfsdk:"-"`
	counters              // embedded: its attributes are the model's
}

var linkType = types.ObjectType{AttrTypes: map[string]attr.Type{"port": types.StringType, "speed": types.Int64Type}}

func testSchema() schema.Schema {
	return schema.Schema{Attributes: map[string]schema.Attribute{
		"id":    schema.StringAttribute{Computed: true},
		"count": schema.Int64Attribute{Optional: true},
		"on":    schema.BoolAttribute{Optional: true},
		"prios": schema.SetAttribute{ElementType: types.Int64Type, Optional: true},
		"links": schema.ListAttribute{ElementType: linkType, Computed: true},
		"point": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{"dscp": schema.Int64Attribute{Optional: true}}},
		"pause": schema.MapAttribute{ElementType: types.Int64Type, Computed: true},
		"ratio": schema.Float64Attribute{Computed: true},
	}}
}

func sample(t testing.TB) model {
	t.Helper()
	ctx := context.Background()
	prios, d := types.SetValueFrom(ctx, types.Int64Type, []int64{3, 4})
	link, d2 := types.ObjectValue(linkType.AttrTypes, map[string]attr.Value{"port": types.StringValue("Ethernet0"), "speed": types.Int64Value(400000)})
	links, d3 := types.ListValue(linkType, []attr.Value{link})
	point, d4 := types.ObjectValue(map[string]attr.Type{"dscp": types.Int64Type}, map[string]attr.Value{"dscp": types.Int64Unknown()})
	pause, d5 := types.MapValueFrom(ctx, types.Int64Type, map[string]int64{"3": 17})
	for _, dd := range append(append(append(append(d, d2...), d3...), d4...), d5...) {
		t.Fatalf("building the sample: %s", dd.Detail())
	}
	return model{
		ID: types.StringValue("sw1/Ethernet0"), Count: types.Int64Null(), On: types.BoolValue(true),
		Prios: prios, Links: links, Point: point,
		counters: counters{Pause: pause, Ratio: types.Float64Unknown()},
	}
}

// sampleState is the test schema and a state of it holding sample, written by SetState.
func sampleState(tb testing.TB) (schema.Schema, tfsdk.State) {
	tb.Helper()
	s := testSchema()
	st := tfsdk.State{Schema: s}
	if d := SetState(context.Background(), &st, sample(tb)); d.HasError() {
		tb.Fatal(d)
	}
	return s, st
}

// Encode writes what the framework's State.Set writes, and Decode reads back what the
// framework's Get reads, for every kind of attribute the models use, null and unknown included.
func TestRoundTripMatchesFramework(t *testing.T) {
	ctx := context.Background()
	s := testSchema()
	m := sample(t)

	fw := tfsdk.State{Schema: s}
	if d := fw.Set(ctx, m); d.HasError() {
		t.Fatalf("framework Set: %v", d)
	}
	ours := tfsdk.State{Schema: s}
	if d := SetState(ctx, &ours, m); d.HasError() {
		t.Fatalf("SetState: %v", d)
	}
	if !ours.Raw.Equal(fw.Raw) {
		t.Fatalf("SetState wrote\n%s\nthe framework writes\n%s", ours.Raw, fw.Raw)
	}

	var got, want model
	if d := State(ctx, fw, &got); d.HasError() {
		t.Fatalf("State: %v", d)
	}
	if d := fw.Get(ctx, &want); d.HasError() {
		t.Fatalf("framework Get: %v", d)
	}
	for _, pair := range [][2]attr.Value{{got.ID, want.ID}, {got.Count, want.Count}, {got.On, want.On}, {got.Prios, want.Prios},
		{got.Links, want.Links}, {got.Point, want.Point}, {got.Pause, want.Pause}, {got.Ratio, want.Ratio}} {
		if !pair[0].Equal(pair[1]) {
			t.Errorf("decoded %s, the framework decodes %s", pair[0], pair[1])
		}
	}
	if !got.Ratio.IsUnknown() || !got.Count.IsNull() {
		t.Errorf("unknown and null must survive: ratio %s, count %s", got.Ratio, got.Count)
	}

	p := tfsdk.Plan{Schema: s}
	if d := SetPlan(ctx, &p, &m); d.HasError() {
		t.Fatalf("SetPlan: %v", d)
	}
	var fromPlan model
	if d := Plan(ctx, p, &fromPlan); d.HasError() || !fromPlan.Links.Equal(m.Links) {
		t.Fatalf("Plan round trip: %v %s", d, fromPlan.Links)
	}
	var fromConfig model
	if d := Config(ctx, tfsdk.Config{Schema: s, Raw: p.Raw}, &fromConfig); d.HasError() || !fromConfig.ID.Equal(m.ID) {
		t.Fatalf("Config round trip: %v %s", d, fromConfig.ID)
	}
}

// The framework's safety rules hold: a struct that does not match its schema, a value of the
// wrong type, and a null object are errors that say they are provider bugs, not panics or
// silently null attributes.
func TestMismatchesAreProviderBugs(t *testing.T) {
	ctx := context.Background()
	s, st := sampleState(t)

	type typo struct {
		model
		Extra types.String `tfsdk:"extra"`
	}
	wrongType := sample(t)
	wrongType.Count = types.Int64Null()
	wrongType.Prios = types.SetNull(types.StringType) // the schema says a set of numbers

	cases := map[string]func() []string{
		"struct attribute not in schema": func() []string {
			var v typo
			return errs(State(ctx, st, &v))
		},
		"schema attribute not in struct": func() []string {
			var v struct {
				ID types.String `tfsdk:"id"`
			}
			return errs(State(ctx, st, &v))
		},
		"untagged field": func() []string {
			var v struct {
				ID types.String
			}
			return errs(State(ctx, st, &v))
		},
		"value of another type": func() []string {
			out := tfsdk.State{Schema: s}
			return errs(SetState(ctx, &out, wrongType))
		},
		"null object": func() []string {
			var v model
			return errs(State(ctx, tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), nil)}, &v))
		},
		"not a pointer": func() []string {
			return errs(State(ctx, st, model{}))
		},
	}
	for name, run := range cases {
		t.Run(name, func(t *testing.T) {
			got := run()
			if len(got) == 0 {
				t.Fatal("no error")
			}
			if !strings.Contains(got[0], "always an error in the provider") {
				t.Errorf("error does not say it is a provider bug: %s", got[0])
			}
		})
	}
}

func errs(d diag.Diagnostics) []string {
	var out []string
	for _, e := range d.Errors() {
		out = append(out, e.Detail())
	}
	return out
}

// go test -bench . -benchmem ./internal/tfmodel: the cost this package exists to remove.
func BenchmarkDecode(b *testing.B) {
	ctx := context.Background()
	_, st := sampleState(b)
	b.Run("tfmodel", func(b *testing.B) {
		for b.Loop() {
			var m model
			_ = State(ctx, st, &m)
		}
	})
	b.Run("framework", func(b *testing.B) {
		for b.Loop() {
			var m model
			_ = st.Get(ctx, &m)
		}
	})
}
