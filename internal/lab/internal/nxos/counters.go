package nxos

// `show queuing interface [Ethernet1/N]` on the `nxos` switch (nxos-switch.md, "Counters"): the
// parts of NX-OS's output that a public capture shows (a Nexus 93180FX2's, in zartbot's
// "RoCEv2 AllReduce" article), in that layout: the egress counters of each QoS group, then the
// ingress queuing (the input queuing policy's pause buffers), the ingress drop counters and the
// PFC statistics per CoS. The numbers are the lab's model, the other lab switches' traffic shape
// (the traffic room's rates, as the other families'), from the switch's clock and the port's storm
// clock (cliswitch.Switch): frames leave every QoS group; during a storm the link partner pauses the
// CoS values the system network-qos policy makes no-drop (while the port's PFC is not off), and
// the other QoS groups drop.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

const (
	nxosGroupRule  = "+-------------------------------------------------------------+\n"
	nxosIngressHdr = "QoS-Group#                 Pause           Buff Size       Pause Th      Resume Th\n"
	nxosPFCHdr     = "PFC_COS QOS_Group   TxPause             TxCount   RxPause             RxCount\n"
)

// showQueuing: `show queuing interface [Ethernet1/N]` (the keyword also spelt `queueing`, as
// NX-OS takes it); without a port, every port's text in turn (nxos-switch.md, Counters).
func (x *nxosCtx) showQueuing(a *cliswitch.Args) *cliswitch.Refusal {
	if _, err := a.Kw("interface"); err != nil {
		return err
	}
	if !a.More() {
		for n := range x.sw.running.ifaces {
			x.printf("%s", x.sw.queuingText(n+1))
		}
		return nil
	}
	n, err := cliswitch.Last(a, ethernetSlot(len(x.sw.running.ifaces)))
	if err != nil {
		return err
	}
	x.printf("%s", x.sw.queuingText(n))
	return nil
}

// nxosClassGroup is the QoS group of a system class name (c-8q-nq5, c-out-8q-q5, c-in-q5 with
// prefix c-8q-nq, c-out-8q-q, c-in-q); the -default class is group 0.
func nxosClassGroup(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	if rest == "-default" {
		return 0, true
	}
	g, err := strconv.Atoi(rest)
	return g, err == nil && g >= 0 && g <= 7
}

// noDrop maps each CoS that the system network-qos policy pauses (`pause pfc-cos`) to the QoS
// group of its class; the system default policy pauses none.
func (c *nxosConfig) noDrop() map[int]int {
	out := map[int]int{}
	p := c.policies[nxNetwork][c.system[bindNetwork]]
	if p == nil {
		return out
	}
	for _, cl := range p.classes {
		g, ok := nxosClassGroup(cl.name, "c-8q-nq")
		if !ok {
			continue
		}
		for cos := range 8 {
			if cl.pfcCos&(1<<cos) != 0 {
				out[cos] = g
			}
		}
	}
	return out
}

func (sw *Switch) queuingText(n int) string {
	c, port := sw.running, sw.Interfaces()[n-1]
	f := c.ifaces[n-1]
	up, storm := sw.Traffic(port)
	noDrop := c.noDrop()
	lossless := map[int]bool{}
	for _, g := range noDrop {
		lossless[g] = true
	}
	var b strings.Builder
	b.WriteString(nxosGroupRule)
	// The lab sends no multicast: that column stays 0.
	row := func(label string, uc uint64) { fmt.Fprintf(&b, "| %25s |%16d|%16d|\n", label, uc, 0) }
	for g := range 8 {
		fmt.Fprintf(&b, "|%-61s|\n", strings.Repeat(" ", 30)+"QOS GROUP "+strconv.Itoa(g))
		b.WriteString(nxosGroupRule)
		b.WriteString("|                           |  Unicast       |Multicast       |\n")
		b.WriteString(nxosGroupRule)
		var drops uint64
		if !lossless[g] {
			drops = traffic.Count(traffic.StormQueueDropPPS, storm)
		}
		pkts := traffic.Count(traffic.QueuePPS, up)
		row("Tx Pkts", pkts)
		row("Tx Byts", pkts*traffic.RDMAPktBytes)
		row("WRED/AFD & Tail Drop Pkts", drops)
		row("WRED/AFD & Tail Drop Byts", drops*traffic.RDMAPktBytes)
		row("Q Depth Byts", 0)
		row("WD & Tail Drop Pkts", 0)
		b.WriteString(nxosGroupRule)
	}

	fmt.Fprintf(&b, "Ingress Queuing for %s\n%s\n%s%s\n", port, strings.Repeat("-", 53), nxosIngressHdr, strings.Repeat("-", 53))
	pauses := map[int]*nxosPause{}
	if p := c.policies[nxQueuing][f.servicePolicy[bindQueuingIn]]; p != nil {
		for _, cl := range p.classes {
			if g, ok := nxosClassGroup(cl.name, "c-in-q"); ok && cl.pause != nil {
				pauses[g] = cl.pause
			}
		}
	}
	for g := 7; g >= 0; g-- {
		if p := pauses[g]; p != nil {
			fmt.Fprintf(&b, "%7d%15d%13d%13d\n", g, p.buffer, p.pause, p.resume)
		} else {
			fmt.Fprintf(&b, "%7d%15s%13s%13s\n", g, "-", "-", "-")
		}
	}
	rule := strings.Repeat("-", 56) + "\n"
	b.WriteString("Per Port Ingress Statistics\n" + rule)
	fmt.Fprintf(&b, "%26s%28d\n%26s%28d\n%26s%28d\n", "Hi Priority Drop Pkts", 0, "Low Priority Drop Pkts", 0, "Ingress Overflow Drop Pkts", 0)
	b.WriteString(rule + "Per Slice Ingress Statistics\n" + rule)
	fmt.Fprintf(&b, "%26s%28d\n", "Ingress Overflow Drop Pkts", 0)

	pfcRule := strings.Repeat("-", 78) + "\n"
	var rx [8]uint64
	var rxTotal uint64
	if f.pfcMode != "off" {
		for cos := range noDrop {
			rx[cos] = traffic.Count(traffic.StormPausePPS, storm)
			rxTotal += rx[cos]
		}
	}
	b.WriteString("PFC Statistics\n" + pfcRule)
	fmt.Fprintf(&b, "TxPPP:%21d,   RxPPP:%21d\n", 0, rxTotal)
	b.WriteString(pfcRule + nxosPFCHdr)
	stormOn := sw.Storming(port)
	for cos := range 8 {
		rxState := "Inactive"
		if _, ok := noDrop[cos]; ok && stormOn && f.pfcMode != "off" {
			rxState = "Active"
		}
		fmt.Fprintf(&b, "%7d%10d%10s%20d%10s%20d\n", cos, noDrop[cos], "Inactive", 0, rxState, rx[cos])
	}
	b.WriteString(pfcRule)
	return b.String()
}
