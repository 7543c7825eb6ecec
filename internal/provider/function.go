package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
)

var (
	_ function.Function              = (*providerFunction[int64])(nil)
	_ provider.ProviderWithFunctions = (*roceProvider)(nil)
)

// providerFunction is a provider-defined function of one argument list and one result: its
// name, its definition, and compute, which turns the arguments read by args into the result or
// an error on argument 0 (both functions take their checked value first).
type providerFunction[R any] struct {
	name    string
	def     function.Definition
	args    func() []any
	compute func(args []any) (R, error)
}

func (f *providerFunction[R]) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = f.name
}

func (f *providerFunction[R]) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = f.def
}

func (f *providerFunction[R]) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	args := f.args()
	resp.Error = req.Arguments.Get(ctx, args...)
	if resp.Error != nil {
		return
	}
	out, err := f.compute(args)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, out)
}
