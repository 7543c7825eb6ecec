package gnmiswitch

// Operational state of an `openconfig` switch: interface counters on every front-panel port
// (/interfaces/interface[name=X]/state/counters, and ethernet/state/counters) and queue
// counters on every output queue bound under /qos/interfaces
// (.../output/queues/queue[name=Q]/state: transmit, drop and ECN-mark counts and
// max-queue-len, the leaves of openconfig-qos-interfaces' qos-interface-queue-state that
// lemming's schema has). They are written into lemming's operational-state
// datastore, the way lemming's own reconcilers write state, just before each read that can
// see them (a Get of type STATE, OPERATIONAL or ALL, a Subscribe), computed from the switch's
// clock. OpenConfig has no per-priority PFC counter, so none is kept.

import (
	"context"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	lgnmi "github.com/openconfig/lemming/gnmi"
	"google.golang.org/grpc/metadata"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/traffic"
)

// Per-second rates of a switch port and of each bound output queue; storm rates apply while
// the port's storm is on (the same traffic shape as the mlx5 hosts').
const (
	portPPS         = 2_000_000
	portMulticastPS = 10 // LLDP and friends
	queuePPS        = traffic.QueuePPS
	queueECNMarkPPS = traffic.QueueECNMarkPPS // marks on an ECN queue at the steady rate

	stormInDiscardPPS  = traffic.StormInDiscardPPS
	stormOutDiscardPPS = traffic.StormOutDiscardPPS
	stormQueueDropPPS  = traffic.StormQueueDropPPS
	stormQueueMarkPPS  = traffic.StormQueueMarkPPS

	// max-queue-len (openconfig-qos: counter64, units bytes, "Maximum observed queue
	// length"), since the queue was bound: a couple of packets while traffic drains, a
	// backed-up queue's depth once a storm has held it (assumed figures).
	queueIdleMaxLen  = 2 * traffic.RDMAPktBytes
	queueStormMaxLen = 1_000 * traffic.RDMAPktBytes
)

// switchCounters is the counter state of a switch; the switch's mu guards it.
type switchCounters struct {
	clock  func() time.Time
	boot   time.Time
	storms map[string]*traffic.Storm // by port
	queues map[queueRef]*queueCounters
}

type queueRef struct{ port, queue string }

// queueCounters starts when the lab first sees a queue bound; ECN marks accumulate only while
// the queue has a queue-management profile, so a profile change never takes a count back.
type queueCounters struct {
	since     time.Time
	stormAt   time.Duration // the port's storm time at since
	ecn       bool
	marks     uint64
	last      time.Time
	lastStorm time.Duration
}

func newSwitchCounters(ports []string) switchCounters {
	c := switchCounters{clock: time.Now, storms: map[string]*traffic.Storm{}, queues: map[queueRef]*queueCounters{}}
	c.boot = c.clock()
	for _, p := range ports {
		c.storms[p] = &traffic.Storm{}
	}
	return c
}

// stormTime is a port's storm time; a port the switch lacks (a /qos interface-id need not
// name one) never storms.
func (c *switchCounters) stormTime(port string, now time.Time) time.Duration {
	if st := c.storms[port]; st != nil {
		return st.Elapsed(now)
	}
	return 0
}

// Storm starts or stops a congestion storm on a port: while on, its in-discards and
// out-discards grow, and so do the dropped-pkts and (on queues with a queue-management
// profile) ecn-marked-pkts of every output queue bound to it.
func (sw *Switch) Storm(ifname string, on bool) error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return traffic.SetPort(sw.traffic.storms, sw.name, sw.ports, ifname, on, sw.traffic.clock())
}

// boundQueues reads which output queues the configuration binds (true: the queue has a
// queue-management profile) and which queue entries the state datastore holds.
func (s *gnmiService) boundQueues() (bound map[queueRef]bool, inState map[queueRef]bool, stateIfs map[string]bool, err error) {
	leaves, err := s.leaves([]*gpb.PathElem{{Name: "qos"}, {Name: "interfaces"}})
	if err != nil {
		return nil, nil, nil, err
	}
	bound, inState, stateIfs = map[queueRef]bool{}, map[queueRef]bool{}, map[string]bool{}
	configIfs := map[string]bool{}
	for _, u := range leaves {
		e := u.GetPath().GetElem()
		if len(e) < 3 {
			continue
		}
		port := e[2].GetKey()["interface-id"]
		kind := kindOf(e)
		if kind == leafConfig {
			configIfs[port] = true
		}
		if len(e) < 8 || e[3].GetName() != "output" || e[5].GetName() != "queue" {
			if len(e) == 5 && e[3].GetName() == "state" {
				stateIfs[port] = true
			}
			continue
		}
		ref := queueRef{port, e[5].GetKey()["name"]}
		switch {
		case kind == leafConfig && e[7].GetName() == "queue-management-profile":
			bound[ref] = u.GetVal().GetStringVal() != ""
		case kind == leafConfig:
			if _, seen := bound[ref]; !seen {
				bound[ref] = false
			}
		case e[6].GetName() == "state":
			inState[ref] = true
		}
	}
	for port := range configIfs {
		delete(stateIfs, port) // the configuration still has it: keep its state entry
	}
	return bound, inState, stateIfs, nil
}

