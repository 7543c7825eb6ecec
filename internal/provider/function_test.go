package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// runFunction calls a function's Run the way the framework does, with a result of type want.
func runFunction(t *testing.T, f function.Function, want attr.Value, args ...attr.Value) (attr.Value, *function.FuncError) {
	t.Helper()
	resp := function.RunResponse{Result: function.NewResultData(want)}
	f.Run(context.Background(), function.RunRequest{Arguments: function.NewArgumentsData(args)}, &resp)
	return resp.Result.Value(), resp.Error
}

func TestFunctionTOS(t *testing.T) {
	for _, tc := range []struct {
		dscp int64
		ecn  bool
		want int64
	}{
		{0, false, 0},
		{0, true, 2},
		{26, false, 104},
		{26, true, 106},
		{46, true, 186},
		{63, true, 254},
	} {
		got, ferr := runFunction(t, newTOSFunction(), types.Int64Unknown(), types.Int64Value(tc.dscp), types.BoolValue(tc.ecn))
		if ferr != nil {
			t.Errorf("tos(%d, %t): %v", tc.dscp, tc.ecn, ferr)
			continue
		}
		if !got.Equal(types.Int64Value(tc.want)) {
			t.Errorf("tos(%d, %t) = %v, want %d", tc.dscp, tc.ecn, got, tc.want)
		}
	}
	for _, dscp := range []int64{-1, 64, 255} {
		_, ferr := runFunction(t, newTOSFunction(), types.Int64Unknown(), types.Int64Value(dscp), types.BoolValue(true))
		if ferr == nil || ferr.FunctionArgument == nil || *ferr.FunctionArgument != 0 || !strings.Contains(ferr.Text, "dscp must be 0-63") {
			t.Errorf("tos(%d, true): want an error on argument 0 naming dscp, got %v", dscp, ferr)
		}
	}
}

func TestFunctionPFCVector(t *testing.T) {
	set := func(ps ...int64) types.Set {
		elems := make([]attr.Value, 0, len(ps))
		for _, p := range ps {
			elems = append(elems, types.Int64Value(p))
		}
		return types.SetValueMust(types.Int64Type, elems)
	}
	for _, tc := range []struct {
		in   types.Set
		want string
	}{
		{set(), "0,0,0,0,0,0,0,0"},
		{set(3), "0,0,0,1,0,0,0,0"},
		{set(3, 4), "0,0,0,1,1,0,0,0"},
		{set(0, 7), "1,0,0,0,0,0,0,1"},
		{set(0, 1, 2, 3, 4, 5, 6, 7), "1,1,1,1,1,1,1,1"},
	} {
		got, ferr := runFunction(t, newPFCVectorFunction(), types.StringUnknown(), tc.in)
		if ferr != nil {
			t.Errorf("pfc_vector(%v): %v", tc.in, ferr)
			continue
		}
		if !got.Equal(types.StringValue(tc.want)) {
			t.Errorf("pfc_vector(%v) = %v, want %q", tc.in, got, tc.want)
		}
	}
	for _, in := range []types.Set{set(8), set(3, -1), types.SetValueMust(types.Int64Type, []attr.Value{types.Int64Null()})} {
		_, ferr := runFunction(t, newPFCVectorFunction(), types.StringUnknown(), in)
		if ferr == nil || ferr.FunctionArgument == nil || *ferr.FunctionArgument != 0 || !strings.Contains(ferr.Text, "priorities must") {
			t.Errorf("pfc_vector(%v): want an error on argument 0 naming priorities, got %v", in, ferr)
		}
	}
}

