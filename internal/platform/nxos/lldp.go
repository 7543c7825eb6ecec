package nxos

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// LLDP on NX-OS: `show lldp neighbors detail` and `show hostname` as text, which every NX-OS
// release prints (genieparser's golden outputs and ntc-templates' raw captures in testdata/lldp):
// one block per neighbour from `Chassis id:` on, the local port short (Eth1/1), `null` or `not
// advertised` for a TLV the neighbour did not send.

// LLDPCommands are the reads, in the order ParseLLDP takes their outputs.
var LLDPCommands = []string{"show lldp neighbors detail", "show hostname"}

var reLLDPField = regexp.MustCompile(`^\s*(Chassis id|Port id|Local Port id|Port Description|System Name):\s*(.*?)\s*$`)

// ParseLLDP parses the outputs of LLDPCommands: the switch's hostname and its neighbours, with
// local ports in their full names (Ethernet1/1).
func ParseLLDP(neighborsText, hostnameText string) (fabric.DeviceNeighbors, error) {
	hostname := strings.TrimSpace(hostnameText)
	if hostname == "" || strings.ContainsAny(hostname, " \n") {
		return fabric.DeviceNeighbors{}, fmt.Errorf("show hostname printed %q, not a hostname", firstLine(hostnameText))
	}
	var neighbors []fabric.Neighbor
	var cur *fabric.Neighbor
	done := func() error {
		if cur == nil {
			return nil
		}
		if cur.Interface == "" {
			return fmt.Errorf("show lldp neighbors detail: the neighbour with chassis id %q has no Local Port id", cur.ChassisID)
		}
		neighbors = append(neighbors, *cur)
		return nil
	}
	sawHeader := false
	for _, line := range strings.Split(strings.ReplaceAll(neighborsText, "\r\n", "\n"), "\n") {
		if strings.Contains(line, "Capability codes:") || strings.Contains(line, "Total entries displayed:") {
			sawHeader = true
		}
		m := reLLDPField.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		v := m[2]
		if v == "null" || v == "not advertised" {
			v = ""
		}
		if m[1] == "Chassis id" {
			if err := done(); err != nil {
				return fabric.DeviceNeighbors{}, err
			}
			cur = &fabric.Neighbor{ChassisID: v}
			continue
		}
		if cur == nil {
			return fabric.DeviceNeighbors{}, fmt.Errorf("show lldp neighbors detail: %q before any Chassis id", strings.TrimSpace(line))
		}
		switch m[1] {
		case "Port id":
			cur.PortID = v
		case "Local Port id":
			cur.Interface = FullInterfaceName(v)
		case "Port Description":
			cur.PortDescription = v
		case "System Name":
			cur.SystemName = v
		}
	}
	if err := done(); err != nil {
		return fabric.DeviceNeighbors{}, err
	}
	if !sawHeader {
		return fabric.DeviceNeighbors{}, fmt.Errorf("show lldp neighbors detail printed no LLDP table: %q", firstLine(neighborsText))
	}
	return fabric.DeviceNeighbors{Hostname: hostname, Neighbors: neighbors}, nil
}

// FullInterfaceName expands NX-OS's short Ethernet port names (Eth1/1 -> Ethernet1/1); other
// names (mgmt0) are kept.
func FullInterfaceName(s string) string {
	if rest, ok := strings.CutPrefix(s, "Eth"); ok && !strings.HasPrefix(rest, "ernet") {
		return "Ethernet" + rest
	}
	return s
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