// refreshCounters writes the counters as of now into the state datastore and removes the
// state of queues no longer bound. The caller holds sw.mu for writing.
func (s *gnmiService) refreshCounters() error {
	c := &s.sw.traffic
	now := c.clock()
	bound, inState, staleIfs, err := s.boundQueues()
	if err != nil {
		return err
	}
	req := &gpb.SetRequest{Prefix: &gpb.Path{Origin: lgnmi.OpenConfigOrigin, Target: s.sw.name}}
	for ref := range inState {
		if _, ok := bound[ref]; !ok {
			req.Delete = append(req.Delete, queuePath(ref))
		}
	}
	for port := range staleIfs {
		req.Delete = append(req.Delete, qosInterfacePath(port))
	}
	for ref := range c.queues {
		if _, ok := bound[ref]; !ok {
			delete(c.queues, ref)
		}
	}
	for _, port := range s.sw.ports {
		up, storm := now.Sub(c.boot), c.stormTime(port, now)
		req.Update = append(req.Update, interfaceCounters(port, up, storm)...)
	}
	for ref, ecn := range bound {
		storm := c.stormTime(ref.port, now)
		q := c.queues[ref]
		if q == nil {
			q = &queueCounters{since: now, stormAt: storm, last: now, lastStorm: storm}
			c.queues[ref] = q
		}
		if q.ecn {
			q.marks += traffic.Count(queueECNMarkPPS, now.Sub(q.last)) + traffic.Count(stormQueueMarkPPS, storm-q.lastStorm)
		}
		q.ecn, q.last, q.lastStorm = ecn, now, storm
		req.Update = append(req.Update, q.updates(ref, now, storm)...)
	}
	s.lldpState(req)
	ctx := metadata.NewIncomingContext(context.Background(),
		metadata.Pairs(lgnmi.GNMIModeMetadataKey, string(lgnmi.StateMode)))
	_, err = s.Server.Set(ctx, req)
	return err
}

func interfaceCounters(port string, up, storm time.Duration) []*gpb.Update {
	unicast, multicast := traffic.Count(portPPS, up), traffic.Count(portMulticastPS, up)
	octets := traffic.Count(portPPS*traffic.RDMAPktBytes, up) + multicast*traffic.CNPBytes
	base := []*gpb.PathElem{{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": port}}}
	counters := append(append([]*gpb.PathElem{}, base...), &gpb.PathElem{Name: "state"}, &gpb.PathElem{Name: "counters"})
	ether := append(append([]*gpb.PathElem{}, base...), &gpb.PathElem{Name: "ethernet"}, &gpb.PathElem{Name: "state"}, &gpb.PathElem{Name: "counters"})
	// The lab's traffic is as much received as sent: each direction counts the same packets,
	// and drops its own share in a storm.
	var out []*gpb.Update
	for _, dir := range []struct {
		name       string
		discardPPS uint64
	}{{"in", stormInDiscardPPS}, {"out", stormOutDiscardPPS}} {
		out = append(out,
			uintLeaf(counters, dir.name+"-octets", octets),
			uintLeaf(counters, dir.name+"-pkts", unicast+multicast),
			uintLeaf(counters, dir.name+"-unicast-pkts", unicast),
			uintLeaf(counters, dir.name+"-multicast-pkts", multicast),
			uintLeaf(counters, dir.name+"-broadcast-pkts", 0),
			uintLeaf(counters, dir.name+"-discards", traffic.Count(dir.discardPPS, storm)),
			uintLeaf(counters, dir.name+"-errors", 0))
		if dir.name == "in" {
			out = append(out, uintLeaf(counters, "in-fcs-errors", 0))
		}
	}
	// 802.3x pause: PFC frames are not counted here, and OpenConfig has no
	// per-priority counter.
	return append(out,
		uintLeaf(ether, "in-mac-pause-frames", 0),
		uintLeaf(ether, "out-mac-pause-frames", 0))
}

func (q *queueCounters) updates(ref queueRef, now time.Time, storm time.Duration) []*gpb.Update {
	up, stormy := now.Sub(q.since), storm-q.stormAt
	sent, dropped := traffic.Count(queuePPS, up), traffic.Count(stormQueueDropPPS, stormy)
	maxLen := uint64(queueIdleMaxLen)
	if stormy > 0 {
		maxLen = queueStormMaxLen
	}
	state := append(queuePath(ref).GetElem(), &gpb.PathElem{Name: "state"})
	return []*gpb.Update{
		uintLeaf(state, "max-queue-len", maxLen),
		uintLeaf(state, "transmit-pkts", sent),
		uintLeaf(state, "transmit-octets", sent*traffic.RDMAPktBytes),
		uintLeaf(state, "dropped-pkts", dropped),
		uintLeaf(state, "dropped-octets", dropped*traffic.RDMAPktBytes),
		uintLeaf(state, "ecn-marked-pkts", q.marks),
	}
}

func qosInterfacePath(port string) *gpb.Path {
	return &gpb.Path{Elem: []*gpb.PathElem{{Name: "qos"}, {Name: "interfaces"},
		{Name: "interface", Key: map[string]string{"interface-id": port}}}}
}

func queuePath(ref queueRef) *gpb.Path {
	p := qosInterfacePath(ref.port)
	p.Elem = append(p.Elem, &gpb.PathElem{Name: "output"}, &gpb.PathElem{Name: "queues"},
		&gpb.PathElem{Name: "queue", Key: map[string]string{"name": ref.queue}})
	return p
}

func uintLeaf(parent []*gpb.PathElem, name string, v uint64) *gpb.Update {
	elems := append(append([]*gpb.PathElem{}, parent...), &gpb.PathElem{Name: name})
	return &gpb.Update{Path: &gpb.Path{Elem: elems}, Val: &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: v}}}
}
