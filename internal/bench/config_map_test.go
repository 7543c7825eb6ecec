package bench

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// parseHCL parses a generated configuration as Terraform does (native syntax): it must be
// valid HCL.
func parseHCL(t *testing.T, src string) *hclsyntax.Body {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("invalid HCL: %s\n%s", diags.Error(), src)
	}
	return f.Body.(*hclsyntax.Body)
}

// block returns the one block of that type and labels.
func block(t *testing.T, body *hclsyntax.Body, typ string, labels ...string) *hclsyntax.Block {
	t.Helper()
	var found *hclsyntax.Block
	for _, b := range body.Blocks {
		if b.Type == typ && slices.Equal(b.Labels, labels) {
			if found != nil {
				t.Fatalf("two %s %v blocks", typ, labels)
			}
			found = b
		}
	}
	if found == nil {
		t.Fatalf("no %s %v block", typ, labels)
	}
	return found
}

// resourceTypes lists "type.name" of every resource block.
func resourceTypes(body *hclsyntax.Body) []string {
	var out []string
	for _, b := range body.Blocks {
		if b.Type == "resource" {
			out = append(out, b.Labels[0]+"."+b.Labels[1])
		}
	}
	return out
}

func evalExpr(t *testing.T, e hclsyntax.Expression, ctx *hcl.EvalContext) cty.Value {
	t.Helper()
	v, diags := e.Value(ctx)
	if diags.HasErrors() {
		t.Fatalf("evaluating %T at %s: %s", e, e.Range(), diags.Error())
	}
	return v
}

// locals evaluates the locals block (plain literals: no function or reference).
func locals(t *testing.T, body *hclsyntax.Body) cty.Value {
	t.Helper()
	vals := map[string]cty.Value{}
	for name, a := range block(t, body, "locals").Body.Attributes {
		vals[name] = evalExpr(t, a.Expr, nil)
	}
	return cty.ObjectVal(vals)
}

// eachCtx is the evaluation context of one for_each instance.
func eachCtx(local cty.Value, key string, value cty.Value) *hcl.EvalContext {
	return &hcl.EvalContext{Variables: map[string]cty.Value{
		"local": local,
		"each":  cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal(key), "value": value}),
	}}
}

// settings evaluates a resource's arguments other than the meta-arguments and the ones that
// name the device and interface: what it sets on the port or NIC.
func settings(t *testing.T, b *hclsyntax.Block, ctx *hcl.EvalContext) cty.Value {
	t.Helper()
	vals := map[string]cty.Value{}
	for name, a := range b.Body.Attributes {
		switch name {
		case "for_each", "depends_on", "device", "interface":
			continue
		}
		vals[name] = evalExpr(t, a.Expr, ctx)
	}
	return cty.ObjectVal(vals)
}

func dependsOn(t *testing.T, b *hclsyntax.Block) []string {
	t.Helper()
	a, ok := b.Body.Attributes["depends_on"]
	if !ok {
		return nil
	}
	var out []string
	for _, e := range a.Expr.(*hclsyntax.TupleConsExpr).Exprs {
		tr := e.(*hclsyntax.ScopeTraversalExpr).Traversal
		out = append(out, tr.RootName()+"."+tr[1].(hcl.TraverseAttr).Name)
	}
	return out
}

func stringMap(t *testing.T, v cty.Value) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for k, l := range v.AsValueMap() {
		for _, s := range l.AsValueSlice() {
			out[k] = append(out[k], s.AsString())
		}
	}
	return out
}

// inv is the inventory path the configuration tests render with.
const inv = "/lab/inventory.json"

