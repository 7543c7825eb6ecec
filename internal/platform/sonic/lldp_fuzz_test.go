package sonic

import "testing"

// FuzzParseLLDPTable feeds ParseLLDPTable LLDP_ENTRY_TABLE bodies and their mutations (the
// neighbours' text comes from the network through lldp_syncd). It must not panic, and every
// neighbour is keyed by its port.
func FuzzParseLLDPTable(f *testing.F) {
	f.Add(`{"Ethernet0":{"lldp_rem_port_id_subtype":"5","lldp_rem_port_id":"Ethernet1","lldp_rem_port_desc":"d",` +
		`"lldp_rem_chassis_id_subtype":"4","lldp_rem_chassis_id":"00:11:22:33:44:55","lldp_rem_sys_name":"switch13"}}`)
	f.Add(`{"eth0":{"lldp_rem_sys_name":7}}`)
	f.Fuzz(func(t *testing.T, body string) {
		ns, err := ParseLLDPTable([]byte(body))
		if err != nil {
			return
		}
		for _, n := range ns {
			if n.Interface == "" {
				t.Errorf("a neighbour without its port: %+v", n)
			}
		}
	})
}
