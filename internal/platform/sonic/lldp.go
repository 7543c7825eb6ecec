package sonic

import (
	"encoding/json"
	"fmt"
	"slices"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// LLDP on SONiC: lldp_syncd (sonic-dbsyncd src/lldp_syncd/daemon.py) writes what lldpd hears
// to APPL_DB, one key per port (LLDP_ENTRY_TABLE:Ethernet0) of string fields lldp_rem_sys_name,
// lldp_rem_chassis_id, lldp_rem_port_id, lldp_rem_port_desc; sonic-gnmi reads it as
// APPL_DB/localhost/LLDP_ENTRY_TABLE, an object keyed by port (sonic_data_client/db_client.go).
// The switch's own name is CONFIG_DB DEVICE_METADATA|localhost hostname, which lldpd advertises
// (docker-lldp's lldpd.conf.j2: configure system hostname).

// LLDPPath is the Get of every port's LLDP neighbour.
func LLDPPath() *gpb.Path {
	return &gpb.Path{Origin: Origin, Elem: []*gpb.PathElem{{Name: "APPL_DB"}, {Name: namespace}, {Name: "LLDP_ENTRY_TABLE"}}}
}

// ParseLLDPTable parses LLDP_ENTRY_TABLE as sonic-gnmi answers it: {"<port>": {"lldp_rem_...": "..."}}.
func ParseLLDPTable(body []byte) ([]fabric.Neighbor, error) {
	var table map[string]map[string]any
	if err := json.Unmarshal(body, &table); err != nil {
		return nil, fmt.Errorf("sonic: APPL_DB LLDP_ENTRY_TABLE: %w", err)
	}
	var out []fabric.Neighbor
	for port, f := range table {
		if port == "" {
			continue // lldp_syncd keys every entry by its port
		}
		s := func(name string) string {
			v, _ := f[name].(string)
			return v
		}
		out = append(out, fabric.Neighbor{Interface: port, SystemName: s("lldp_rem_sys_name"), ChassisID: s("lldp_rem_chassis_id"),
			PortID: s("lldp_rem_port_id"), PortDescription: s("lldp_rem_port_desc")})
	}
	fabric.SortNeighbors(out)
	return out, nil
}

// Hostname is DEVICE_METADATA|localhost hostname, "" when unset.
func (db *DB) Hostname() string {
	v, _ := db.field("DEVICE_METADATA", "localhost", "hostname")
	return v
}

// Ports are the switch's ports (the PORT table's keys), sorted.
func (db *DB) Ports() []string {
	ports := db.keys(tPort)
	slices.SortFunc(ports, fabric.ComparePorts)
	return ports
}
