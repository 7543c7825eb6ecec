package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"
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

// newProviderFunction is the function name with definition def, whose description ends with
// the note every provider function carries, and bind.
func newProviderFunction[R any](name string, def function.Definition, bind func() (args []any, compute func() (R, error))) *providerFunction[R] {
	def.MarkdownDescription += " Provider functions need Terraform 1.8+ or OpenTofu 1.7+."
	return &providerFunction[R]{name: name, def: def, bind: bind}
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

// newTOSFunction computes an IP ToS byte (the value of roce_nic_qos's roce_tos and of
// cma_roce_tos) from a DSCP and whether the traffic is ECN-capable.
func newTOSFunction() function.Function {
	return newProviderFunction("tos", function.Definition{
		Summary: "The IP ToS byte of a DSCP, ECN-capable or not",
		MarkdownDescription: "Returns the IP ToS (traffic class) byte for `dscp`: the DSCP in the upper six bits and, " +
			"when `ecn_capable` is true, ECT(0) (`0b10`) in the two ECN bits: `dscp << 2 | (ecn_capable ? 2 : 0)`. " +
			"`tos(26, true)` is 106. Use it for `roce_nic_qos`'s `roce_tos`, which `roce_fabric_check` expects to carry " +
			"a lossless class's DSCP with ECT(0) or ECT(1) (rule R7).",
		Parameters: []function.Parameter{
			function.Int64Parameter{
				Name:                "dscp",
				MarkdownDescription: "The DSCP, 0-63.",
			},
			function.BoolParameter{
				Name:                "ecn_capable",
				MarkdownDescription: "Whether the traffic is ECN-capable: `true` sets the ECN bits to ECT(0) (`0b10`), `false` leaves them `0b00` (Not-ECT).",
			},
		},
		Return: function.Int64Return{},
	}, func() ([]any, func() (int64, error)) {
		var dscp int64
		var ecn bool
		return []any{&dscp, &ecn}, func() (int64, error) { return tosByte(dscp, ecn) }
	})
}

// tosByte is dscp << 2 with ECT(0) in the ECN bits when ecn is true.
func tosByte(dscp int64, ecn bool) (int64, error) {
	if dscp < 0 || dscp > 63 {
		return 0, fmt.Errorf("dscp must be 0-63 (a DSCP is six bits), got %d", dscp)
	}
	tos := dscp << 2
	if ecn {
		tos |= 2 // ECT(0)
	}
	return tos, nil
}

// newPFCVectorFunction renders a set of PFC priorities as the eight-digit vector that
// `mlnx_qos --pfc` takes.
func newPFCVectorFunction() function.Function {
	return newProviderFunction("pfc_vector", function.Definition{
		Summary: "The mlnx_qos --pfc vector of a set of priorities",
		MarkdownDescription: "Returns the eight comma-separated digits that `mlnx_qos --pfc` takes, priority 0 first: `1` for " +
			"each priority in `priorities`, `0` for the others. `pfc_vector([3])` is `\"0,0,0,1,0,0,0,0\"`, the value " +
			"`roce_nic_qos` with `pfc_priorities = [3]` leaves on a host. A priority given twice counts once.",
		Parameters: []function.Parameter{
			function.SetParameter{
				Name:                "priorities",
				ElementType:         types.Int64Type,
				MarkdownDescription: "The PFC-enabled priorities, each 0-7 (a set or a list; may be empty).",
			},
		},
		Return: function.StringReturn{},
	}, func() ([]any, func() (string, error)) {
		var prios []*int64
		return []any{&prios}, func() (string, error) { return pfcVector(prios) }
	})
}

// pfcVector is the mlnx_qos --pfc vector with a 1 at each given priority.
func pfcVector(prios []*int64) (string, error) {
	digits := []string{"0", "0", "0", "0", "0", "0", "0", "0"}
	for _, p := range prios {
		if p == nil {
			return "", errors.New("priorities must not hold null")
		}
		if *p < 0 || *p > 7 {
			return "", fmt.Errorf("priorities must each be 0-7 (an 802.1p priority), got %d", *p)
		}
		digits[*p] = "1"
	}
	return strings.Join(digits, ","), nil
}
