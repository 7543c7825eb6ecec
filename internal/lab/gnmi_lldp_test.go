package lab

import (
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// An openconfig switch serves its configured hostname and openconfig-lldp neighbours as state,
// and a recabled port shows its new neighbour and the old one no more.
func TestOpenConfigLLDP(t *testing.T) {
	l := startLab(t, Options{Switches: map[string]int{"openconfig": 2}, Ports: 2})
	c := labtest.Dial(t, entry(t, l, "openconfig-1"))
	labtest.JSONEqual(t, labtest.MustGetTyped(t, c, gpb.GetRequest_CONFIG, "/system/config/hostname"), `"openconfig-1"`)
	// The default cabling chains the two switches on their last ports.
	const eth2 = "/lldp/interfaces/interface[name=Ethernet2]/neighbors"
	old := cabling.MACColons(cabling.MAC("openconfig-2", 0))
	labtest.JSONEqual(t, labtest.MustGetTyped(t, c, gpb.GetRequest_STATE, eth2), `{"openconfig-lldp:neighbor": [{"id": "`+old+`", "state": {
	  "chassis-id": "`+old+`", "chassis-id-type": "MAC_ADDRESS", "port-id": "Ethernet2", "port-id-type": "INTERFACE_NAME",
	  "system-name": "openconfig-2"}}]}`)
	if err := l.Recable("openconfig-1", "Ethernet2", "openconfig-2", "Ethernet1"); err != nil {
		t.Fatal(err)
	}
	got := labtest.MustGetTyped(t, c, gpb.GetRequest_STATE, eth2)
	if !strings.Contains(got, `"port-id":"Ethernet1"`) || strings.Count(got, `"id":`) != 1 {
		t.Errorf("after recabling Ethernet2 to openconfig-2 Ethernet1: %s", got)
	}
	if err := l.Recable("openconfig-2", "Ethernet1", "openconfig-2", "Ethernet2"); err != nil {
		t.Fatal(err)
	}
	if _, err := labtest.GetTyped(t, c, gpb.GetRequest_STATE, eth2); err == nil {
		t.Error("an unplugged port still lists a neighbour")
	}
}
