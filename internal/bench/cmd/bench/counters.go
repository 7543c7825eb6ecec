package main

import (
	"github.com/rocefabric/terraform-provider-roce/internal/bench"
	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// labCounters reads the lab's per-device counters: connections accepted and requests served
// (gNMI RPCs on a switch, SSH exec requests on a host).
type labCounters struct{ l *lab.Lab }

func (c labCounters) ResetAll() { c.l.ResetAllCounters() }

func (c labCounters) Count(device string) (bench.DeviceCount, bool) {
	dc, ok := c.l.DeviceCounters(device)
	return bench.DeviceCount{Connections: dc.Connections, Requests: dc.Requests, Reads: dc.Reads, Writes: dc.Writes}, ok
}
