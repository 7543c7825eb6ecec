package sonic

// APPL_DB's LLDP_ENTRY_TABLE on the `sonic` switch (sonic-switch.md, "LLDP"), as
// sonic-dbsyncd's lldp_syncd (src/lldp_syncd/daemon.py, b0ea01fb) writes it from lldpd: one key
// per port with a neighbour (only the last neighbour of a port is kept), every value a string,
// subtypes as LLDP-MIB numbers (conventions.py: chassis macAddress 4; port interfaceAlias 1,
// macAddress 3, interfaceName 5, local 7), MACs as lldpd prints them. sonic-gnmi reads it with
// APPL_DB's `:` separator as elements LLDP_ENTRY_TABLE/<port> (sonic_data_client/db_client.go).

import (
	"strconv"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
)

var sonicPortIDSubtype = map[string]string{"ifname": "5", "local": "7", "mac": "3"}

// applDB is the part of APPL_DB the lab serves: LLDP_ENTRY_TABLE (absent when no port hears a
// neighbour, as a table with no keys is in redis).
func (sw *Switch) applDB() configDB {
	heard := sw.wires.Heard(sw.Name())
	entries := map[string]map[string]string{}
	for i, port := range sw.ports {
		ad, ok := heard[port]
		if !ok {
			continue
		}
		portID := ad.PortID
		entries[port] = map[string]string{
			"lldp_rem_port_id_subtype":    sonicPortIDSubtype[ad.PortIDType],
			"lldp_rem_port_id":            portID,
			"lldp_rem_port_desc":          ad.PortDescr,
			"lldp_rem_chassis_id_subtype": "4",
			"lldp_rem_chassis_id":         cabling.MACColons(ad.ChassisMAC),
			"lldp_rem_sys_name":           ad.SystemName,
			"lldp_rem_sys_desc":           "",
			"lldp_rem_man_addr":           "",
			"lldp_rem_time_mark":          "72969",
			"lldp_rem_index":              strconv.Itoa(i + 1),
			"lldp_rem_sys_cap_supported":  "28 00",
			"lldp_rem_sys_cap_enabled":    "28 00",
		}
	}
	if len(entries) == 0 {
		return configDB{}
	}
	return configDB{"LLDP_ENTRY_TABLE": entries}
}
