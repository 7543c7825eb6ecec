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

// providerFunction is a provider-defined function: its name, its definition, and bind, which
// gives for one call the targets its arguments are read into and the computation of the
// result from them (an error is one of argument 0: both functions check their first value).
type providerFunction[R any] struct {
	name string
	def  function.Definition
	bind func() (args []any, compute func() (R, error))
}

func (f *providerFunction[R]) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = f.name
}

func (f *providerFunction[R]) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = f.def
}

func (f *providerFunction[R]) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	args, compute := f.bind()
	resp.Error = req.Arguments.Get(ctx, args...)
	if resp.Error != nil {
		return
	}
	out, err := compute()
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, out)
}