// The functions through the provider's protocol server, as Terraform calls them: names,
// signatures, results and argument errors.
func TestFunctionsProtocol(t *testing.T) {
	ctx := context.Background()
	srv := protocolServer(t)
	fns, err := srv.GetFunctions(ctx, &tfprotov6.GetFunctionsRequest{})
	if err != nil || len(fns.Diagnostics) > 0 {
		t.Fatalf("GetFunctions: %v %v", err, fns.Diagnostics)
	}
	if tos := fns.Functions["tos"]; tos == nil || len(tos.Parameters) != 2 || tos.Parameters[0].Name != "dscp" ||
		!tos.Parameters[0].Type.Is(tftypes.Number) || !tos.Parameters[1].Type.Is(tftypes.Bool) || !tos.Return.Type.Is(tftypes.Number) {
		t.Errorf("tos signature: %+v", fns.Functions["tos"])
	}
	if pv := fns.Functions["pfc_vector"]; pv == nil || len(pv.Parameters) != 1 || pv.Parameters[0].Name != "priorities" ||
		!pv.Parameters[0].Type.Is(tftypes.Set{ElementType: tftypes.Number}) || !pv.Return.Type.Is(tftypes.String) {
		t.Errorf("pfc_vector signature: %+v", fns.Functions["pfc_vector"])
	}

	dv := func(typ tftypes.Type, v any) *tfprotov6.DynamicValue {
		d, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, v))
		if err != nil {
			t.Fatal(err)
		}
		return &d
	}
	call := func(name string, args ...*tfprotov6.DynamicValue) *tfprotov6.CallFunctionResponse {
		resp, err := srv.CallFunction(ctx, &tfprotov6.CallFunctionRequest{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	resp := call("tos", dv(tftypes.Number, 26), dv(tftypes.Bool, true))
	if resp.Error != nil {
		t.Fatalf("tos(26, true): %s", resp.Error.Text)
	}
	v, err := resp.Result.Unmarshal(tftypes.Number)
	if err != nil {
		t.Fatal(err)
	}
	var n big.Float
	if err := v.As(&n); err != nil || n.Cmp(big.NewFloat(106)) != 0 {
		t.Errorf("tos(26, true) = %v (%v), want 106", n.String(), err)
	}

	resp = call("tos", dv(tftypes.Number, 64), dv(tftypes.Bool, false))
	if resp.Error == nil || resp.Error.FunctionArgument == nil || *resp.Error.FunctionArgument != 0 {
		t.Errorf("tos(64, false): want an error on argument 0, got %+v", resp.Error)
	}

	setType := tftypes.Set{ElementType: tftypes.Number}
	resp = call("pfc_vector", dv(setType, []tftypes.Value{tftypes.NewValue(tftypes.Number, 3)}))
	if resp.Error != nil {
		t.Fatalf("pfc_vector([3]): %s", resp.Error.Text)
	}
	v, err = resp.Result.Unmarshal(tftypes.String)
	if err != nil {
		t.Fatal(err)
	}
	var s string
	if err := v.As(&s); err != nil || s != "0,0,0,1,0,0,0,0" {
		t.Errorf("pfc_vector([3]) = %q (%v)", s, err)
	}
	resp = call("pfc_vector", dv(setType, []tftypes.Value{tftypes.NewValue(tftypes.Number, 9)}))
	if resp.Error == nil || !strings.Contains(resp.Error.Text, "got 9") {
		t.Errorf("pfc_vector([9]): want an error, got %+v", resp.Error)
	}
}

var (
	cliVersionOnce sync.Once
	cliIsTofu      bool
	cliMajor       int
	cliMinor       int
	cliVersionErr  error
)

// skipWithoutProviderFunctions skips a test when the CLI in TF_ACC_TERRAFORM_PATH cannot call
// provider functions: Terraform 1.8 and OpenTofu 1.7 were the first. (tfversion.SkipBelow
// cannot tell OpenTofu, which reports its own version number, from Terraform.)
func skipWithoutProviderFunctions(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test and make testacc-tofu do) to run it against the real CLI")
	}
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if bin == "" {
		t.Fatal("TF_ACC_TERRAFORM_PATH must name the Terraform or OpenTofu binary (make test and make testacc-tofu set it)")
	}
	cliVersionOnce.Do(func() {
		out, err := exec.Command(bin, "version", "-json").Output()
		if err != nil {
			cliVersionErr = err
			return
		}
		var v struct {
			Version string `json:"terraform_version"`
		}
		if cliVersionErr = json.Unmarshal(out, &v); cliVersionErr != nil {
			return
		}
		if _, err := fmt.Sscanf(v.Version, "%d.%d.", &cliMajor, &cliMinor); err != nil {
			cliVersionErr = fmt.Errorf("version %q: %w", v.Version, err)
			return
		}
		text, _ := exec.Command(bin, "version").Output()
		cliIsTofu = strings.Contains(string(text), "OpenTofu v")
	})
	if cliVersionErr != nil {
		t.Fatalf("%s version -json: %v", bin, cliVersionErr)
	}
	least := 8 // Terraform 1.8
	if cliIsTofu {
		least = 7 // OpenTofu 1.7
	}
	if cliMajor < 1 || cliMajor == 1 && cliMinor < least {
		t.Skip("provider functions need Terraform 1.8+ or OpenTofu 1.7+; make test runs Terraform 1.5.7, make testacc-tofu runs them")
	}
}

