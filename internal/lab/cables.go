package lab

// The Lab's cables (internal/cabling is the patch panel and what each port hears over LLDP).

import (
	"errors"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
)

// Cable joins two device ports. The inventory lists the lab's cables as `links`.
type Cable = cabling.Cable

// Recable moves the far end of device's port to peer's peerPort (both ports' old cables are
// unplugged): a NIC cabled to the wrong leaf, a swapped uplink.
func (l *Lab) Recable(device, port, peer, peerPort string) error {
	if l.wires == nil {
		return errors.New("the lab is not cabled")
	}
	return l.wires.Connect([]Cable{{A: device, APort: port, B: peer, BPort: peerPort}})
}

// Cables returns the lab's cabling, each cable once.
func (l *Lab) Cables() []Cable {
	if l.wires == nil {
		return nil
	}
	return l.wires.Cables()
}

// SaveInventory rewrites dir's inventory.json (after Recable: its links), as Start wrote it.
func (l *Lab) SaveInventory(dir string) error { return writeFiles(dir, l.Inventory(), l.ca.PEM) }
