package sonic

import (
	"slices"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// The entry is sonic-gnmi testdata/db_dump.json's LLDP_ENTRY_TABLE:eth0 (a real switch's APPL_DB,
// sonic-gnmi 5ec1c20b), and sonic-dbsyncd's mock LLDP_ENTRY_TABLE:Ethernet0, as sonic-gnmi serves
// the table: keyed by port.
func TestParseLLDPTable(t *testing.T) {
	body := `{"eth0":{"lldp_rem_time_mark":"72969","lldp_rem_sys_cap_enabled":"68 00","lldp_rem_chassis_id":"e4:f0:04:79:33:fe",
	"lldp_rem_port_id":"ethernet1/1/3","lldp_rem_sys_desc":"Dell EMC Networking OS10-Enterprise.","lldp_rem_man_addr":"",
	"lldp_rem_port_desc":"ethernet1/1/3","lldp_rem_sys_name":"swtor-b2lab2-1103","lldp_rem_sys_cap_supported":"68 00",
	"lldp_rem_index":"2","lldp_rem_port_id_subtype":"5","lldp_rem_chassis_id_subtype":"4"},
	"Ethernet0":{"lldp_rem_port_id_subtype":"5","lldp_rem_port_id":"Ethernet1","lldp_rem_port_desc":"this is a port description",
	"lldp_rem_chassis_id_subtype":"4","lldp_rem_chassis_id":"00:11:22:33:44:55","lldp_rem_sys_name":"switch13"}}`
	got, err := ParseLLDPTable([]byte(body))
	want := []fabric.Neighbor{
		{Interface: "Ethernet0", SystemName: "switch13", ChassisID: "00:11:22:33:44:55", PortID: "Ethernet1", PortDescription: "this is a port description"},
		{Interface: "eth0", SystemName: "swtor-b2lab2-1103", ChassisID: "e4:f0:04:79:33:fe", PortID: "ethernet1/1/3", PortDescription: "ethernet1/1/3"},
	}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %+v %v\nwant %+v", got, err, want)
	}
	if _, err := ParseLLDPTable([]byte(`"swtor"`)); err == nil {
		t.Error("a field's string value was taken as the table")
	}
}
