package eos

import (
	"slices"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// FuzzParseLLDP feeds ParseLLDP the eAPI captures under testdata/lldp and their mutations (a
// neighbour's advertised text comes from the network). It must not panic; interfaces come
// sorted and unique, and each neighbour is heard on one of them.
func FuzzParseLLDP(f *testing.F) {
	for _, body := range platformtest.Captures(f, "testdata/lldp/eos_show_lldp*") {
		f.Add(body, `{"hostname": "leaf1", "fqdn": "leaf1.example.net"}`)
	}
	f.Fuzz(func(t *testing.T, neighbors, host string) {
		got, err := ParseLLDP(neighbors, host)
		if err != nil {
			return
		}
		ifaces := got.Interfaces
		if !slices.IsSortedFunc(ifaces, fabric.ComparePorts) || len(slices.Compact(slices.Clone(ifaces))) != len(ifaces) {
			t.Errorf("interfaces %q", ifaces)
		}
		for _, n := range got.Neighbors {
			if !slices.Contains(ifaces, n.Interface) {
				t.Errorf("neighbour on %q, which is no interface of %q", n.Interface, ifaces)
			}
		}
	})
}
