package driver

import (
	"context"
	"fmt"
	"slices"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/sonic"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/gnmi"
)

// sonicDBGetter reads one of a SONiC switch's databases by prefix target (*gnmi.Client GetDB).
type sonicDBGetter interface {
	GetDB(ctx context.Context, target string, paths ...*gpb.Path) ([]gnmi.Update, error)
}

// sonicCounters reads a port's counters from COUNTERS_DB (one Get) and, to tell the lossless
// queues, priority groups and pool apart, CONFIG_DB (the device's snapshot, read once per
// provider process and shared with the resources).
type sonicCounters struct {
	sonicDB
	counters sonicDBGetter
}

func openSONiCCounters(reg *devices.Registry, device string) (Counters, error) {
	c, err := reg.GNMI(device)
	if err != nil {
		return nil, err
	}
	return sonicCounters{sonicDB{c, newReads(reg, device)}, c}, nil
}

// Counters reads every asked port's counters in one Get of COUNTERS_DB (every port's, through
// the wildcard paths, when none is asked): PFC pauses per priority from the port's hash; ECN
// marks and drops per queue and summed; the periodic watermarks of the lossless queues and
// priority groups; the watchdog's deadlocks detected and restored summed over the port's
// queues; the egress lossless pool's size and the highest lossless queue watermark's share of
// it (DESIGN.md, "Data sources"). CONFIG_DB (read once per process) says which ports exist,
// so a mistyped port is named before the Get, and which queues are lossless.
func (d sonicCounters) Counters(ctx context.Context, ports []string) (map[string]InterfaceCounters, error) {
	db, err := d.snap(ctx)
	if err != nil {
		return nil, err
	}
	aliases := db.PortAliases()
	for _, p := range ports {
		if _, ok := aliases[p]; !ok {
			return nil, fmt.Errorf("device %q has no interface %q (CONFIG_DB has no PORT|%s)", d.device, p, p)
		}
	}
	paths := sonic.PortsCountersPaths(ports)
	ups, err := d.counters.GetDB(ctx, sonic.CountersTarget, paths...)
	if gnmi.NotFound(err) {
		return nil, fmt.Errorf("device %q: COUNTERS_DB has no counters for a port asked (its flex counters may be off): %w", d.device, err)
	}
	if err != nil {
		return nil, err
	}
	bodies := make([][]byte, len(paths))
	for _, u := range ups {
		for i, p := range paths {
			if bodies[i] == nil && sameElems(u.Path, p) {
				bodies[i] = u.JSON
			}
		}
	}
	parsed := map[string]sonic.Counters{}
	if len(ports) == 0 {
		if bodies[0] == nil {
			return nil, fmt.Errorf("device %q: the Get of COUNTERS/Ethernet* returned no port counters", d.device)
		}
		if parsed, err = sonic.ParseAllCounters(aliases, bodies[0], bodies[1], bodies[2]); err != nil {
			return nil, fmt.Errorf("device %q: %w", d.device, err)
		}
	}
	for i, p := range ports {
		b := bodies[3*i : 3*i+3]
		if b[0] == nil {
			return nil, fmt.Errorf("device %q: the Get of COUNTERS/%s returned no port counters", d.device, p)
		}
		c, err := sonic.ParseCounters(p, b[0], b[1], b[2])
		if err != nil {
			return nil, fmt.Errorf("device %q: %w", d.device, err)
		}
		parsed[p] = c
	}
	out := make(map[string]InterfaceCounters, len(parsed))
	for p, c := range parsed {
		lossless, pgs, pool := db.LosslessBuffers(p)
		ic := sonicInterfaceCounters(c, lossless, pgs, pool)
		ic.LosslessQueues = append([]int{}, lossless...) // known, even when none: no PFC on the port
		out[p] = ic
	}
	return out, nil
}

// sonicInterfaceCounters turns a port's parsed counters into the platform-neutral form.
func sonicInterfaceCounters(c sonic.Counters, lossless, pgs []int, pool *int64) InterfaceCounters {
	var ecn, dropped, detected, restored *int64
	add := func(sum **int64, v *int64) {
		if v == nil {
			return
		}
		if *sum == nil {
			*sum = new(int64)
		}
		**sum += *v
	}
	perQueue := func(get func(sonic.Queue) *int64) map[int]float64 {
		var out map[int]float64
		for i, q := range c.Queues {
			if v := get(q); v != nil {
				if out == nil {
					out = map[int]float64{}
				}
				out[i] = float64(*v)
			}
		}
		return out
	}
	for _, q := range c.Queues {
		add(&ecn, q.ECNMarked)
		add(&dropped, q.Dropped)
		add(&detected, q.DeadlocksDetected)
		add(&restored, q.DeadlocksRestored)
	}
	out := fromCounts(c.PFCRx, c.PFCTx, ecn, dropped, nil, nil, nil)
	out.QueueECNMarked = perQueue(func(q sonic.Queue) *int64 { return q.ECNMarked })
	out.QueueDropped = perQueue(func(q sonic.Queue) *int64 { return q.Dropped })
	out.QueueWatermarkBytes = perQueue(func(q sonic.Queue) *int64 { return q.SharedWatermarkBytes })
	if detected != nil {
		out.PFCWatchdogDetected = float64Ptr(*detected)
	}
	if restored != nil {
		out.PFCWatchdogRestored = float64Ptr(*restored)
	}
	if len(c.PGs) > 0 {
		out.PGHeadroomWatermarkBytes, out.PGSharedWatermarkBytes = map[int]float64{}, map[int]float64{}
		for i, pg := range c.PGs {
			if !slices.Contains(pgs, i) {
				continue
			}
			if pg.HeadroomWatermarkBytes != nil {
				out.PGHeadroomWatermarkBytes[i] = float64(*pg.HeadroomWatermarkBytes)
			}
			if pg.SharedWatermarkBytes != nil {
				out.PGSharedWatermarkBytes[i] = float64(*pg.SharedWatermarkBytes)
			}
		}
	}
	if pool != nil {
		out.BufferPoolBytes = float64Ptr(*pool)
		for _, q := range lossless {
			if w, ok := out.QueueWatermarkBytes[q]; ok {
				p := 100 * w / float64(*pool)
				if out.BufferUtilizationPercent == nil || p > *out.BufferUtilizationPercent {
					out.BufferUtilizationPercent = &p
				}
			}
		}
	}
	return out
}

// sameElems reports whether got ends with want's elements (got may carry the prefix's).
func sameElems(got, want *gpb.Path) bool {
	g, w := got.GetElem(), want.GetElem()
	if len(g) < len(w) {
		return false
	}
	g = g[len(g)-len(w):]
	for i := range w {
		if g[i].GetName() != w[i].GetName() {
			return false
		}
	}
	return true
}
