package driver

import (
	"context"
	"fmt"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/openconfig"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/sonic"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/gnmi"
)

// LLDPNeighbors returns a device's LLDP read: its hostname (the device's configured hostname
// where set, else what the device reports), its interfaces where the platform lists them, and
// its neighbours sorted by local interface. One read per device per provider process (the
// read snapshot), shared by every data source that asks.
func LLDPNeighbors(ctx context.Context, reg *devices.Registry, device string) (fabric.DeviceNeighbors, error) {
	dev, d, err := platformOf(reg, device)
	if err != nil {
		return fabric.DeviceNeighbors{}, err
	}
	read := d.lldp
	if read == nil {
		return fabric.DeviceNeighbors{}, fmt.Errorf("device %q has platform %s, whose LLDP neighbours this provider version cannot read yet", device, dev.Platform)
	}
	got, err := devices.Snapshot(ctx, reg, device, "lldp", func(ctx context.Context) (fabric.DeviceNeighbors, error) {
		return read(ctx, reg, device)
	})
	if err != nil {
		return fabric.DeviceNeighbors{}, err
	}
	// The snapshot is shared: copy before completing it.
	out := fabric.DeviceNeighbors{Device: device, Hostname: got.Hostname, Interfaces: slices.Clone(got.Interfaces),
		Neighbors: slices.Clone(got.Neighbors)}
	if dev.Hostname != "" {
		out.Hostname = dev.Hostname
	}
	fabric.SortNeighbors(out.Neighbors)
	return out, nil
}

// readHostLLDP runs lldpcli on a Linux host (lldpd).
func readHostLLDP(ctx context.Context, reg *devices.Registry, device string) (fabric.DeviceNeighbors, error) {
	h, err := openMLX5(reg, device)
	if err != nil {
		return fabric.DeviceNeighbors{}, err
	}
	return runRead(ctx, h, mlx5.LLDPScript(h.sudo), "", mlx5.ParseLLDP)
}

// LLDPDevices returns the configured devices whose platform has an LLDP read, sorted.
func LLDPDevices(reg *devices.Registry) []string {
	return devicesWith(reg, func(d platformDriver) bool { return d.lldp != nil })
}

// overCLI is an LLDP read over the switch's shared CLI session.
func overCLI(read func(ctx context.Context, c cliConn, device string) (fabric.DeviceNeighbors, error)) func(context.Context, *devices.Registry, string) (fabric.DeviceNeighbors, error) {
	return func(ctx context.Context, reg *devices.Registry, device string) (fabric.DeviceNeighbors, error) {
		c, err := reg.CLI(device)
		if err != nil {
			return fabric.DeviceNeighbors{}, err
		}
		return read(ctx, c, device)
	}
}

// overGNMI is an LLDP read over the switch's shared gNMI session.
func overGNMI(read func(ctx context.Context, c gnmiConn, r reads) (fabric.DeviceNeighbors, error)) func(context.Context, *devices.Registry, string) (fabric.DeviceNeighbors, error) {
	return func(ctx context.Context, reg *devices.Registry, device string) (fabric.DeviceNeighbors, error) {
		c, err := reg.GNMI(device)
		if err != nil {
			return fabric.DeviceNeighbors{}, err
		}
		return read(ctx, c, newReads(reg, device))
	}
}

// showLLDP is a CLI switch's LLDP read: its commands (the LLDP and hostname reads) run in one
// exchange, their outputs parsed in that order (EOS, NX-OS).
func showLLDP(commands []string, parse func(neighbors, hostname string) (fabric.DeviceNeighbors, error)) func(ctx context.Context, c cliConn, device string) (fabric.DeviceNeighbors, error) {
	return func(ctx context.Context, c cliConn, device string) (fabric.DeviceNeighbors, error) {
		out, err := c.Show(ctx, commands...)
		if err != nil {
			return fabric.DeviceNeighbors{}, err
		}
		got, err := parse(out[0], out[1])
		if err != nil {
			return fabric.DeviceNeighbors{}, fmt.Errorf("device %q: %w", device, err)
		}
		return got, nil
	}
}

// readSONiCLLDP reads APPL_DB's LLDP table; the hostname and ports come from the CONFIG_DB
// read the switch's resources share. No neighbour anywhere is an absent table (NotFound).
func readSONiCLLDP(ctx context.Context, c gnmiConn, r reads) (fabric.DeviceNeighbors, error) {
	db, err := sonicDB{c, r}.snap(ctx)
	if err != nil {
		return fabric.DeviceNeighbors{}, err
	}
	out := fabric.DeviceNeighbors{Hostname: db.Hostname(), Interfaces: db.Ports()}
	ups, err := c.GetAll(ctx, sonic.LLDPPath()) // sonic-gnmi answers type ALL only
	switch {
	case gnmi.NotFound(err):
		return out, nil
	case err != nil:
		return fabric.DeviceNeighbors{}, err
	}
	for _, u := range ups {
		ns, err := sonic.ParseLLDPTable(u.JSON)
		if err != nil {
			return fabric.DeviceNeighbors{}, fmt.Errorf("device %q: %w", r.device, err)
		}
		out.Neighbors = append(out.Neighbors, ns...)
	}
	return out, nil
}

// readOpenConfigLLDP gets the LLDP state and the configured hostname; either may be absent
// (NotFound: no neighbour heard, no hostname configured).
func readOpenConfigLLDP(ctx context.Context, c gnmiConn, r reads) (fabric.DeviceNeighbors, error) {
	device := r.device
	got, err := c.GetState(ctx, openconfig.LLDPPath())
	if err != nil && !gnmi.NotFound(err) {
		return fabric.DeviceNeighbors{}, err
	}
	hostUps, err := c.Get(ctx, openconfig.HostnamePath())
	if gnmi.NotFound(err) {
		// Not configured through OpenConfig (set natively, or by DHCP): the state has it.
		hostUps, err = c.GetState(ctx, openconfig.HostnameStatePath())
	}
	if err != nil && !gnmi.NotFound(err) {
		return fabric.DeviceNeighbors{}, err
	}
	got = append(got, hostUps...)
	ups := make([]openconfig.Update, 0, len(got))
	for _, u := range got {
		ups = append(ups, openconfig.Update{Path: u.Path, JSON: u.JSON})
	}
	host, ns, err := openconfig.ParseLLDP(ups)
	if err != nil {
		return fabric.DeviceNeighbors{}, fmt.Errorf("device %q: %w", device, err)
	}
	return fabric.DeviceNeighbors{Hostname: host, Neighbors: ns}, nil
}
