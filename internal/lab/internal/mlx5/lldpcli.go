package mlx5

// lldpd's client on a lab host (cabling.md, "How each device prints what it hears", mlx5
// hosts): `lldpcli -f json0 show chassis` and `lldpcli -f json0 show neighbors`, in the layout
// of lldpcli 1.0.16 (Debian bookworm's lldpd 1.0.16-1+deb12u1), captured on two network
// namespaces joined by a veth pair (the provider's internal/platform/mlx5/testdata/lldp holds
// those captures): json0 gives every element as a list and every value as [{"value": ...}],
// indented by two spaces. What a host hears is its cables' far ends (cabling.go).

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sh"
)

type lldpValue struct {
	Type  string `json:"type,omitempty"`
	Value string `json:"value"`
}

type lldpCapability struct {
	Type    string `json:"type"`
	Enabled bool   `json:"enabled"`
}

type lldpChassisJSON0 struct {
	ID         []lldpValue      `json:"id"`
	Name       []lldpValue      `json:"name,omitempty"`
	Descr      []lldpValue      `json:"descr,omitempty"`
	Capability []lldpCapability `json:"capability,omitempty"`
}

type lldpPortJSON0 struct {
	ID    []lldpValue `json:"id"`
	Descr []lldpValue `json:"descr,omitempty"`
	TTL   []lldpValue `json:"ttl"`
}

type lldpInterfaceJSON0 struct {
	Name    string             `json:"name"`
	Via     string             `json:"via"`
	RID     string             `json:"rid"`
	Age     string             `json:"age"`
	Chassis []lldpChassisJSON0 `json:"chassis"`
	Port    []lldpPortJSON0    `json:"port"`
}

// stationCaps are the capabilities lldpd advertises for a Linux host that neither bridges nor
// routes (the captures' "Station" enabled).
var stationCaps = []lldpCapability{{"Bridge", false}, {"Router", false}, {"Wlan", false}, {"Station", true}}

func (h *Host) cmdLLDPCli(e *sh.Env, args []string) int {
	format := "plain"
	var words []string
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-f" && i+1 < len(args):
			i++
			format = args[i]
		default:
			words = append(words, a)
		}
	}
	if format != "json0" {
		// assumed: the lab prints only the json0 format the provider reads.
		fmt.Fprintf(e.Stderr, "lldpcli: the lab simulates only -f json0 (asked %s)\n", format)
		return 1
	}
	var doc any
	switch {
	case slices.Equal(words, []string{"show", "chassis"}):
		doc = map[string]any{"local-chassis": []any{map[string]any{"chassis": []lldpChassisJSON0{{
			ID:   []lldpValue{{Type: "mac", Value: cabling.MACColons(cabling.MAC(h.name, 0))}},
			Name: []lldpValue{{Value: h.name}}, Capability: stationCaps,
		}}}}}
	case slices.Equal(words, []string{"show", "neighbors"}):
		heard := h.wires.Heard(h.name)
		ifaces := []lldpInterfaceJSON0{}
		for i, ifname := range h.Interfaces() {
			ad, ok := heard[ifname]
			if !ok {
				continue
			}
			portType := ad.PortIDType
			ch := lldpChassisJSON0{ID: []lldpValue{{Type: "mac", Value: cabling.MACColons(ad.ChassisMAC)}},
				Name: []lldpValue{{Value: ad.SystemName}}, Capability: []lldpCapability{{"Bridge", true}, {"Router", true}}}
			port := lldpPortJSON0{ID: []lldpValue{{Type: portType, Value: ad.PortID}}, TTL: []lldpValue{{Value: "120"}}}
			if ad.PortDescr != "" {
				port.Descr = []lldpValue{{Value: ad.PortDescr}}
			}
			ifaces = append(ifaces, lldpInterfaceJSON0{Name: ifname, Via: "LLDP", RID: strconv.Itoa(i + 1),
				Age: "0 day, 00:10:00", Chassis: []lldpChassisJSON0{ch}, Port: []lldpPortJSON0{port}})
		}
		entry := map[string]any{}
		if len(ifaces) > 0 {
			entry["interface"] = ifaces
		}
		doc = map[string]any{"lldp": []any{entry}}
	default:
		// assumed: the lab answers only the two reads above.
		fmt.Fprintf(e.Stderr, "lldpcli: the lab simulates only show chassis and show neighbors\n")
		return 1
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		fmt.Fprintln(e.Stderr, err)
		return 1
	}
	_, _ = e.Stdout.Write(append(b, '\n'))
	return 0
}
