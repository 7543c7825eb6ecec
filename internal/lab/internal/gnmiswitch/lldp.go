package gnmiswitch

// LLDP on the `openconfig` switch (openconfig-switch.md, "LLDP"): openconfig-lldp's
// /lldp/interfaces/interface[name]/neighbors/neighbor[id]/state, written into lemming's state
// datastore before each read, as a device's LLDP agent would keep it (lemming v0.7.0 has the
// subtree in its schema but nothing that fills the neighbours). The switch's hostname is
// configured at start (/system/config/hostname, addInterfaces). Enum values are openconfig-lldp-types' typedef names
// (MAC_ADDRESS, INTERFACE_NAME, LOCAL), unprefixed in JSON_IETF; the neighbour id is the
// chassis ID, as SR Linux keys it (SONiC's translib keys it by port: implementations differ).

import (
	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
)

var ocPortIDType = map[string]string{"ifname": "INTERFACE_NAME", "local": "LOCAL", "mac": "MAC_ADDRESS"}

// lldpState adds to req what the switch hears: a neighbour written before and
// no longer heard (a port recabled or unplugged) is deleted. The caller holds sw.mu.
func (s *gnmiService) lldpState(req *gpb.SetRequest) {
	sw := s.sw
	heard := sw.wires.Heard(sw.name)
	str := func(parent []*gpb.PathElem, name, v string) *gpb.Update {
		elems := append(append([]*gpb.PathElem{}, parent...), &gpb.PathElem{Name: name})
		return &gpb.Update{Path: &gpb.Path{Elem: elems}, Val: &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: v}}}
	}
	for _, port := range sw.ports {
		ifc := []*gpb.PathElem{{Name: "lldp"}, {Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": port}}}
		neighbor := func(id string) []*gpb.PathElem {
			return append(append([]*gpb.PathElem{}, ifc...), &gpb.PathElem{Name: "neighbors"},
				&gpb.PathElem{Name: "neighbor", Key: map[string]string{"id": id}})
		}
		ad, ok := heard[port]
		id := ""
		if ok {
			id = cabling.MACColons(ad.ChassisMAC)
		}
		if old := sw.lldpIDs[port]; old != "" && old != id {
			req.Delete = append(req.Delete, &gpb.Path{Elem: neighbor(old)})
		}
		if sw.lldpIDs == nil {
			sw.lldpIDs = map[string]string{}
		}
		sw.lldpIDs[port] = id
		if !ok {
			continue
		}
		n := append(neighbor(id), &gpb.PathElem{Name: "state"})
		req.Update = append(req.Update,
			str(append(append([]*gpb.PathElem{}, ifc...), &gpb.PathElem{Name: "state"}), "name", port),
			str(n, "id", id), str(n, "chassis-id", id), str(n, "chassis-id-type", "MAC_ADDRESS"),
			str(n, "system-name", ad.SystemName), str(n, "port-id", ad.PortID), str(n, "port-id-type", ocPortIDType[ad.PortIDType]))
		if ad.PortDescr != "" {
			req.Update = append(req.Update, str(n, "port-description", ad.PortDescr))
		}
	}
}