// againstDefaults renders variant v and (a), the per-interface configuration, of one fabric
// from one inventory, parses both, and checks v's header (its first line holds header), its
// resources (types, in order) and that it holds (a)'s switch policy byte for byte.
func againstDefaults(t *testing.T, v Variant, header string, types ...string) (f Fabric, cfg string, vb, ab *hclsyntax.Body) {
	t.Helper()
	_, f = testFabric(t)
	cfg, a := Config(f, v, inv), Config(f, Defaults, inv)
	vb, ab = parseHCL(t, cfg), parseHCL(t, a)
	if first, _, _ := strings.Cut(cfg, "\n"); !strings.Contains(first, header) {
		t.Errorf("header: %s", first)
	}
	if got := resourceTypes(vb); !slices.Equal(got, types) {
		t.Fatalf("resources %v, want %v", got, types)
	}
	if !strings.Contains(cfg, qosPolicyResource) || !strings.Contains(a, qosPolicyResource) {
		t.Errorf("the switch policy differs between (a) and %s", v.Label())
	}
	return f, cfg, vb, ab
}

// The map-keyed configuration (e) declares a resource per device whose `interfaces` map,
// keyed by every port (NIC) of the device, holds exactly the arguments the per-interface
// configuration (a) sets on that port's (NIC's) own resource.
func TestMapKeyedConfig(t *testing.T) {
	f, e, eb, ab := againstDefaults(t, Map, "variant (e) map-keyed, 10 resources.",
		"roce_qos_policy.leaf", "roce_pfc_interfaces.leaf", "roce_nic_qos_interfaces.host", "roce_dcqcn_interfaces.host")
	for _, typ := range MapResourceTypes {
		if !strings.Contains(e, `resource "`+typ+`"`) {
			t.Errorf("(e) does not use %s", typ)
		}
	}
	// The provider block is (a)'s: the same devices from the same inventory, default reads.
	if !strings.Contains(e, `devices = { for name, d in jsondecode(file("/lab/inventory.json")).devices : name => d if contains(local.devices, name) }`) ||
		strings.Contains(e, "per_resource_reads") {
		t.Error("(e)'s provider block differs from (a)'s")
	}

	el, al := locals(t, eb), locals(t, ab)
	wantSwitches := map[string][]string{"sonic-1": {"Ethernet0", "Ethernet4"}, "sonic-2": {"Ethernet0", "Ethernet4"}, "sonic-10": {"Ethernet0", "Ethernet4"}}
	wantHosts := map[string][]string{"mlx5-1": {"eth0", "eth1"}, "mlx5-2": {"eth0", "eth1"}}
	if got := stringMap(t, el.GetAttr("switches")); !maps.EqualFunc(got, wantSwitches, slices.Equal) {
		t.Errorf("local.switches %v", got)
	}
	if got := stringMap(t, el.GetAttr("hosts")); !maps.EqualFunc(got, wantHosts, slices.Equal) {
		t.Errorf("local.hosts %v", got)
	}
	if el.Type().HasAttribute("ports") || el.Type().HasAttribute("nics") {
		t.Error("(e) carries (a)'s per-interface locals")
	}

	for _, c := range []struct {
		typ, name    string // the map-keyed resource
		perInterface string // the per-interface resource it replaces
		forEach      string
		devices      map[string][]string
		deps         []string
	}{
		{"roce_pfc_interfaces", "leaf", "roce_pfc_interface.port", "switches", wantSwitches, []string{"roce_qos_policy.leaf"}},
		{"roce_nic_qos_interfaces", "host", "roce_nic_qos.nic", "hosts", wantHosts, nil},
		{"roce_dcqcn_interfaces", "host", "roce_dcqcn_profile.nic", "hosts", wantHosts, nil},
	} {
		mb := block(t, eb, "resource", c.typ, c.name)
		pt, pn, _ := strings.Cut(c.perInterface, ".")
		pb := block(t, ab, "resource", pt, pn)
		if got := evalExpr(t, mb.Body.Attributes["for_each"].Expr, eachCtx(el, "", cty.NilVal)); !got.RawEquals(el.GetAttr(c.forEach)) {
			t.Errorf("%s: for_each is not local.%s", c.typ, c.forEach)
		}
		if got := dependsOn(t, mb); !slices.Equal(got, c.deps) || !slices.Equal(dependsOn(t, pb), c.deps) {
			t.Errorf("%s: depends_on %v, want %v as %s", c.typ, got, c.deps, c.perInterface)
		}
		for device, ifaces := range c.devices {
			ctx := eachCtx(el, device, el.GetAttr(c.forEach).GetAttr(device))
			if got := evalExpr(t, mb.Body.Attributes["device"].Expr, ctx); got.AsString() != device {
				t.Errorf("%s[%s]: device %s", c.typ, device, got.AsString())
			}
			if len(mb.Body.Attributes) != 3+len(c.deps) {
				t.Errorf("%s: arguments beyond for_each, device, interfaces and depends_on", c.typ)
			}
			m := evalExpr(t, mb.Body.Attributes["interfaces"].Expr, ctx)
			if got := slices.Sorted(maps.Keys(m.AsValueMap())); !slices.Equal(got, slices.Sorted(slices.Values(ifaces))) {
				t.Errorf("%s[%s]: interfaces keyed %v, want %v", c.typ, device, got, ifaces)
			}
			for _, iface := range ifaces {
				key := device + "/" + iface
				per := settings(t, pb, eachCtx(al, key, cty.ObjectVal(map[string]cty.Value{
					"device": cty.StringVal(device), "interface": cty.StringVal(iface)})))
				if got := m.GetAttr(iface); !got.RawEquals(per) {
					t.Errorf("%s[%s].interfaces[%s] = %#v\nwant %s's arguments %#v", c.typ, device, iface, got, c.perInterface, per)
				}
			}
		}
	}

	// (f) is (e)'s configuration (the no-op provider serves it through the CLI configuration).
	if fcfg := Config(f, MapNoop, inv); strings.Replace(fcfg, MapNoop.Label(), Map.Label(), 1) != e {
		t.Error("(f) must be (e)'s configuration")
	}
}

