package nxos

// `show lldp neighbors detail` on the `nxos` switch (nxos-switch.md, "LLDP"), in NX-OS's text
// layout: genieparser's NX-OS golden outputs (tests/ShowLldpNeighborsDetail/cli/equal,
// golden_output1) and ntc-templates' cisco_nxos_show_lldp_neighbors_detail.raw: a capability
// legend and table header, then one block per neighbour from `Chassis id:` to `Vlan ID:`, the
// local port in its short form (Eth1/1), MACs dotted, `null` for a TLV not sent, and `Total
// entries displayed: N`.

import (
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

const nxosLLDPHeader = "Capability codes:\n" +
	"  (R) Router, (B) Bridge, (T) Telephone, (C) DOCSIS Cable Device\n" +
	"  (W) WLAN Access Point, (P) Repeater, (S) Station, (O) Other\n" +
	"Device ID            Local Intf      Hold-time  Capability  Port ID  \n\n"

func (x *nxosCtx) showLLDP(a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Keywords("neighbors", "detail"); err != nil {
		return err
	}
	if err := a.Done(); err != nil {
		return err
	}
	sw := x.sw
	heard := sw.Wires.Heard(sw.Name())
	var b strings.Builder
	b.WriteString(nxosLLDPHeader)
	n := 0
	for _, port := range sw.Interfaces() {
		ad, ok := heard[port]
		if !ok {
			continue
		}
		n++
		portID := ad.PortID
		if ad.PortIDType == "mac" {
			portID = cabling.MACDotted(ad.PortMAC)
		}
		fmt.Fprintf(&b, "Chassis id: %s\nPort id: %s\nLocal Port id: %s\nPort Description: %s\nSystem Name: %s\n",
			cabling.MACDotted(ad.ChassisMAC), portID, strings.Replace(port, "Ethernet", "Eth", 1), nullIfEmpty(ad.PortDescr), nullIfEmpty(ad.SystemName))
		b.WriteString("System Description: null\nTime remaining: 114 seconds\nSystem Capabilities: B, R\nEnabled Capabilities: B, R\n" +
			"Management Address: not advertised\nManagement Address IPV6: not advertised\nVlan ID: not advertised\n\n\n")
	}
	fmt.Fprintf(&b, "Total entries displayed: %d\n", n)
	x.printf("%s", b.String())
	return nil
}

func nullIfEmpty(s string) string {
	if s == "" {
		return "null"
	}
	return s
}
