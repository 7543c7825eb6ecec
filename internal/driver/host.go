package driver

import (
	"fmt"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// NICQoS manages roce_nic_qos on one host. Check reads the host and reports what would make
// an apply fail: a missing netdev (the error lists those the host has), firmware-controlled
// DCBX, a running lldpad. Read returns the host's settings shaped like managed (nil on import:
// everything), or nil when the netdev is gone.
type NICQoS = Keyed[fabric.NICQoS]

// DCQCN manages roce_dcqcn_profile on one host.
type DCQCN = Keyed[fabric.DCQCN]

// CheckHostDevice reports, at plan time, a host resource placed on a device that is not a host.
func CheckHostDevice(dev devices.Device, resourceType string) fabric.Problems {
	var probs fabric.Problems
	if platforms[dev.Platform].host == nil {
		probs.Add(fabric.Root("device"), "Platform does not support "+resourceType,
			fmt.Sprintf("Device %q has platform %s: %s configures NIC hosts (platform mlx5), not switches.", dev.Name, dev.Platform, resourceType))
	}
	return probs
}

func openHost(reg *devices.Registry, device string) (*mlx5Host, error) {
	return openDriver(reg, device, func(d platformDriver) func(*devices.Registry, string) (*mlx5Host, error) { return d.host },
		func(platformDriver) string { return "which is not a NIC host" })
}

// ForNICQoS returns the roce_nic_qos driver of a configured host.
func ForNICQoS(reg *devices.Registry, device string) (NICQoS, error) {
	return over(openHost, func(h *mlx5Host) NICQoS { return nicDriver{h} })(reg, device)
}

// ForDCQCN returns the roce_dcqcn_profile driver of a configured host.
func ForDCQCN(reg *devices.Registry, device string) (DCQCN, error) {
	return over(openHost, func(h *mlx5Host) DCQCN { return dcqcnDriver{h} })(reg, device)
}