// The map-keyed floor (g) has (e)'s instances as terraform_data, each holding its device's
// map, with (e)'s dependency; it needs no provider.
func TestMapKeyedFloorConfig(t *testing.T) {
	_, f := testFabric(t)
	g := Config(f, MapFloor, "/lab/inventory.json")
	gb := parseHCL(t, g)
	if got, want := resourceTypes(gb), []string{"terraform_data.leaf", "terraform_data.pfc", "terraform_data.nic", "terraform_data.dcqcn"}; !slices.Equal(got, want) {
		t.Fatalf("resources %v, want %v", got, want)
	}
	if strings.Contains(g, `provider "roce"`) || strings.Contains(g, "required_providers") {
		t.Error("(g) configures the roce provider")
	}
	l := locals(t, gb)
	for name, forEach := range map[string]string{"leaf": "switches", "pfc": "switches", "nic": "hosts", "dcqcn": "hosts"} {
		b := block(t, gb, "resource", "terraform_data", name)
		if got := evalExpr(t, b.Body.Attributes["for_each"].Expr, eachCtx(l, "", cty.NilVal)); !got.RawEquals(l.GetAttr(forEach)) {
			t.Errorf("%s: for_each is not local.%s", name, forEach)
		}
		if name == "leaf" {
			continue
		}
		device := map[string]string{"switches": "sonic-10", "hosts": "mlx5-2"}[forEach]
		in := evalExpr(t, b.Body.Attributes["input"].Expr, eachCtx(l, device, l.GetAttr(forEach).GetAttr(device)))
		if in.GetAttr("device").AsString() != device {
			t.Errorf("%s: input.device %v", name, in.GetAttr("device"))
		}
		var keys []string
		for k := range in.GetAttr("interfaces").AsValueMap() {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		want := map[string][]string{"switches": {"Ethernet0", "Ethernet4"}, "hosts": {"eth0", "eth1"}}[forEach]
		if !slices.Equal(keys, want) {
			t.Errorf("%s[%s]: input.interfaces keyed %v, want %v", name, device, keys, want)
		}
	}
	if got := dependsOn(t, block(t, gb, "resource", "terraform_data", "pfc")); !slices.Equal(got, []string{"terraform_data.leaf"}) {
		t.Errorf("(g) pfc depends on %v", got)
	}
}

// The grouped configuration (h) declares a resource per device whose `interfaces` are every
// port (NIC) of the device and whose other arguments are exactly those the per-interface
// configuration (a) sets on each port's (NIC's) own resource.
func TestGroupedConfig(t *testing.T) {
	f, h, hb, ab := againstDefaults(t, Group, "variant (h) grouped, 10 resources.",
		"roce_qos_policy.leaf", "roce_pfc_interface_group.leaf", "roce_nic_qos_group.host", "roce_dcqcn_group.host")
	hl, al := locals(t, hb), locals(t, ab)
	for _, c := range []struct {
		typ, name, perInterface, forEach string
		deps                             []string
	}{
		{"roce_pfc_interface_group", "leaf", "roce_pfc_interface.port", "switches", []string{"roce_qos_policy.leaf"}},
		{"roce_nic_qos_group", "host", "roce_nic_qos.nic", "hosts", nil},
		{"roce_dcqcn_group", "host", "roce_dcqcn_profile.nic", "hosts", nil},
	} {
		gb := block(t, hb, "resource", c.typ, c.name)
		pt, pn, _ := strings.Cut(c.perInterface, ".")
		pb := block(t, ab, "resource", pt, pn)
		if got := dependsOn(t, gb); !slices.Equal(got, c.deps) {
			t.Errorf("%s: depends_on %v, want %v", c.typ, got, c.deps)
		}
		for device, ifaces := range stringMap(t, hl.GetAttr(c.forEach)) {
			ctx := eachCtx(hl, device, hl.GetAttr(c.forEach).GetAttr(device))
			if got := evalExpr(t, gb.Body.Attributes["device"].Expr, ctx); got.AsString() != device {
				t.Errorf("%s[%s]: device %s", c.typ, device, got.AsString())
			}
			var members []string
			for _, v := range evalExpr(t, gb.Body.Attributes["interfaces"].Expr, ctx).AsValueSlice() {
				members = append(members, v.AsString())
			}
			if !slices.Equal(members, ifaces) || len(members) == 0 {
				t.Errorf("%s[%s]: interfaces %v, want %v", c.typ, device, members, ifaces)
			}
			group := settings(t, gb, ctx).AsValueMap()
			delete(group, "interfaces")
			for _, iface := range ifaces {
				per := settings(t, pb, eachCtx(al, device+"/"+iface, cty.ObjectVal(map[string]cty.Value{
					"device": cty.StringVal(device), "interface": cty.StringVal(iface)})))
				if !cty.ObjectVal(group).RawEquals(per) {
					t.Errorf("%s[%s] sets %#v\nwant %s's arguments of %s %#v", c.typ, device, group, c.perInterface, iface, per)
				}
			}
		}
	}
	if icfg := Config(f, GroupNoop, inv); strings.Replace(icfg, GroupNoop.Label(), Group.Label(), 1) != h {
		t.Error("(i) must be (h)'s configuration")
	}
	j := parseHCL(t, Config(f, GroupFloor, inv))
	if got, want := resourceTypes(j), []string{"terraform_data.leaf", "terraform_data.pfc", "terraform_data.nic", "terraform_data.dcqcn"}; !slices.Equal(got, want) {
		t.Fatalf("(j) resources %v, want %v", got, want)
	}
	jl := locals(t, j)
	in := evalExpr(t, block(t, j, "resource", "terraform_data", "pfc").Body.Attributes["input"].Expr,
		eachCtx(jl, "sonic-10", jl.GetAttr("switches").GetAttr("sonic-10")))
	if got := in.GetAttr("interfaces").LengthInt(); got != 2 || in.GetAttr("detection_time_ms").RawEquals(cty.NilVal) {
		t.Errorf("(j) pfc[sonic-10] holds %#v, want its 2 ports and the settings once", in)
	}
}
