package mlx5

// The model behind the lab's perftest figures (mlx5-host.md, "perftest", says which parts have
// a source and which are assumed): the line rate and MTU of the path give the bandwidth and the
// latency of a consistent path; an inconsistent one (the RoCE priority lossy somewhere on it, a
// pause storm on a port of it, ECN off at an end) makes them worse by fixed factors.

import (
	"fmt"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

const (
	perfLineGbps = 100.0 // a ConnectX-5 100GbE port (the lab's 15b3:1017)
	perfMTU      = 1024  // the RoCE MTU of a 1500-byte netdev MTU (lab netdevs keep the default)
	// perfWireOverhead is what each RoCE v2 packet adds on the wire to its payload: preamble and
	// start delimiter 8, Ethernet header 14, IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4, gap 12.
	perfWireOverhead = 82
	perfMaxMpps      = 10.0 // messages per second one RC QP sends (assumed)
	perfBaseLatUs    = 1.0  // one-way NIC-to-NIC latency over a cable (assumed)
	perfHopLatUs     = 0.6  // each switch on the path (assumed)
	// A lossy path (the priority not lossless everywhere): go-back-N retransmissions (assumed).
	perfLossyBW      = 0.35
	perfLossyTailUs  = 250.0
	perfStormBW      = 0.2 // a port of the path receiving a pause storm (assumed)
	perfStormTailUs  = 120.0
	perfNoECNBW      = 0.9 // no ECN at an end: DCQCN does not act (assumed)
	perfNoECNTailMul = 1.5
)

type perfLatency struct{ min, max, typical, avg, stdev, p99, p999 float64 }

// perfFigures are what a run reports, and why the path is worse than it could be.
type perfFigures struct {
	mtu               int
	peakGbps, avgGbps float64
	lat               perfLatency
	issues            []string
}

// pathModel computes a run's figures between client and server over hops.
func pathModel(client, server perfEnd, hops []cabling.Hop, cabled bool, lookup func(string) device.Device, r *perftestRun) perfFigures {
	f := perfFigures{mtu: perfMTU}
	var lossy, storm, noECN bool
	if !cabled {
		f.issues = append(f.issues, fmt.Sprintf("%s %s is not cabled to %s %s", client.host, client.ifname, server.host, server.ifname))
		lossy = true
	}
	for _, e := range []perfEnd{client, server} {
		p := e.prio()
		if e.pfcEn&(1<<p) == 0 {
			f.issues = append(f.issues, fmt.Sprintf("%s %s sends RoCE on priority %d without PFC", e.host, e.ifname, p))
			lossy = true
		}
		if !e.ecn[p] {
			f.issues = append(f.issues, fmt.Sprintf("%s %s has ECN off on priority %d", e.host, e.ifname, p))
			noECN = true
		}
	}
	dscp := client.tclass >> 2
	// The host at each end of the path, by the switch port it is cabled to: the two must agree
	// on the priority, or the pauses the switch sends stop a priority the host does not send on.
	adjacent := map[cabling.Hop]perfEnd{}
	if len(hops) > 0 {
		adjacent[cabling.Hop{Switch: hops[0].Switch, In: hops[0].In}] = client
		adjacent[cabling.Hop{Switch: hops[len(hops)-1].Switch, In: hops[len(hops)-1].Out}] = server
	}
	for _, hop := range hops {
		var sw traffic.RoCESwitch
		if lookup != nil {
			sw, _ = lookup(hop.Switch).(traffic.RoCESwitch)
		}
		if sw == nil {
			continue
		}
		for _, port := range []string{hop.In, hop.Out} {
			v, ok := sw.RoCEView(port)
			if !ok {
				continue
			}
			prio, lossless := v.Lossless(dscp)
			if !lossless {
				f.issues = append(f.issues, fmt.Sprintf("%s %s does not run PFC on priority %d (DSCP %d)", hop.Switch, port, prio, dscp))
				lossy = true
			}
			if e, ok := adjacent[cabling.Hop{Switch: hop.Switch, In: port}]; ok && e.prio() != prio {
				f.issues = append(f.issues, fmt.Sprintf("%s %s sends RoCE on priority %d, %s %s puts DSCP %d on priority %d",
					e.host, e.ifname, e.prio(), hop.Switch, port, dscp, prio))
				lossy = true
			}
			if v.Storm {
				f.issues = append(f.issues, fmt.Sprintf("%s %s is in a pause storm", hop.Switch, port))
				storm = true
			}
		}
	}
	eff := float64(perfMTU) / float64(perfMTU+perfWireOverhead)
	if r.size < perfMTU {
		eff = float64(r.size) / float64(r.size+perfWireOverhead)
	}
	bw := min(perfLineGbps*eff, float64(r.size)*8*perfMaxMpps/1e3)
	// Serialization of one message on each link, plus the NICs and switches.
	ser := float64(r.size+perfWireOverhead*(1+r.size/perfMTU)) * 8 / (perfLineGbps * 1e3)
	typ := perfBaseLatUs + perfHopLatUs*float64(len(hops)) + ser*float64(len(hops)+1)
	l := perfLatency{min: typ * 0.96, typical: typ, avg: typ * 1.01, stdev: typ * 0.03, p99: typ * 1.15, p999: typ * 2, max: typ * 6}
	if noECN {
		bw *= perfNoECNBW
		l.p99 *= perfNoECNTailMul
		l.p999 *= perfNoECNTailMul
	}
	if storm {
		bw *= perfStormBW
		l.p99 += perfStormTailUs
		l.p999 += 2 * perfStormTailUs
	}
	if lossy {
		bw *= perfLossyBW
		l.p99 += perfLossyTailUs
		l.p999 += 2 * perfLossyTailUs
	}
	l.avg = max(l.avg, (l.typical*98+l.p99*2)/100)
	l.max = max(l.max, l.p999*1.2)
	l.stdev = max(l.stdev, (l.p99-l.typical)/2.33)
	f.avgGbps, f.peakGbps, f.lat = bw, bw*1.002, l
	return f
}
