package bench

import (
	"regexp"
	"strings"
	"testing"
)

func TestConfig(t *testing.T) {
	_, f := testFabric(t)
	a := Config(f, Defaults, "/lab/inventory.json")
	b := Config(f, PerResource, "/lab/inventory.json")
	c := Config(f, Floor, "/lab/inventory.json")

	for name, cfg := range map[string]string{"a": a, "b": b, "c": c} {
		if strings.Count(cfg, "{") != strings.Count(cfg, "}") || strings.Count(cfg, "[") != strings.Count(cfg, "]") {
			t.Errorf("%s: unbalanced braces:\n%s", name, cfg)
		}
		// The same instances under the same keys in every variant.
		for _, k := range []string{`"sonic-10" = ["Ethernet0", "Ethernet4"]`,
			`"sonic-2/Ethernet4" = { device = "sonic-2", interface = "Ethernet4" }`,
			`"mlx5-2/eth1" = { device = "mlx5-2", interface = "eth1" }`,
			`devices = ["sonic-1", "sonic-2", "sonic-10", "mlx5-1", "mlx5-2"]`} {
			if !strings.Contains(cfg, k) {
				t.Errorf("%s: missing %s", name, k)
			}
		}
		if !strings.Contains(cfg, "17 resources") {
			t.Errorf("%s: header does not count 17 resources", name)
		}
	}
	for _, want := range []string{`source = "rocefabric/roce"`, `file("/lab/inventory.json")`, `if contains(local.devices, name)`,
		`resource "roce_qos_policy" "leaf"`, `lossless          = true`, `strict_priority = true`,
		`resource "roce_pfc_interface" "port"`, `detection_time_ms = 200, restoration_time_ms = 400`,
		`depends_on = [roce_qos_policy.leaf]`, `resource "roce_nic_qos" "nic"`, `roce_tos = 106`,
		`resource "roce_dcqcn_profile" "nic"`, `cnp_dscp     = 48`} {
		if !strings.Contains(a, want) {
			t.Errorf("(a) lacks %s", want)
		}
	}
	if strings.Contains(a, "per_resource_reads") {
		t.Error("(a) sets per_resource_reads: it must keep the provider's default")
	}
	if !strings.Contains(b, "per_resource_reads = true") || strings.Replace(b, "  per_resource_reads = true\n", "", 1) != strings.Replace(a, "(a) defaults", "(b) per-resource reads", 1) {
		t.Error("(b) must be (a) plus per_resource_reads = true")
	}
	if regexp.MustCompile(`provider "roce"|resource "roce_|required_providers`).MatchString(c) {
		t.Errorf("(c) must not use the roce provider:\n%s", c)
	}
	if got := strings.Count(c, `resource "terraform_data"`); got != 4 {
		t.Errorf("(c) has %d terraform_data blocks, want 4 (one per roce resource type)", got)
	}
	if !strings.Contains(c, "depends_on = [terraform_data.leaf]") {
		t.Error("(c) lacks the PFC -> policy dependency")
	}
}

func TestVariantLabels(t *testing.T) {
	for _, v := range Variants {
		if !strings.HasPrefix(v.Label(), "("+string(v)+")") {
			t.Errorf("label of %s: %q", v, v.Label())
		}
	}
	if Variant("z").Label() != "z" {
		t.Error("unknown variant label")
	}
}

func TestCLIConfig(t *testing.T) {
	got := CLIConfig("/work/.bench/bin")
	for _, want := range []string{`"rocefabric/roce" = "/work/.bench/bin"`, "dev_overrides", "direct {}", "disable_checkpoint = true"} {
		if !strings.Contains(got, want) {
			t.Errorf("CLI config lacks %s:\n%s", want, got)
		}
	}
}