func TestAccFunctions(t *testing.T) {
	skipWithoutProviderFunctions(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{
			{
				Config: requiredProvidersHCL + `
output "tos_ect0" { value = provider::roce::tos(26, true) }
output "tos_not_ect" { value = provider::roce::tos(46, false) }
output "pfc_list" { value = provider::roce::pfc_vector([3]) }
output "pfc_set" { value = provider::roce::pfc_vector(toset([4, 3, 3])) }
output "pfc_none" { value = provider::roce::pfc_vector([]) }
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("tos_ect0", knownvalue.Int64Exact(106)),
					statecheck.ExpectKnownOutputValue("tos_not_ect", knownvalue.Int64Exact(184)),
					statecheck.ExpectKnownOutputValue("pfc_list", knownvalue.StringExact("0,0,0,1,0,0,0,0")),
					statecheck.ExpectKnownOutputValue("pfc_set", knownvalue.StringExact("0,0,0,1,1,0,0,0")),
					statecheck.ExpectKnownOutputValue("pfc_none", knownvalue.StringExact("0,0,0,0,0,0,0,0")),
				},
			},
			{
				Config:      requiredProvidersHCL + `output "tos" { value = provider::roce::tos(64, true) }`,
				ExpectError: regexp.MustCompile(`(?s)"dscp".*dscp\s+must\s+be\s+0-63`),
			},
			{
				Config:      requiredProvidersHCL + `output "pfc" { value = provider::roce::pfc_vector([3, 8]) }`,
				ExpectError: regexp.MustCompile(`(?s)"priorities".*priorities\s+must\s+each\s+be\s+0-7.*got\s+8`),
			},
		},
	})
}

// The functions feed a resource as users would use them: roce_tos from tos(), and the host's
// mlnx_qos then reports the PFC vector that pfc_vector() computes from pfc_priorities.
func TestAccFunctionsFeedNICQoS(t *testing.T) {
	skipWithoutProviderFunctions(t)
	l := hostLab(t)
	sh := l.shell(t, "mlx5-1")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6Factories,
		Steps: []resource.TestStep{{
			Config: l.providerHCL() + `
locals {
  pfc = [3]
}

resource "roce_nic_qos" "gpu" {
  device         = "mlx5-1"
  interface      = "eth0"
  trust          = "dscp"
  pfc_priorities = local.pfc
  roce_tos       = provider::roce::tos(26, true)
}

output "pfc" { value = provider::roce::pfc_vector(roce_nic_qos.gpu.pfc_priorities) }
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(nicRes, tfjsonpath.New("roce_tos"), knownvalue.Int64Exact(106)),
				statecheck.ExpectKnownOutputValue("pfc", knownvalue.StringExact("0,0,0,1,0,0,0,0")),
			},
			Check: func(*terraform.State) error {
				if tos := sh.run("cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class"); !strings.Contains(tos, "106") {
					return fmt.Errorf("traffic class = %q, want 106", tos)
				}
				if out := sh.run("mlnx_qos -i eth0"); !strings.Contains(out, "\tenabled     0   0   0   1   0   0   0   0   ") {
					return fmt.Errorf("mlnx_qos does not show PFC on priority 3 only:\n%s", out)
				}
				return nil
			},
		}},
	})
}

// examples/functions, run as users run them with the real CLI: both validate, and the
// pfc_vector example's outputs are what its comments say.
func TestAccFunctionExamples(t *testing.T) {
	skipWithoutProviderFunctions(t)
	for _, name := range []string{"tos", "pfc_vector"} {
		t.Run(name, func(t *testing.T) {
			tf := exampleCLI(t, "functions", name, "function.tf")
			tf.must("validate", "-no-color")
			if name != "pfc_vector" {
				return
			}
			tf.must("apply", "-auto-approve", "-input=false", "-no-color")
			var outs map[string]struct {
				Value string `json:"value"`
			}
			if err := json.Unmarshal([]byte(tf.must("output", "-json")), &outs); err != nil {
				t.Fatal(err)
			}
			if outs["pfc"].Value != "0,0,0,1,0,0,0,0" || outs["pfc_two_classes"].Value != "0,0,0,1,1,0,0,0" {
				t.Errorf("outputs: %+v", outs)
			}
		})
	}
}
