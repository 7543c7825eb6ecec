package lab

import (
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/gnmiswitch"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/sonic"
)

// GNMISwitch is an `openconfig` switch: a gNMI server over TLS whose datastore is
// openconfig/lemming's (room gnmiswitch).
type GNMISwitch = gnmiswitch.Switch

// SONiCSwitch is a `sonic` switch as sonic-gnmi presents one (room sonic).
type SONiCSwitch = sonic.Switch

// Counters are the RPCs a gNMI switch received (authenticated or not) and the TCP connections
// it accepted, for benchmarks that measure how chatty a client is.
type Counters = gnmiswitch.Counters

var (
	startGNMISwitch  = gnmiswitch.Start
	startSONiCSwitch = sonic.Start
	sonicSKUNames    = sonic.Models
)

// SONiCModels lists the SONiC models the lab simulates, the default first.
func SONiCModels() []string { return sonic.Models() }
