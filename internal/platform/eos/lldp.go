package eos

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// LLDP on EOS: `show lldp neighbors detail | json` and `show hostname | json` (eAPI layouts of
// napalm's EOS fixtures in testdata/lldp). Every LLDP interface is a key of lldpNeighbors, with an
// empty list where nothing is heard. EOS prints an interface-name or local port ID in literal
// double quotes in interfaceId ("\"Ethernet51\""); 4.28 and later add interfaceId_v2 without them.

// LLDPCommands are the reads, in the order ParseLLDP takes their outputs.
var LLDPCommands = []string{"show lldp neighbors detail | json", "show hostname | json"}

// ParseLLDP parses the outputs of LLDPCommands: the switch's hostname, its LLDP interfaces
// (sorted) and their neighbours.
func ParseLLDP(neighborsJSON, hostnameJSON string) (fabric.DeviceNeighbors, error) {
	var host struct {
		Hostname string `json:"hostname"`
	}
	if err := json.Unmarshal([]byte(hostnameJSON), &host); err != nil {
		return fabric.DeviceNeighbors{}, fmt.Errorf("show hostname | json: %w", err)
	}
	var doc struct {
		LLDPNeighbors map[string]struct {
			Info []struct {
				ChassisID  string `json:"chassisId"`
				SystemName string `json:"systemName"`
				Interface  struct {
					ID          string `json:"interfaceId"`
					IDV2        string `json:"interfaceId_v2"`
					Description string `json:"interfaceDescription"`
				} `json:"neighborInterfaceInfo"`
			} `json:"lldpNeighborInfo"`
		} `json:"lldpNeighbors"`
	}
	if err := json.Unmarshal([]byte(neighborsJSON), &doc); err != nil {
		return fabric.DeviceNeighbors{}, fmt.Errorf("show lldp neighbors detail | json: %w", err)
	}
	if doc.LLDPNeighbors == nil {
		return fabric.DeviceNeighbors{}, fmt.Errorf("show lldp neighbors detail | json: no lldpNeighbors member")
	}
	out := fabric.DeviceNeighbors{Hostname: host.Hostname}
	for ifname, e := range doc.LLDPNeighbors {
		out.Interfaces = append(out.Interfaces, ifname)
		for _, n := range e.Info {
			port := n.Interface.IDV2
			if port == "" {
				port = strings.Trim(n.Interface.ID, `"`)
			}
			out.Neighbors = append(out.Neighbors, fabric.Neighbor{Interface: ifname, SystemName: n.SystemName, ChassisID: n.ChassisID,
				PortID: port, PortDescription: n.Interface.Description})
		}
	}
	slices.SortFunc(out.Interfaces, fabric.ComparePorts)
	fabric.SortNeighbors(out.Neighbors)
	return out, nil
}
