package lab

import (
	"context"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// An openconfig switch serves openconfig-lldp neighbours and its hostname as state, and a
// recabled port shows its new neighbour and the old one no more.
func TestOpenConfigLLDP(t *testing.T) {
	l, err := Start(context.Background(), Options{Switches: map[string]int{"openconfig": 2}, Ports: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Stop)
	c := dial(t, entry(t, l, "openconfig-1"))
	jsonEqual(t, mustGetTyped(t, c, gpb.GetRequest_STATE, "/system/state/hostname"), `"openconfig-1"`)
	jsonEqual(t, mustGetTyped(t, c, gpb.GetRequest_STATE, "/lldp/interfaces/interface[name=Ethernet2]/neighbors"), `{}`)
}
