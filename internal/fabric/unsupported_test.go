package fabric

import (
	"slices"
	"testing"
)

func TestComparePortsAndAttrString(t *testing.T) {
	got := SortedPorts([]string{"Ethernet10", "Ethernet2", "Ethernet1/10", "Ethernet1/2", "Ethernet2", "Port-Channel1"})
	if want := []string{"Ethernet1/2", "Ethernet1/10", "Ethernet2", "Ethernet10", "Port-Channel1"}; !slices.Equal(got, want) {
		t.Errorf("SortedPorts = %v, want %v", got, want)
	}
	if s := AttrString([]string{"classes", "roce", "ecn", "min_threshold_bytes"}); s != `classes["roce"].ecn.min_threshold_bytes` {
		t.Errorf("AttrString = %s", s)
	}
	u := []Unsupported{{Attr: []string{"trust"}}, {Attr: []string{"classes", "roce", "mtu"}}, {Attr: []string{"classes", "cnp", "mtu"}}}
	SortUnsupported(u)
	if u[0].Attr[1] != "cnp" || u[2].Attr[0] != "trust" {
		t.Errorf("SortUnsupported = %v", u)
	}
}
