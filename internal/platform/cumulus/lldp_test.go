package cumulus

import (
	"reflect"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/golden"
)

func TestParseLLDP(t *testing.T) {
	got, err := ParseLLDP([]byte(golden.Capture(t, "testdata/interface-lldp-nvidia-fixture.json.txt")),
		[]byte(golden.Capture(t, "testdata/system-api-doc.json.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := fabric.DeviceNeighbors{Hostname: "switch01", Interfaces: []string{"swp1"}, Neighbors: []fabric.Neighbor{{
		Interface: "eth0", SystemName: "rno1-m04-C10-leaf1.smn.lab1", ChassisID: "fc:59:c0:3d:4c:cb", PortID: "Ethernet2"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	// A neighbour without a system name is known by NVUE's key.
	got, err = ParseLLDP([]byte(`{"swp2": {"type": "swp", "lldp": {"neighbor": {"gpu-1": {"port": {"name": "eth0"}}}}}}`), nil)
	if err != nil || len(got.Neighbors) != 1 || got.Neighbors[0].SystemName != "gpu-1" || got.Hostname != "" {
		t.Errorf("%+v %v", got, err)
	}
	if _, err := ParseLLDP([]byte(`[]`), nil); err == nil {
		t.Error("not an interface object")
	}
}
