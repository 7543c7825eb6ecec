package driver

import (
	"context"
	"fmt"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/openconfig"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/gnmi"
)

// InterfaceCounters are a port's or netdev's RoCE counters; nil means the platform has no
// such counter.
type InterfaceCounters struct {
	PFCRxPause, PFCTxPause                                 map[int]float64
	ECNMarked, Dropped, CNPSent, CNPHandled, OutOfSequence *float64
	// Hosts: the retransmission counters the NIC has (mlx5.RetransmitCounters), and the RDMA
	// packets it sent.
	Retransmit    map[string]float64
	RoCETxPackets *float64

	// Switches' queues and buffers: per egress queue (by index) the ECN-marked and dropped
	// packets and the queue's watermark; per lossless priority group the headroom and
	// shared-buffer watermarks; the PFC watchdog's storms detected and restored on the port's
	// queues; the size of the pool the port's lossless queues draw from and the highest
	// lossless queue watermark as a percentage of it. Watermarks and sizes are bytes and
	// gauges: RatesSince keeps the later reading.
	QueueECNMarked, QueueDropped, QueueWatermarkBytes map[int]float64
	PGHeadroomWatermarkBytes, PGSharedWatermarkBytes  map[int]float64
	PFCWatchdogDetected, PFCWatchdogRestored          *float64
	BufferPoolBytes, BufferUtilizationPercent         *float64

	// LosslessQueues are the port's egress queues that its configuration keeps lossless (PFC
	// on their priority), where the platform's counters read tells (nil: not known; empty: the
	// port keeps nothing lossless, so ECN marks there are RoCE traffic without PFC: package watch).
	LosslessQueues []int
}

// RetransmitPercent is the requester's retransmissions (mlx5.RetransmitTriggers, those the NIC
// has) per RDMA packet sent, in percent; nil without such counters or with nothing sent. On
// rates (RatesSince) it is the rate over the window.
func (c InterfaceCounters) RetransmitPercent() *float64 {
	if c.RoCETxPackets == nil || *c.RoCETxPackets == 0 {
		return nil
	}
	sum, found := 0.0, false
	for _, name := range mlx5.RetransmitTriggers {
		if v, ok := c.Retransmit[name]; ok {
			sum, found = sum+v, true
		}
	}
	if !found {
		return nil
	}
	p := 100 * sum / *c.RoCETxPackets
	return &p
}

// Counters reads interface counters on one device.
type Counters interface {
	// Counters reads the counters of ports, keyed by port, in one read of the device (one
	// request, roce_fabric_counters' promise). Empty ports means every port the device has.
	Counters(ctx context.Context, ports []string) (map[string]InterfaceCounters, error)
}

// CountersOf reads one port's counters.
func CountersOf(ctx context.Context, c Counters, port string) (InterfaceCounters, error) {
	got, err := c.Counters(ctx, []string{port})
	if err != nil {
		return InterfaceCounters{}, err
	}
	v, ok := got[port]
	if !ok {
		return InterfaceCounters{}, fmt.Errorf("the device returned no counters for %q", port)
	}
	return v, nil
}

// RatesSince turns two readings window apart into per-second rates. A counter that went down
// (the device reset its counters) gives the later count over the window.
func (c InterfaceCounters) RatesSince(earlier InterfaceCounters, window time.Duration) InterfaceCounters {
	secs := window.Seconds()
	rate := func(now, before *float64) *float64 {
		if now == nil {
			return nil
		}
		d := *now
		if before != nil && *now >= *before {
			d = *now - *before
		}
		r := d / secs
		return &r
	}
	rates := func(now, before map[int]float64) map[int]float64 {
		if now == nil {
			return nil
		}
		out := map[int]float64{}
		for p, v := range now {
			var b *float64
			if x, ok := before[p]; ok {
				b = &x
			}
			out[p] = *rate(&v, b)
		}
		return out
	}
	var retrans map[string]float64
	if c.Retransmit != nil {
		retrans = map[string]float64{}
		for name, v := range c.Retransmit {
			var b *float64
			if x, ok := earlier.Retransmit[name]; ok {
				b = &x
			}
			retrans[name] = *rate(&v, b)
		}
	}
	return InterfaceCounters{
		PFCRxPause: rates(c.PFCRxPause, earlier.PFCRxPause), PFCTxPause: rates(c.PFCTxPause, earlier.PFCTxPause),
		ECNMarked: rate(c.ECNMarked, earlier.ECNMarked), Dropped: rate(c.Dropped, earlier.Dropped),
		CNPSent: rate(c.CNPSent, earlier.CNPSent), CNPHandled: rate(c.CNPHandled, earlier.CNPHandled),
		OutOfSequence: rate(c.OutOfSequence, earlier.OutOfSequence),
		Retransmit:    retrans, RoCETxPackets: rate(c.RoCETxPackets, earlier.RoCETxPackets),

		QueueECNMarked: rates(c.QueueECNMarked, earlier.QueueECNMarked), QueueDropped: rates(c.QueueDropped, earlier.QueueDropped),
		PFCWatchdogDetected: rate(c.PFCWatchdogDetected, earlier.PFCWatchdogDetected),
		PFCWatchdogRestored: rate(c.PFCWatchdogRestored, earlier.PFCWatchdogRestored),
		// Gauges: the later reading.
		QueueWatermarkBytes: c.QueueWatermarkBytes, PGHeadroomWatermarkBytes: c.PGHeadroomWatermarkBytes,
		PGSharedWatermarkBytes: c.PGSharedWatermarkBytes, BufferPoolBytes: c.BufferPoolBytes,
		BufferUtilizationPercent: c.BufferUtilizationPercent, LosslessQueues: c.LosslessQueues,
	}
}

