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
	return perPort{device, sonicCounters{sonicDB{c, newReads(reg, device)}, c}.port}, nil
}

// Counters: PFC pauses per priority from the port's hash; ECN marks and drops per queue and
// summed; the periodic watermarks of the lossless queues and priority groups; the watchdog's
// deadlocks detected and restored summed over the port's queues; the egress lossless pool's
// size and the highest lossless queue watermark's share of it (DESIGN.md, "Data sources").
func (d sonicCounters) port(ctx context.Context, ifname string) (InterfaceCounters, error) {
	paths := sonic.CountersPaths(ifname)
	ups, err := d.counters.GetDB(ctx, sonic.CountersTarget, paths...)
	if gnmi.NotFound(err) {
		return InterfaceCounters{}, fmt.Errorf("device %q has no interface %q in COUNTERS_DB: %w", d.device, ifname, err)
	}
	if err != nil {
		return InterfaceCounters{}, err
	}
	bodies := make([][]byte, len(paths))
	for _, u := range ups {
		for i, p := range paths {
			if sameElems(u.Path, p) {
				bodies[i] = u.JSON
			}
		}
	}
	if bodies[0] == nil {
		return InterfaceCounters{}, fmt.Errorf("device %q: the Get of COUNTERS/%s returned no port counters", d.device, ifname)
	}
	c, err := sonic.ParseCounters(ifname, bodies[0], bodies[1], bodies[2])
	if err != nil {
		return InterfaceCounters{}, fmt.Errorf("device %q: %w", d.device, err)
	}
	db, err := d.snap(ctx)
	if err != nil {
		return InterfaceCounters{}, err
	}
	lossless, pgs, pool := db.LosslessBuffers(ifname)
	return sonicInterfaceCounters(c, lossless, pgs, pool), nil
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
