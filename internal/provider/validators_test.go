package provider

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// protocolServer is the provider as Terraform talks to it.
func protocolServer(t *testing.T) tfprotov6.ProviderServer {
	t.Helper()
	srv, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// validated validates a configuration of resource or data source typeName as Terraform does,
// through the provider's protocol server (the schema validators, then ValidateConfig), and
// returns its errors as "path: summary".
func validated(t *testing.T, typeName string, attrs map[string]any) []string {
	t.Helper()
	ctx := context.Background()
	srv := protocolServer(t)
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		t.Fatalf("GetProviderSchema: %v %v", err, schemas.Diagnostics)
	}
	s, isResource := schemas.ResourceSchemas[typeName]
	if !isResource {
		s = schemas.DataSourceSchemas[typeName]
	}
	typ := s.ValueType()
	config, err := tfprotov6.NewDynamicValue(typ, tfValue(t, typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	var diags []*tfprotov6.Diagnostic
	if isResource {
		resp, err := srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: &config})
		if err != nil {
			t.Fatal(err)
		}
		diags = resp.Diagnostics
	} else {
		resp, err := srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: typeName, Config: &config})
		if err != nil {
			t.Fatal(err)
		}
		diags = resp.Diagnostics
	}
	var out []string
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			out = append(out, attrPath(d.Attribute)+": "+d.Summary)
		}
	}
	slices.Sort(out)
	return out
}

// attrPath renders a protocol attribute path as Terraform shows it: a.b["k"][0][Value(64)].
func attrPath(p *tftypes.AttributePath) string {
	if p == nil {
		return "<no path>"
	}
	var b strings.Builder
	for i, s := range p.Steps() {
		switch s := s.(type) {
		case tftypes.AttributeName:
			if i > 0 {
				b.WriteString(".")
			}
			b.WriteString(string(s))
		case tftypes.ElementKeyString:
			fmt.Fprintf(&b, "[%q]", string(s))
		case tftypes.ElementKeyInt:
			fmt.Fprintf(&b, "[%d]", int64(s))
		case tftypes.ElementKeyValue:
			var str string
			var num big.Float
			if tftypes.Value(s).As(&str) == nil {
				fmt.Fprintf(&b, "[Value(%q)]", str)
			} else if tftypes.Value(s).As(&num) == nil {
				fmt.Fprintf(&b, "[Value(%s)]", num.String())
			}
		}
	}
	return b.String()
}

func roceClass(extra map[string]any) map[string]any {
	c := map[string]any{"traffic_class": 3, "dscp": []any{26}, "bandwidth_percent": 100}
	for k, v := range extra {
		c[k] = v
	}
	return c
}