// ForCounters returns the counter reader of a configured device.
func ForCounters(reg *devices.Registry, device string) (Counters, error) {
	return openDriver(reg, device, func(d platformDriver) func(*devices.Registry, string) (Counters, error) { return d.counters },
		func(platformDriver) string { return "whose counters this provider version cannot read yet" })
}

var openMLX5Counters = over(openMLX5, func(h *mlx5Host) Counters { return mlx5Counters{h} })

func openOpenConfigCounters(reg *devices.Registry, device string) (Counters, error) {
	c, err := reg.GNMI(device)
	if err != nil {
		return nil, err
	}
	return ocCounters{c, device}, nil
}

// fromCounts converts a platform's integer counters.
func fromCounts(rx, tx map[int]int64, ecn, dropped, cnpSent, cnpHandled, oos *int64) InterfaceCounters {
	f := func(v *int64) *float64 {
		if v == nil {
			return nil
		}
		x := float64(*v)
		return &x
	}
	return InterfaceCounters{PFCRxPause: floats(rx), PFCTxPause: floats(tx), ECNMarked: f(ecn), Dropped: f(dropped),
		CNPSent: f(cnpSent), CNPHandled: f(cnpHandled), OutOfSequence: f(oos)}
}

// floats is a map of counts as Terraform numbers; nil stays nil (the platform has none).
func floats(in map[int]int64) map[int]float64 {
	if in == nil {
		return nil
	}
	out := make(map[int]float64, len(in))
	for k, v := range in {
		out[k] = float64(v)
	}
	return out
}

// mlx5Counters reads a host's netdevs in one command (mlx5.CountersScript): the names asked
// for, or every NIC port of the host.
type mlx5Counters struct{ h *mlx5Host }

func (d mlx5Counters) Counters(ctx context.Context, ifnames []string) (map[string]InterfaceCounters, error) {
	for _, ifname := range ifnames {
		if err := checkNetdev(ifname); err != nil {
			return nil, err
		}
	}
	got, err := runRead(ctx, d.h, mlx5.CountersScript(ifnames, d.h.sudo), "", func(out []byte) (map[string]mlx5.Counters, error) {
		return mlx5.ParseCounters(ifnames, out)
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]InterfaceCounters, len(got))
	for ifname, c := range got {
		ic := fromCounts(c.PFCRxPause, c.PFCTxPause, c.ECNMarked, c.Dropped, c.CNPSent, c.CNPHandled, c.OutOfSequence)
		ic.Retransmit = make(map[string]float64, len(c.Retransmit))
		for name, v := range c.Retransmit {
			ic.Retransmit[name] = float64(v)
		}
		if c.RoCETxPackets != nil {
			ic.RoCETxPackets = float64Ptr(*c.RoCETxPackets)
		}
		out[ifname] = ic
	}
	return out, nil
}

func float64Ptr(v int64) *float64 { x := float64(v); return &x }

// gnmiOnce is a switch's gNMI session as the OpenConfig counters read uses it (*gnmi.Client):
// one Subscribe ONCE. Tests put a fake switch behind it.
type gnmiOnce interface {
	SubscribeOnce(ctx context.Context, prefix *gpb.Path, paths ...*gpb.Path) ([]gnmi.Update, error)
}

// ocCounters reads an OpenConfig switch's ports with one Subscribe ONCE
// (openconfig.CountersPaths): the ports asked for, or every Ethernet port.
type ocCounters struct {
	c      gnmiOnce
	device string
}

func (d ocCounters) Counters(ctx context.Context, ports []string) (map[string]InterfaceCounters, error) {
	got, err := d.c.SubscribeOnce(ctx, openconfig.CountersPrefix(), openconfig.CountersPaths(ports)...)
	if err != nil {
		return nil, err
	}
	ups := make([]openconfig.Update, len(got))
	for i, u := range got {
		ups[i] = openconfig.Update{Path: u.Path, JSON: u.JSON}
	}
	counts, err := openconfig.ParseCounters(ports, ups)
	if err != nil {
		return nil, fmt.Errorf("device %q: %w", d.device, err)
	}
	out := make(map[string]InterfaceCounters, len(counts))
	for port, c := range counts {
		ic := fromCounts(c.PFCRxPause, c.PFCTxPause, c.ECNMarked, c.Dropped, c.CNPSent, c.CNPHandled, c.OutOfSequence)
		ic.QueueECNMarked, ic.QueueDropped, ic.QueueWatermarkBytes = floats(c.QueueECNMarked), floats(c.QueueDropped), floats(c.QueueWatermarkBytes)
		out[port] = ic
	}
	return out, nil
}
