package cumulus

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// LLDP is read from two operational GETs: InterfacesPath (every interface, each with its lldp
// neighbours, as `nv show interface -o json` has them) and SystemPath (the hostname the switch
// advertises as its LLDP system name).
const (
	InterfacesPath = "/interface"
	SystemPath     = "/system"
)

// ParseLLDP reads the neighbours of every interface and the switch's hostname. NVUE keys a
// neighbour by its system name; an empty chassis system-name falls back to that key. The
// switch's interfaces are its swp ports.
func ParseLLDP(interfaces, system []byte) (fabric.DeviceNeighbors, error) {
	var ifs map[string]struct {
		Type string `json:"type"`
		LLDP *struct {
			Neighbor map[string]struct {
				Chassis struct {
					ChassisID  string `json:"chassis-id"`
					SystemName string `json:"system-name"`
				} `json:"chassis"`
				Port struct {
					Name        string `json:"name"`
					Description string `json:"description"`
				} `json:"port"`
			} `json:"neighbor"`
		} `json:"lldp"`
	}
	if err := json.Unmarshal(interfaces, &ifs); err != nil {
		return fabric.DeviceNeighbors{}, fmt.Errorf("NVUE interface: %w", err)
	}
	var sys struct {
		Hostname string `json:"hostname"`
	}
	if len(system) > 0 {
		if err := json.Unmarshal(system, &sys); err != nil {
			return fabric.DeviceNeighbors{}, fmt.Errorf("NVUE system: %w", err)
		}
	}
	out := fabric.DeviceNeighbors{Hostname: sys.Hostname}
	for _, name := range slices.Sorted(maps.Keys(ifs)) {
		i := ifs[name]
		if i.Type == "swp" {
			out.Interfaces = append(out.Interfaces, name)
		}
		if i.LLDP == nil {
			continue
		}
		for _, key := range slices.Sorted(maps.Keys(i.LLDP.Neighbor)) {
			n := i.LLDP.Neighbor[key]
			sysName := n.Chassis.SystemName
			if sysName == "" {
				sysName = key
			}
			out.Neighbors = append(out.Neighbors, fabric.Neighbor{Interface: name, SystemName: sysName,
				ChassisID: n.Chassis.ChassisID, PortID: n.Port.Name, PortDescription: n.Port.Description})
		}
	}
	out.Interfaces = fabric.SortedPorts(out.Interfaces)
	return out, nil
}
