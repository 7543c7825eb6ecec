package driver

import (
	"context"
	"fmt"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/eos"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/nxos"
)

// cliCounters reads a CLI switch's port counters over its shared CLI session: one exchange of
// show commands per read, the port name validated before it reaches a command line.
type cliCounters struct {
	c      cliConn
	device string
	read   func(ctx context.Context, c cliConn, device, ifname string) (InterfaceCounters, error)
}

func (d cliCounters) port(ctx context.Context, ifname string) (InterfaceCounters, error) {
	return d.read(ctx, d.c, d.device, ifname)
}

// overCLICounters is a counters read over the switch's shared CLI session.
func overCLICounters(read func(ctx context.Context, c cliConn, device, ifname string) (InterfaceCounters, error)) func(*devices.Registry, string) (Counters, error) {
	return func(reg *devices.Registry, device string) (Counters, error) {
		c, err := reg.CLI(device)
		if err != nil {
			return nil, err
		}
		return perPort{device, cliCounters{c, device, read}.port}, nil
	}
}

// readEOSCounters: ECN marks per tx-queue that counts them and their sum, and the port's in and
// out discards; EOS's per-priority PFC frames are not read (eos counters.go says why), so the
// PFC maps stay null.
func readEOSCounters(ctx context.Context, c cliConn, device, ifname string) (InterfaceCounters, error) {
	if !eos.ValidPort(ifname) {
		return InterfaceCounters{}, fmt.Errorf("interface %q is not an EOS front-panel port (Ethernet<N>, Ethernet<N>/<M> or Ethernet<N>/<M>/<L>)", ifname)
	}
	out, err := c.Show(ctx, eos.CountersCommands(ifname)...)
	if err != nil {
		return InterfaceCounters{}, err
	}
	got, err := eos.ParseCounters(ifname, out[0], out[1])
	if err != nil {
		return InterfaceCounters{}, fmt.Errorf("device %q: %w", device, err)
	}
	var dropped *int64
	if got.InDiscards != nil || got.OutDiscards != nil {
		dropped = sumCounts(map[int]int64{0: deref(got.InDiscards), 1: deref(got.OutDiscards)})
	}
	counts := fromCounts(nil, nil, sumCounts(got.ECNMarked), dropped, nil, nil, nil)
	counts.QueueECNMarked = floats(got.ECNMarked) // by tx-queue, the counting ones only
	return counts, nil
}

// readNXOSCounters: PFC frames per CoS and the drops of every QoS group (per queue and summed),
// from `show queuing interface`; NX-OS prints no ECN-marked count there, so it stays null.
func readNXOSCounters(ctx context.Context, c cliConn, device, ifname string) (InterfaceCounters, error) {
	if !nxos.ValidPort(ifname) {
		return InterfaceCounters{}, fmt.Errorf("interface %q is not an NX-OS front-panel port (Ethernet<N>/<M> or Ethernet<N>/<M>/<L>)", ifname)
	}
	out, err := c.Show(ctx, nxos.CountersCommand(ifname))
	if err != nil {
		return InterfaceCounters{}, err
	}
	got, err := nxos.ParseCounters(out[0])
	if err != nil {
		return InterfaceCounters{}, fmt.Errorf("device %q: %w", device, err)
	}
	counts := fromCounts(got.PFCRx, got.PFCTx, nil, sumCounts(got.Dropped), nil, nil, nil)
	// A QoS group's egress queue is the queue of the same index (c-out-8q-qN serves group N).
	counts.QueueDropped = floats(got.Dropped)
	return counts, nil
}

func deref(v *int64) int64 {
	if v == nil {
		return 0
	}
	return *v
}

// sumCounts is the sum of every count in ms; nil when they hold none.
func sumCounts(ms ...map[int]int64) *int64 {
	var total int64
	found := false
	for _, m := range ms {
		for _, v := range m {
			total, found = total+v, true
		}
	}
	if !found {
		return nil
	}
	return &total
}
