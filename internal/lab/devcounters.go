package lab

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"

// A platform-neutral view of every device's request counters, for benchmarks that compare how
// chatty a client is across platforms. It reads the per-device counters (GNMISwitch and
// SONiCSwitch.Counters, Host.Counters, EOSSwitch and NXOSSwitch.Counters); traffic counters
// (interfaces, queues, NIC statistics) are not request counters and are left alone.

// DeviceCounters are the connections a device accepted and the requests it received. Requests
// are gNMI RPCs (Get, Set, Subscribe and Capabilities) on `openconfig` and `sonic` switches,
// SSH exec requests on NIC hosts, and command lines (not empty lines or comments) on `eos` and
// `nxos` switches.
//
// Reads are the requests that read configuration: gNMI Get and Subscribe; every exec request
// on a NIC host (a plan runs no other); `show running-config ...` lines on CLI switches (not
// the terminal set-up a CLI client sends after login).
//
// Writes are gNMI Set RPCs on `openconfig` and `sonic` switches; the other devices do not
// tell their writes apart (0).
type DeviceCounters = device.Counters

// countedDevice is what every platform's device offers to DeviceCounters.
type countedDevice = device.Counted

// DeviceCounters returns the counters of the device with that name; false if the lab has none.
func (l *Lab) DeviceCounters(name string) (DeviceCounters, bool) {
	d, ok := l.devices[name].(countedDevice)
	if !ok {
		return DeviceCounters{}, false
	}
	return d.DeviceCounters(), true
}

// ResetAllCounters sets the request and connection counters of every device back to zero, e.g.
// between benchmark runs. A request in flight may still be counted after it.
func (l *Lab) ResetAllCounters() {
	for _, name := range l.names {
		if d, ok := l.devices[name].(countedDevice); ok {
			d.ResetCounters()
		}
	}
}
