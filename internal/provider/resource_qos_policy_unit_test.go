package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// validateQoS runs the resource's ValidateConfig on a configuration given as Go values.
func validateQoS(t *testing.T, attrs map[string]any) diag.Diagnostics {
	t.Helper()
	ctx := context.Background()
	r := newQoSPolicyResource().(*qosPolicyResource)
	var sresp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sresp)
	typ, ok := sresp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatal("schema is not an object")
	}
	var resp resource.ValidateConfigResponse
	r.ValidateConfig(ctx, resource.ValidateConfigRequest{Config: tfsdk.Config{Schema: sresp.Schema, Raw: tfValue(t, typ, attrs)}}, &resp)
	return resp.Diagnostics
}

func errorPaths(diags diag.Diagnostics) []string {
	var out []string
	for _, d := range diags.Errors() {
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			out = append(out, wp.Path().String())
		} else {
			out = append(out, "<no path>")
		}
	}
	return out
}

// Errors land on the attribute at fault, map keys included, so Terraform points at it.
func TestValidateConfigAttachesErrorsToTheAttribute(t *testing.T) {
	diags := validateQoS(t, map[string]any{
		"device": "leaf-1",
		"classes": map[string]any{
			"roce": map[string]any{"traffic_class": 3, "dscp": []any{26}, "bandwidth_percent": 100,
				"ecn": map[string]any{"min_threshold_bytes": 2000, "max_threshold_bytes": 1000}},
		},
	})
	got := errorPaths(diags)
	if len(got) != 1 || got[0] != `classes["roce"].ecn.max_threshold_bytes` {
		t.Fatalf("error paths = %v, want [classes[\"roce\"].ecn.max_threshold_bytes]", got)
	}
}

func TestValidateConfigAcceptsTheContractExample(t *testing.T) {
	diags := validateQoS(t, map[string]any{
		"device": "leaf-1",
		"classes": map[string]any{
			"roce":    map[string]any{"traffic_class": 3, "dscp": []any{26}, "bandwidth_percent": 50, "lossless": true},
			"cnp":     map[string]any{"traffic_class": 6, "dscp": []any{48}, "strict_priority": true},
			"default": map[string]any{"traffic_class": 0, "dscp": []any{0}, "bandwidth_percent": 50},
		},
		"interfaces": []any{"Ethernet1", "Ethernet2"},
	})
	if diags.HasError() {
		t.Fatalf("the contract's example must validate: %v", diags)
	}
}

func TestValidateConfigWaitsForUnknownValues(t *testing.T) {
	diags := validateQoS(t, map[string]any{
		"device": "leaf-1",
		"classes": map[string]any{
			"roce": map[string]any{"traffic_class": unknown, "dscp": []any{26}, "bandwidth_percent": 100},
		},
	})
	if diags.HasError() {
		t.Fatalf("unknown values must not be judged yet: %v", diags)
	}
}
