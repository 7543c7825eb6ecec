package lab

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/nxos"

// NXOSSwitch is an `nxos` switch: Cisco NX-OS's CLI over SSH (room nxos, nxos-switch.md).
type NXOSSwitch = nxos.Switch
