package openconfig

import (
	"slices"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// The interface entry is a real Get of openconfig-lldp from a SONiC 202405 switch (mgmt-framework
// translib), as published in Alexei Kiritchenko's "SONiC gNMI" (2025-06-27): a list entry answered
// at the interface's path, module-qualified.
func TestParseLLDP(t *testing.T) {
	ifPath := &gpb.Path{Elem: []*gpb.PathElem{el("lldp"), el("interfaces"), keyed("interface", "name", "Ethernet8")}}
	body := `{"openconfig-lldp:interface": [{"name": "Ethernet8", "neighbors": {"neighbor": [{"id": "Ethernet8", "state": {
	"chassis-id": "90:eb:50:a3:4b:68", "chassis-id-type": "MAC_ADDRESS", "id": "3", "management-address": "1.18.1.4,fd00::1",
	"port-description": "Ethernet16", "port-id": "etp2", "port-id-type": "LOCAL", "system-name": "c4"}}]}}]}`
	host := &gpb.Path{Elem: HostnamePath().GetElem()}
	name, got, err := ParseLLDP([]Update{{Path: ifPath, JSON: []byte(body)}, {Path: host, JSON: []byte(`"leaf-7"`)}})
	want := []fabric.Neighbor{{Interface: "Ethernet8", SystemName: "c4", ChassisID: "90:eb:50:a3:4b:68", PortID: "etp2", PortDescription: "Ethernet16"}}
	if err != nil || name != "leaf-7" || !slices.Equal(got, want) {
		t.Errorf("got %q %+v %v\nwant %+v", name, got, err, want)
	}
	if _, _, err := ParseLLDP([]Update{{Path: host, JSON: []byte(`{`)}}); err == nil {
		t.Error("broken JSON taken")
	}
}
