package provider

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// configure runs the provider's Configure on a configuration given as Go values (string,
// bool, int64, map[string]map[string]any for devices); absent attributes are null.
func configure(t *testing.T, env map[string]string, attrs map[string]any) (*providerData, diag.Diagnostics) {
	t.Helper()
	ctx := context.Background()
	p := &roceProvider{version: "test", getenv: func(k string) string { return env[k] }}
	var sresp provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &sresp)
	typ, ok := sresp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatal("provider schema is not an object")
	}
	raw := tfValue(t, typ, attrs)
	var resp provider.ConfigureResponse
	p.Configure(ctx, provider.ConfigureRequest{Config: tfsdk.Config{Schema: sresp.Schema, Raw: raw}}, &resp)
	pd, _ := resp.ResourceData.(*providerData)
	return pd, resp.Diagnostics
}

func tfValue(t *testing.T, typ tftypes.Type, v any) tftypes.Value {
	t.Helper()
	if v == unknown {
		return tftypes.NewValue(typ, tftypes.UnknownValue)
	}
	switch typ := typ.(type) {
	case tftypes.Object:
		m, _ := v.(map[string]any)
		vals := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			if x, ok := m[name]; ok {
				vals[name] = tfValue(t, at, x)
			} else {
				vals[name] = tftypes.NewValue(at, nil)
			}
		}
		return tftypes.NewValue(typ, vals)
	case tftypes.Map:
		vals := map[string]tftypes.Value{}
		switch m := v.(type) {
		case map[string]map[string]any:
			for k, x := range m {
				vals[k] = tfValue(t, typ.ElementType, x)
			}
		case map[string]any:
			for k, x := range m {
				vals[k] = tfValue(t, typ.ElementType, x)
			}
		}
		return tftypes.NewValue(typ, vals)
	case tftypes.Set:
		return tftypes.NewValue(typ, tfElements(t, typ.ElementType, v))
	case tftypes.List:
		return tftypes.NewValue(typ, tfElements(t, typ.ElementType, v))
	}
	if i, ok := v.(int); ok {
		return tftypes.NewValue(typ, big.NewFloat(float64(i)))
	}
	return tftypes.NewValue(typ, v)
}

// tfElements are the elements of a set or list given as []any.
func tfElements(t *testing.T, elem tftypes.Type, v any) []tftypes.Value {
	var vals []tftypes.Value
	xs, _ := v.([]any)
	for _, x := range xs {
		vals = append(vals, tfValue(t, elem, x))
	}
	return vals
}

var unknown = new(int)

func leaf(extra map[string]any) map[string]any {
	m := map[string]any{"address": "127.0.0.1:9339", "platform": "openconfig"}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func TestConfigureEnvDefaultsAndOverrides(t *testing.T) {
	pd, diags := configure(t, map[string]string{"ROCE_USERNAME": "env-admin", "ROCE_PASSWORD": "env-secret"}, map[string]any{
		"timeout": "5s",
		"devices": map[string]map[string]any{
			"leaf-1": leaf(nil),
			"leaf-2": leaf(map[string]any{"username": "ops", "password": "own"}),
		},
	})
	if diags.HasError() {
		t.Fatal(diags)
	}
	if len(diags) != 0 {
		t.Errorf("verified TLS must not warn, got %v", diags)
	}
	if !pd.known {
		t.Fatal("a fully known configuration must be marked known")
	}
	d1, _ := pd.registry.Device("leaf-1")
	d2, _ := pd.registry.Device("leaf-2")
	if d1.Username != "env-admin" || d1.Password != "env-secret" || d1.Timeout.String() != "5s" || d1.Retries != 3 {
		t.Errorf("leaf-1 = %+v", d1)
	}
	if d2.Username != "ops" || d2.Password != "own" {
		t.Errorf("leaf-2 overrides lost: %+v", d2)
	}
}

func TestConfigureInsecureWarns(t *testing.T) {
	_, diags := configure(t, nil, map[string]any{
		"devices": map[string]map[string]any{"leaf-1": leaf(map[string]any{"insecure": true}), "leaf-2": leaf(nil)},
	})
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Fatalf("want exactly one warning, got %v", diags)
	}
	w := diags.Warnings()[0]
	if !strings.Contains(w.Summary(), "verification is off") || !strings.Contains(w.Detail(), "leaf-1") || strings.Contains(w.Detail(), "leaf-2") {
		t.Errorf("warning should name leaf-1 only: %s / %s", w.Summary(), w.Detail())
	}
}