// Each mistake is reported once, on the attribute at fault: a value outside a field rule by
// the schema validator (an element of a set or a map key on that element or key), a broken
// relation by ValidateConfig, which skips values the validators refused.
func TestValidationReportsEachMistakeOnce(t *testing.T) {
	nic := func(extra map[string]any) map[string]any {
		m := map[string]any{"device": "host-1", "interface": "eth0"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name, typeName string
		attrs          map[string]any
		want           []string
	}{
		{"DSCP out of range", "roce_qos_policy", map[string]any{"device": "leaf-1",
			"classes": map[string]any{"a": roceClass(map[string]any{"dscp": []any{26, 64}})}},
			[]string{`classes["a"].dscp[Value(64)]: DSCP 64 out of range 0-63`}},
		{"traffic class out of range and another used twice", "roce_qos_policy", map[string]any{"device": "leaf-1",
			"classes": map[string]any{
				"a": roceClass(map[string]any{"bandwidth_percent": 50}),
				"b": roceClass(map[string]any{"traffic_class": 8, "dscp": []any{27}, "bandwidth_percent": 25}),
				"c": roceClass(map[string]any{"dscp": []any{28}, "bandwidth_percent": 25})}},
			[]string{`classes["b"].traffic_class: traffic_class 8 out of range 0-7`, `classes["c"].traffic_class: Traffic class 3 used by two classes`}},
		{"a share out of range is not also summed", "roce_qos_policy", map[string]any{"device": "leaf-1",
			"classes": map[string]any{"a": roceClass(map[string]any{"bandwidth_percent": 101})}},
			[]string{`classes["a"].bandwidth_percent: bandwidth_percent 101 out of range 1-100`}},
		{"trust, name, class name, port", "roce_qos_policy", map[string]any{"device": "leaf-1", "trust": "cos", "name": "RO CE;",
			"classes": map[string]any{"c|np": roceClass(nil)}, "interfaces": []any{"Ethernet1", "Ethernet1;reload"}},
			[]string{`classes["c|np"]: Class name has invalid characters`, `interfaces[Value("Ethernet1;reload")]: Invalid interface name "Ethernet1;reload"`,
				`name: Policy name has invalid characters`, `trust: Invalid trust "cos"`}},
		{"PFC mode and watchdog time", "roce_pfc_interface", map[string]any{"device": "leaf-1", "interface": "Ethernet1", "mode": "ON",
			"watchdog": map[string]any{"action": "drop", "detection_time_ms": 99}},
			[]string{`mode: Invalid PFC mode "ON"`, `watchdog.detection_time_ms: detection_time_ms 99 out of range 100-5000`}},
		{"xon not below xoff", "roce_pfc_interface", map[string]any{"device": "leaf-1", "interface": "Ethernet1",
			"buffer": map[string]any{"xoff_bytes": 1000, "xon_bytes": 1000}},
			[]string{`buffer.xon_bytes: xon_bytes 1000 is not below xoff_bytes 1000`}},
		{"NIC map key and value", "roce_nic_qos", nic(map[string]any{"dscp_to_priority": map[string]any{"064": 3, "26": 8}}),
			[]string{`dscp_to_priority["064"]: Invalid map key`, `dscp_to_priority["26"]: priority 8 out of range 0-7`}},
		// A map whose key is refused has its elements checked once the key is right: the
		// framework validates the nested attributes of a map only when the map passed.
		{"NIC ETS key", "roce_nic_qos", nic(map[string]any{"ets": map[string]any{
			"8": map[string]any{"strict_priority": true}, "3": map[string]any{"bandwidth_percent": 101}}}),
			[]string{`ets["8"]: Invalid map key`}},
		{"NIC ETS share", "roce_nic_qos", nic(map[string]any{"ets": map[string]any{
			"7": map[string]any{"strict_priority": true}, "3": map[string]any{"bandwidth_percent": 101}}}),
			[]string{`ets["3"].bandwidth_percent: bandwidth_percent 101 out of range 0-100`}},
		{"NIC netdev and persist", "roce_nic_qos", nic(map[string]any{"interface": "a-b", "trust": "dscp_pcp"}),
			[]string{`persist: persist is not supported for netdev "a-b"`, `trust: Invalid trust "dscp_pcp"`}},
		{"DCQCN parameter and CNP priority", "roce_dcqcn_profile", nic(map[string]any{"cnp_priority": -1,
			"reaction_point": map[string]any{"dce_tcp_g": 1024, "min_rate_mbps": 100, "max_rate_mbps": 10}}),
			[]string{`cnp_priority: cnp_priority -1 out of range 0-7`, `reaction_point.dce_tcp_g: dce_tcp_g 1024 out of range 0-1023`,
				`reaction_point.min_rate_mbps: min_rate_mbps 100 is above max_rate_mbps 10`}},
		// The map-keyed resources: each entry's fields by the entry's validators, the key by
		// the per-interface resource's interface rule, the relations by ValidateConfig.
		{"PFC map entry and key", "roce_pfc_interfaces", map[string]any{"device": "leaf-1", "interfaces": map[string]any{
			"Ethernet1": map[string]any{"mode": "ON"}, "Ethernet2;reload": map[string]any{"mode": "on"},
			"Ethernet3": map[string]any{"buffer": map[string]any{"xoff_bytes": 1000, "xon_bytes": 1000}}}},
			// Ethernet1's mode waits for the key to be right, as in "NIC ETS key" above
			[]string{`interfaces["Ethernet2;reload"]: Invalid interface name "Ethernet2;reload"`,
				`interfaces["Ethernet3"].buffer.xon_bytes: xon_bytes 1000 is not below xoff_bytes 1000`}},
		{"NIC QoS map entry", "roce_nic_qos_interfaces", map[string]any{"device": "host-1", "interfaces": map[string]any{
			"eth0": map[string]any{"trust": "dscp_pcp", "dscp_to_priority": map[string]any{"26": 8}}}},
			[]string{`interfaces["eth0"].dscp_to_priority["26"]: priority 8 out of range 0-7`, `interfaces["eth0"].trust: Invalid trust "dscp_pcp"`}},
		// roce_profile compares its inputs when it reads (cnp_priority equal to roce_priority).
		{"roce_profile inputs", "roce_profile", map[string]any{"workload": "hpc", "roce_dscp": 0, "roce_priority": 6},
			[]string{`roce_dscp: roce_dscp 0 out of range 1-63`, `workload: Invalid workload "hpc"`}},
		{"roce_fabric_check inputs", "roce_fabric_check", map[string]any{
			"switch_policies": []any{map[string]any{"device": "leaf-1", "classes": map[string]any{
				"a": roceClass(map[string]any{"dscp": []any{64}, "bandwidth_percent": 60})}}},
			"nic_qos": []any{nic(map[string]any{"dscp_to_priority": map[string]any{"064": 3}})},
			"pfc_interfaces": []any{map[string]any{"device": "leaf-1", "interface": "Ethernet1", "mode": "ON",
				"buffer": map[string]any{"xoff_bytes": 0, "xon_bytes": 10}}}},
			[]string{`nic_qos[0].dscp_to_priority["064"]: Invalid map key`,
				`pfc_interfaces[0].buffer.xoff_bytes: xoff_bytes 0 is below 1`, `pfc_interfaces[0].mode: Invalid PFC mode "ON"`,
				`switch_policies[0].classes["a"].dscp[Value(64)]: DSCP 64 out of range 0-63`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := validated(t, c.typeName, c.attrs)
			slices.Sort(c.want)
			if !slices.Equal(got, c.want) {
				t.Errorf("errors:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}
