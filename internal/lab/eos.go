package lab

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/eos"

// EOSSwitch is an `eos` switch: Arista EOS's CLI over SSH (room eos, eos-switch.md).
type EOSSwitch = eos.Switch

// EOSSession is a pending configuration session of an `eos` switch (EOSSwitch.Sessions).
type EOSSession = eos.Session
