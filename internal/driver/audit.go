package driver

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Audit reads what a device really applies, whatever its objects are called: each
// platform's effective read (sonic, eos and nxos Effective/Policy over the configuration the
// resources' refreshes share; the host read's per-netdev state on mlx5). ports are ports the
// caller wants covered even where the configuration has no line for them (NX-OS prints only
// ports with QoS lines).
//
// Audit returns device's effective QoS as roce_fabric_check's inputs: one policy per bound
// switch port (named after the device's own policy or map), each port's PFC, each NIC's QoS and
// DCQCN.
func Audit(ctx context.Context, reg *devices.Registry, device string, ports []string) (fabric.Fabric, error) {
	dev, d, err := platformOf(reg, device)
	if err != nil {
		return fabric.Fabric{}, err
	}
	read := d.audit
	if read == nil {
		return fabric.Fabric{}, fmt.Errorf("device %q has platform %s, whose configuration this provider version cannot audit yet (it can: %s)",
			device, dev.Platform, strings.Join(sortedPlatformsWith(hasAudit), ", "))
	}
	return read(ctx, reg, device, ports)
}

// AuditDevices returns the configured devices whose platform has an audit read, sorted.
func AuditDevices(reg *devices.Registry) []string {
	return devicesWith(reg, hasAudit)
}

func hasAudit(d platformDriver) bool { return d.audit != nil }

func switchFabric(device string, policies []fabric.QoSPolicy, pfcs []fabric.PFCInterface) fabric.Fabric {
	var f fabric.Fabric
	for _, p := range policies {
		f.Policies = append(f.Policies, fabric.SwitchPolicy{Device: device, Policy: p})
	}
	for _, p := range pfcs {
		f.PFC = append(f.PFC, fabric.SwitchPFC{Device: device, PFC: p})
	}
	return f
}

func auditOpenConfig(ctx context.Context, reg *devices.Registry, device string, _ []string) (fabric.Fabric, error) {
	c, err := reg.GNMI(device)
	if err != nil {
		return fabric.Fabric{}, err
	}
	t, err := (&openConfigQoS{c: c, reads: newReads(reg, device)}).tree(ctx)
	if err != nil {
		return fabric.Fabric{}, err
	}
	return switchFabric(device, t.Effective(), nil), nil
}

func auditSONiC(ctx context.Context, reg *devices.Registry, device string, _ []string) (fabric.Fabric, error) {
	c, err := reg.GNMI(device)
	if err != nil {
		return fabric.Fabric{}, err
	}
	db, err := sonicDB{c, newReads(reg, device)}.snap(ctx)
	if err != nil {
		return fabric.Fabric{}, err
	}
	policies, pfcs := db.Effective()
	return switchFabric(device, policies, pfcs), nil
}

// auditHost reads every netdev the host's read queried with its QoS tool (ports, not VFs or
// representors), and its DCQCN where it is enabled on some priority.
func auditHost(ctx context.Context, reg *devices.Registry, device string, _ []string) (fabric.Fabric, error) {
	h, err := openMLX5(reg, device)
	if err != nil {
		return fabric.Fabric{}, err
	}
	states, err := devices.Snapshot(ctx, reg, device, "mlx5 host", h.readHost)
	if err != nil {
		return fabric.Fabric{}, err
	}
	var f fabric.Fabric
	for _, ifname := range slices.Sorted(maps.Keys(states)) {
		st := states[ifname]
		if st.QoSSkipped || st.QoSError != nil || !h.present(st, ifname) {
			continue
		}
		n := st.NICQoS()
		n.Interface = ifname
		f.NICs = append(f.NICs, fabric.HostNIC{Device: device, NIC: n})
		d, err := dcqcnDriver{h}.Read(ctx, ifname, nil)
		if err != nil {
			return fabric.Fabric{}, err
		}
		if d != nil && len(d.Priorities) > 0 {
			d.Interface = ifname
			f.DCQCN = append(f.DCQCN, fabric.HostDCQCN{Device: device, DCQCN: *d})
		}
	}
	return f, nil
}
