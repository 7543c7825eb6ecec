package lab

// The model behind the lab's perftest figures (mlx5-host.md, "perftest", says which parts have
// a source and which are assumed): the line rate and MTU of the path give the bandwidth and the
// latency of a consistent path; an inconsistent one (the RoCE priority lossy somewhere on it, a
// pause storm on a port of it, ECN off at an end) makes them worse by fixed factors.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
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

// switchPortView is what the model needs of a switch port on the path.
type switchPortView struct {
	lossless func(dscp int) (prio int, ok bool) // the DSCP's priority, and whether it is lossless
	storm    bool
}

// roceSwitch is a lab switch whose ports the model can read (switches without it count as
// consistent: assumed).
type roceSwitch interface {
	roceView(port string) (switchPortView, bool)
}

// pathModel computes a run's figures between client and server over hops.
func pathModel(client, server perfEnd, hops []cabling.Hop, cabled bool, lookup func(string) labDevice, r *perftestRun) perfFigures {
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
		var sw roceSwitch
		if lookup != nil {
			sw, _ = lookup(hop.Switch).(roceSwitch)
		}
		if sw == nil {
			continue
		}
		for _, port := range []string{hop.In, hop.Out} {
			v, ok := sw.roceView(port)
			if !ok {
				continue
			}
			prio, lossless := v.lossless(dscp)
			if !lossless {
				f.issues = append(f.issues, fmt.Sprintf("%s %s does not run PFC on priority %d (DSCP %d)", hop.Switch, port, prio, dscp))
				lossy = true
			}
			if e, ok := adjacent[cabling.Hop{Switch: hop.Switch, In: port}]; ok && e.prio() != prio {
				f.issues = append(f.issues, fmt.Sprintf("%s %s sends RoCE on priority %d, %s %s puts DSCP %d on priority %d",
					e.host, e.ifname, e.prio(), hop.Switch, port, dscp, prio))
				lossy = true
			}
			if v.storm {
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

// roceView of a SONiC port: the DSCP's traffic class by the port's DSCP_TO_TC_MAP (the global
// PORT_QOS_MAP entry's when the port names none), lossless when that class is in pfc_enable
// (SONiC's stock maps put traffic class n on priority n: sonic_defaults.go).
func (sw *SONiCSwitch) roceView(port string) (switchPortView, bool) {
	sw.mu.RLock()
	defer sw.mu.RUnlock()
	st, ok := sw.traffic.storms[port]
	if !ok {
		return switchPortView{}, false
	}
	qos := sw.db["PORT_QOS_MAP"][port]
	mapName := qos["dscp_to_tc_map"]
	if mapName == "" {
		mapName = sw.db["PORT_QOS_MAP"]["global"]["dscp_to_tc_map"]
	}
	dscpMap := sw.db["DSCP_TO_TC_MAP"][mapName]
	var pfc []int
	for _, s := range strings.Split(qos["pfc_enable"], ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			pfc = append(pfc, n)
		}
	}
	storm := st.on()
	return switchPortView{storm: storm, lossless: func(dscp int) (int, bool) {
		tc, err := strconv.Atoi(dscpMap[strconv.Itoa(dscp)])
		if err != nil {
			tc = 0 // a DSCP the map leaves out goes to traffic class 0
		}
		return tc, slices.Contains(pfc, tc)
	}}, true
}
