package lab

// The CLI switches (`eos`, `nxos`): their shared machinery is room cliswitch.

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"

// CLICounters are the SSH connections a CLI switch accepted and the command lines it ran.
type CLICounters = cliswitch.Counters
