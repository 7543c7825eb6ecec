package provider

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// newPFCVectorFunction renders a set of PFC priorities as the eight-digit vector that
// `mlnx_qos --pfc` takes.
func newPFCVectorFunction() function.Function {
	return &providerFunction[string]{
		name: "pfc_vector",
		def: function.Definition{
			Summary: "The mlnx_qos --pfc vector of a set of priorities",
			MarkdownDescription: "Returns the eight comma-separated digits that `mlnx_qos --pfc` takes, priority 0 first: `1` for " +
				"each priority in `priorities`, `0` for the others. `pfc_vector([3])` is `\"0,0,0,1,0,0,0,0\"`, the value " +
				"`roce_nic_qos` with `pfc_priorities = [3]` leaves on a host. A priority given twice counts once. " +
				"Provider functions need Terraform 1.8+ or OpenTofu 1.7+.",
			Parameters: []function.Parameter{
				function.SetParameter{
					Name:                "priorities",
					ElementType:         types.Int64Type,
					MarkdownDescription: "The PFC-enabled priorities, each 0-7 (a set or a list; may be empty).",
				},
			},
			Return: function.StringReturn{},
		},
		bind: func() ([]any, func() (string, error)) {
			var prios []*int64
			return []any{&prios}, func() (string, error) { return pfcVector(prios) }
		},
	}
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
