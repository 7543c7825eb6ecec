package eos

// `show lldp neighbors detail` on the `eos` switch (eos-switch.md, "LLDP"): its eAPI JSON as
// EOS 4.28+ prints it (lldpNeighbors keyed by every LLDP interface, an empty list where nothing
// is heard; interfaceId quoted for interface-name and local port IDs, interfaceId_v2 clean; MACs
// dotted), from napalm's EOS fixtures and a modern EOS capture; the text form's lines are EOS's
// as far as a capture shows them (`Port ID     : "Ethernet48"`, `Port ID type: Interface name
// (5)`), the rest of its layout assumed.

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

type eosLLDPNeighbor struct {
	ChassisIDType         string           `json:"chassisIdType"`
	ChassisID             string           `json:"chassisId"`
	SystemName            string           `json:"systemName"`
	TTL                   int              `json:"ttl"`
	NeighborInterfaceInfo eosLLDPInterface `json:"neighborInterfaceInfo"`
}

type eosLLDPInterface struct {
	InterfaceIDType      string `json:"interfaceIdType"`
	InterfaceID          string `json:"interfaceId"`
	InterfaceIDV2        string `json:"interfaceId_v2"`
	InterfaceDescription string `json:"interfaceDescription"`
}

// eosPortIDType names lldpd's port ID subtypes as EOS's JSON does.
var eosPortIDType = map[string]string{"ifname": "interfaceName", "local": "local", "mac": "macAddress"}

func (sw *Switch) lldpNeighborsDetail() (text, jsonText string, err *cliswitch.Refusal) {
	heard := sw.Wires.Heard(sw.Name())
	type entry struct {
		Info []eosLLDPNeighbor `json:"lldpNeighborInfo"`
	}
	all := map[string]entry{}
	var b strings.Builder
	for _, port := range sw.Interfaces() {
		ad, ok := heard[port]
		if !ok {
			all[port] = entry{Info: []eosLLDPNeighbor{}}
			continue
		}
		id, v2 := ad.PortID, ad.PortID
		if ad.PortIDType == "mac" {
			id, v2 = cabling.MACDotted(ad.PortMAC), cabling.MACDotted(ad.PortMAC)
		} else {
			id = `"` + id + `"` // EOS quotes interface-name and local port IDs
		}
		n := eosLLDPNeighbor{ChassisIDType: "macAddress", ChassisID: cabling.MACDotted(ad.ChassisMAC), SystemName: ad.SystemName, TTL: 120,
			NeighborInterfaceInfo: eosLLDPInterface{InterfaceIDType: eosPortIDType[ad.PortIDType], InterfaceID: id,
				InterfaceIDV2: v2, InterfaceDescription: ad.PortDescr}}
		all[port] = entry{Info: []eosLLDPNeighbor{n}}
		fmt.Fprintf(&b, "Interface %s detected 1 LLDP neighbors:\n\n  Neighbor %s/%s, age 3 seconds\n", port, n.ChassisID, id)
		fmt.Fprintf(&b, "  - Chassis ID type: MAC address (4)\n    Chassis ID     : %s\n", n.ChassisID)
		fmt.Fprintf(&b, "  - Port ID type: %s\n    Port ID     : %s\n", map[string]string{"ifname": "Interface name (5)",
			"local": "Locally assigned (7)", "mac": "MAC address (3)"}[ad.PortIDType], id)
		fmt.Fprintf(&b, "  - Time To Live: 120 seconds\n  - Port Description: %q\n  - System Name: %q\n\n", ad.PortDescr, ad.SystemName)
	}
	body, e := json.MarshalIndent(map[string]any{"lldpNeighbors": all}, "", "    ")
	if e != nil {
		return "", "", &cliswitch.Refusal{Msg: e.Error()}
	}
	return b.String(), string(body) + "\n", nil
}
