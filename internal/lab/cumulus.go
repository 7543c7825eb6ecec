package lab

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cumulus"

// CumulusSwitch is a `cumulus` switch: NVUE's REST API over HTTPS (room cumulus).
type CumulusSwitch = cumulus.Switch

var startCumulusSwitch = cumulus.Start

// Cumulus returns the `cumulus` switch with that name, or nil if there is none.
func (l *Lab) Cumulus(name string) *CumulusSwitch { return deviceAs[*CumulusSwitch](l, name) }
