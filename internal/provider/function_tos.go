package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/function"
)

// newTOSFunction computes an IP ToS byte (the value of roce_nic_qos's roce_tos and of
// cma_roce_tos) from a DSCP and whether the traffic is ECN-capable.
func newTOSFunction() function.Function {
	return &providerFunction[int64]{
		name: "tos",
		def: function.Definition{
			Summary: "The IP ToS byte of a DSCP, ECN-capable or not",
			MarkdownDescription: "Returns the IP ToS (traffic class) byte for `dscp`: the DSCP in the upper six bits and, " +
				"when `ecn_capable` is true, ECT(0) (`0b10`) in the two ECN bits: `dscp << 2 | (ecn_capable ? 2 : 0)`. " +
				"`tos(26, true)` is 106. Use it for `roce_nic_qos`'s `roce_tos`, which `roce_fabric_check` expects to carry " +
				"a lossless class's DSCP with ECT(0) or ECT(1) (rule R7). Provider functions need Terraform 1.8+ or OpenTofu 1.7+.",
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
		},
		bind: func() ([]any, func() (int64, error)) {
			var dscp int64
			var ecn bool
			return []any{&dscp, &ecn}, func() (int64, error) { return tosByte(dscp, ecn) }
		},
	}
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