// insecure is TLS's, insecure_host_key SSH's: one never turns off the other check, and each on
// a device of the other kind is an error on that attribute.
func TestConfigureInsecureFlagsApart(t *testing.T) {
	host := map[string]any{"address": "127.0.0.1:22", "platform": "mlx5"}
	pd, diags := configure(t, nil, map[string]any{"insecure": true,
		"devices": map[string]map[string]any{"leaf-1": leaf(nil), "gpu-1": host}})
	if diags.HasError() {
		t.Fatal(diags)
	}
	if d, _ := pd.registry.Device("gpu-1"); d.Insecure {
		t.Error("provider-wide insecure (TLS) turned off gpu-1's SSH host-key check")
	}
	if d, _ := pd.registry.Device("leaf-1"); !d.Insecure {
		t.Error("provider-wide insecure did not apply to the gNMI device")
	}
	pd, diags = configure(t, nil, map[string]any{"insecure_host_key": true,
		"devices": map[string]map[string]any{"leaf-1": leaf(nil), "gpu-1": host}})
	if d, _ := pd.registry.Device("leaf-1"); diags.HasError() || d.Insecure {
		t.Errorf("provider-wide insecure_host_key turned off leaf-1's TLS check (or failed: %v)", diags)
	}
	for _, c := range []struct {
		dev  map[string]any
		want string
	}{
		{map[string]any{"address": "127.0.0.1:22", "platform": "mlx5", "insecure": true}, "insecure does not apply to this device"},
		{leaf(map[string]any{"insecure_host_key": true}), "insecure_host_key does not apply to this device"},
	} {
		_, diags := configure(t, nil, map[string]any{"devices": map[string]map[string]any{"x-1": c.dev}})
		if !diags.HasError() || !strings.Contains(fmt.Sprint(diags), c.want) {
			t.Errorf("device %v: %v, want an error %q", c.dev, diags, c.want)
		}
	}
}

func TestConfigureRejectsBadValuesOnTheAttribute(t *testing.T) {
	_, diags := configure(t, nil, map[string]any{"timeout": "fast",
		"devices": map[string]map[string]any{"leaf-1": leaf(nil)}})
	if !diags.HasError() {
		t.Fatal("want an error for timeout = fast")
	}
	var found bool
	for _, d := range diags.Errors() {
		if wp, ok := d.(diag.DiagnosticWithPath); ok && wp.Path().String() == "timeout" {
			found = true
		}
	}
	if !found {
		t.Errorf("error not attached to timeout: %v", diags)
	}
}

func TestConfigureUnknownValuesDeferChecks(t *testing.T) {
	pd, diags := configure(t, nil, map[string]any{
		"devices": map[string]map[string]any{"leaf-1": {"address": unknown, "platform": "openconfig"}},
	})
	if diags.HasError() {
		t.Fatal(diags)
	}
	if pd == nil || pd.known {
		t.Fatal("a configuration with unknown values must be marked unknown so plan-time device checks wait")
	}
}

func TestConfigureOpensNoConnection(t *testing.T) {
	// An address nothing listens on: Configure must still succeed, connections are lazy.
	_, diags := configure(t, nil, map[string]any{
		"devices": map[string]map[string]any{"leaf-1": {"address": "127.0.0.1:1", "platform": "openconfig"}},
	})
	if diags.HasError() {
		t.Fatalf("Configure must not dial devices: %v", diags)
	}
}

func TestConfigureUnknownDevicesMap(t *testing.T) {
	pd, diags := configure(t, nil, map[string]any{"devices": unknown})
	if diags.HasError() {
		t.Fatal(diags)
	}
	if pd == nil || pd.known {
		t.Fatal("an unknown devices map must defer plan-time device checks")
	}
}
