package mlx5

import (
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// FuzzParseLLDP feeds ParseLLDP lldpcli's json0 captures under testdata/lldp, wrapped as the
// script prints them, and their mutations (neighbours' text comes from the network). It must
// not panic, and every neighbour has the local interface it was heard on.
func FuzzParseLLDP(f *testing.F) {
	c := platformtest.Captures(f, "testdata/lldp/lldpd_json0_show_chassis.txt")[0]
	for _, n := range platformtest.Captures(f, "testdata/lldp/lldpd_json0_*neighbor*") {
		f.Add(strings.Join([]string{markLLDPChassis, c, markLLDPNeighbors, n, markEnd}, "\n"))
	}
	f.Fuzz(func(t *testing.T, out string) {
		got, err := ParseLLDP([]byte(out))
		if err != nil {
			return
		}
		for _, n := range got.Neighbors {
			if n.Interface == "" {
				t.Errorf("a neighbour without its local interface: %+v", n)
			}
		}
	})
}
