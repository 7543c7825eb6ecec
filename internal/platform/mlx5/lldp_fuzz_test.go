package mlx5

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseLLDP feeds ParseLLDP lldpcli's json0 captures under testdata/lldp, wrapped as the
// script prints them, and their mutations (neighbours' text comes from the network). It must
// not panic, and every neighbour has the local interface it was heard on.
func FuzzParseLLDP(f *testing.F) {
	chassis, _ := os.ReadFile("testdata/lldp/lldpd_json0_show_chassis.txt")
	files, _ := filepath.Glob("testdata/lldp/lldpd_json0_*neighbor*")
	for _, name := range files {
		b, err := os.ReadFile(name) //nolint:gosec // the test's own testdata
		if err != nil {
			f.Fatal(err)
		}
		_, c, _ := strings.Cut(string(chassis), "\n")
		_, n, _ := strings.Cut(string(b), "\n")
		f.Add(strings.Join([]string{markLLDPChassis, c, markLLDPNeighbors, n, markEnd}, "\n"))
	}
	f.Fuzz(func(t *testing.T, out string) {
		_, ns, err := ParseLLDP([]byte(out))
		if err != nil {
			return
		}
		for _, n := range ns {
			if n.Interface == "" {
				t.Errorf("a neighbour without its local interface: %+v", n)
			}
		}
	})
}
