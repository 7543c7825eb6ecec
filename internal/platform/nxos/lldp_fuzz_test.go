package nxos

import (
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// FuzzParseLLDP feeds ParseLLDP the captures under testdata/lldp and their mutations: what a
// neighbour advertises comes from the network. It must not panic, and every field it reports
// is text of the output (trimmed), with `null` never a value.
func FuzzParseLLDP(f *testing.F) {
	for _, text := range platformtest.Files(f, "testdata/lldp/*show_lldp*") {
		f.Add(text, "n9k1\n")
	}
	f.Add("Capability codes:\nPort id: x\n", "n9k1")
	f.Fuzz(func(t *testing.T, text, host string) {
		got, err := ParseLLDP(text, host)
		if err != nil {
			return
		}
		name := got.Hostname
		if name == "" || !strings.Contains(host, name) {
			t.Errorf("hostname %q is not the output's %q", name, host)
		}
		for _, n := range got.Neighbors {
			for _, v := range []string{n.ChassisID, n.PortID, n.PortDescription, n.SystemName} {
				if v == "null" || !strings.Contains(text, v) {
					t.Errorf("neighbour field %q is not text of the output: %+v", v, n)
				}
			}
			if n.Interface == "" {
				t.Errorf("a neighbour without its local port: %+v", n)
			}
		}
	})
}
