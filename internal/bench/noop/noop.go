// Package noop is the bench's floor for a plugin provider: a terraform-plugin-framework
// provider with exactly roce's provider and resource schemas (it asks the real provider for
// them) whose configure and CRUD do nothing but hand the plan back as the new state. It pays
// what every framework provider pays per resource (the gRPC calls, the framework's decoding
// and encoding of a schema of this shape) and nothing of roce's own (device reads, plan-time
// checks, writes), so roce's plan, apply and destroy against it measure roce's own cost
// (issue "Performance against the real floor"; terraform_data runs inside Terraform and is no
// floor for a plugin).
package noop

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// New wraps the provider real builds: same type name, same schemas, no behaviour.
func New(roce func() provider.Provider) func() provider.Provider {
	return func() provider.Provider { return &noopProvider{real: roce()} }
}

type noopProvider struct{ real provider.Provider }

func (p *noopProvider) Metadata(ctx context.Context, req provider.MetadataRequest, resp *provider.MetadataResponse) {
	p.real.Metadata(ctx, req, resp)
}

func (p *noopProvider) Schema(ctx context.Context, req provider.SchemaRequest, resp *provider.SchemaResponse) {
	p.real.Schema(ctx, req, resp)
}

// Configure reads nothing: the configuration is decoded by the framework anyway, as for roce.
func (p *noopProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (p *noopProvider) Resources(ctx context.Context) []func() resource.Resource {
	var out []func() resource.Resource
	for _, f := range p.real.Resources(ctx) {
		out = append(out, func() resource.Resource { return &noopResource{real: f()} })
	}
	return out
}

// DataSources: the bench's configurations use none.
func (p *noopProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// noopResource has the real resource's name and schema; it implements none of its optional
// interfaces (configure, validate, modify plan, import, upgrade).
type noopResource struct{ real resource.Resource }

func (r *noopResource) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.real.Metadata(ctx, req, resp)
}

func (r *noopResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.real.Schema(ctx, req, resp)
}

func (r *noopResource) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if v, ok := planned("noop create", req.Plan.Raw, &resp.Diagnostics); ok {
		resp.State.Raw = v
	}
}

// Read keeps the state as it is (the framework has already copied it into the response).
func (r *noopResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *noopResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if v, ok := planned("noop update", req.Plan.Raw, &resp.Diagnostics); ok {
		resp.State.Raw = v
	}
}

// planned is the state a create or update (op) writes: the plan, Known; when it cannot be,
// ok is false and the error is in diags.
func planned(op string, plan tftypes.Value, diags *diag.Diagnostics) (v tftypes.Value, ok bool) {
	v, err := Known(plan)
	if err != nil {
		diags.AddError(op, err.Error())
		return v, false
	}
	return v, true
}

// Delete removes nothing anywhere; the framework drops the state.
func (r *noopResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// Known is v with every unknown value (computed attributes the plan left to the provider)
// made null: Terraform refuses unknown values after apply, and a null one is what a provider
// that computes nothing would return.
func Known(v tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(v, func(_ *tftypes.AttributePath, x tftypes.Value) (tftypes.Value, error) {
		if !x.IsKnown() {
			return tftypes.NewValue(x.Type(), nil), nil
		}
		return x, nil
	})
}
