package driver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/eos"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/nxos"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
)

// cliCounters reads a CLI switch's port counters over its shared CLI session: every port asked
// for in one exchange of show commands (roce_fabric_counters' one read per device).
type cliCounters struct {
	c      cliConn
	device string
	// read reads ports, or with none every front-panel port; it validates the names (distinctPorts)
	// before any reaches a command line.
	read func(ctx context.Context, c cliConn, device string, ports []string) (map[string]InterfaceCounters, error)
}

func (d cliCounters) Counters(ctx context.Context, ports []string) (map[string]InterfaceCounters, error) {
	return d.read(ctx, d.c, d.device, ports)
}

// overCLICounters is a counters read over the switch's shared CLI session.
func overCLICounters(read func(ctx context.Context, c cliConn, device string, ports []string) (map[string]InterfaceCounters, error)) func(*devices.Registry, string) (Counters, error) {
	return func(reg *devices.Registry, device string) (Counters, error) {
		c, err := reg.CLI(device)
		if err != nil {
			return nil, err
		}
		return cliCounters{c, device, read}, nil
	}
}

// distinctPorts is ports without repeats, once each is one of the platform's front-panel ports
// (valid; what names them in the error): the only names put on a command line.
func distinctPorts(ports []string, valid func(string) bool, what string) ([]string, error) {
	var distinct []string
	for _, p := range ports {
		if !valid(p) {
			return nil, fmt.Errorf("interface %q is not %s", p, what)
		}
		if !slices.Contains(distinct, p) {
			distinct = append(distinct, p)
		}
	}
	return distinct, nil
}

// readEOSCounters: ECN marks per tx-queue that counts them and their sum, and the port's in and
// out discards; EOS's per-priority PFC frames are not read (eos counters.go says why), so the
// PFC maps stay null. Both commands are device-wide: the same two for any number of ports. A
// port neither output lists is one the switch does not have, as ANTA takes it.
func readEOSCounters(ctx context.Context, c cliConn, device string, ports []string) (map[string]InterfaceCounters, error) {
	ports, err := distinctPorts(ports, eos.ValidPort, "an EOS front-panel port (Ethernet<N>, Ethernet<N>/<M> or Ethernet<N>/<M>/<L>)")
	if err != nil {
		return nil, err
	}
	cmds := eos.CountersCommands()
	out, err := c.Show(ctx, cmds...)
	if err != nil {
		return nil, err
	}
	all, err := eos.ParseCounters(out[0], out[1])
	if err != nil {
		return nil, fmt.Errorf("device %q: %w", device, err)
	}
	if len(ports) == 0 {
		ports = frontPanel(all, eos.ValidPort)
	}
	res := make(map[string]InterfaceCounters, len(ports))
	for _, p := range ports {
		got, ok := all[p]
		if !ok {
			return nil, fmt.Errorf("device %q has no interface %s (neither %q nor %q lists it)", device, p,
				strings.TrimSuffix(cmds[0], " | json"), strings.TrimSuffix(cmds[1], " | json"))
		}
		var dropped *int64
		if got.InDiscards != nil || got.OutDiscards != nil {
			dropped = sumCounts(map[int]int64{0: deref(got.InDiscards), 1: deref(got.OutDiscards)})
		}
		counts := fromCounts(nil, nil, sumCounts(got.ECNMarked), dropped, nil, nil, nil)
		counts.QueueECNMarked = floats(got.ECNMarked) // by tx-queue, the counting ones only
		res[p] = counts
	}
	return res, nil
}

// readNXOSCounters: PFC frames per CoS and the drops of every QoS group (per queue and summed),
// from `show queuing interface`; NX-OS prints no ECN-marked count there, so it stays null. The
// ports asked for are read with their own commands, all in one batch (a port's output is the
// captured layout, and a port the switch lacks is the command it refuses); every port with the
// device-wide command.
func readNXOSCounters(ctx context.Context, c cliConn, device string, ports []string) (map[string]InterfaceCounters, error) {
	ports, err := distinctPorts(ports, nxos.ValidPort, "an NX-OS front-panel port (Ethernet<N>/<M> or Ethernet<N>/<M>/<L>)")
	if err != nil {
		return nil, err
	}
	res := map[string]InterfaceCounters{}
	if len(ports) == 0 {
		out, err := c.Show(ctx, nxos.AllCountersCommand)
		if err != nil {
			return nil, err
		}
		all, err := nxos.ParseAllCounters(out[0])
		if err != nil {
			return nil, fmt.Errorf("device %q: %w", device, err)
		}
		for _, p := range frontPanel(all, nxos.ValidPort) {
			res[p] = nxosCounts(all[p])
		}
		return res, nil
	}
	cmds := make([]string, len(ports))
	for i, p := range ports {
		cmds[i] = nxos.CountersCommand(p)
	}
	out, err := c.Show(ctx, cmds...)
	var ce *cli.Error
	if errors.As(err, &ce) && ce.Rejected {
		if i := slices.Index(cmds, ce.Line); i >= 0 {
			return nil, fmt.Errorf("device %q has no interface %s (the switch answered %q to %q)", device, ports[i], strings.TrimSpace(ce.Output), ce.Line)
		}
	}
	if err != nil {
		return nil, err
	}
	for i, p := range ports {
		got, err := nxos.ParseCounters(out[i])
		if err != nil {
			return nil, fmt.Errorf("device %q: %s: %w", device, p, err)
		}
		res[p] = nxosCounts(got)
	}
	return res, nil
}

func nxosCounts(got nxos.Counters) InterfaceCounters {
	counts := fromCounts(got.PFCRx, got.PFCTx, nil, sumCounts(got.Dropped), nil, nil, nil)
	// A QoS group's egress queue is the queue of the same index (c-out-8q-qN serves group N).
	counts.QueueDropped = floats(got.Dropped)
	return counts
}

// frontPanel is the names among a device-wide read's interfaces that are front-panel ports, in
// order.
func frontPanel[C any](all map[string]C, valid func(string) bool) []string {
	var ports []string
	for name := range all {
		if valid(name) {
			ports = append(ports, name)
		}
	}
	slices.Sort(ports)
	return ports
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
