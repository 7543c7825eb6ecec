package lab

import (
	"slices"
	"testing"
)

// TestSONiCInLab: the lab lists its sonic switches in the inventory and finds them by platform
// (the switch itself is room sonic's tests).
func TestSONiCInLab(t *testing.T) {
	l := startLab(t, Options{Switches: map[string]int{"sonic": 2}, Ports: 8})
	inv := l.Inventory()
	d := inv.Devices["sonic-2"]
	if d.Platform != "sonic" || d.CACertificate == "" || d.Username != Username {
		t.Errorf("inventory entry %+v", d)
	}
	want := []string{"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12", "Ethernet16", "Ethernet20", "Ethernet24", "Ethernet28"}
	if got := inv.Interfaces["sonic-2"]; !slices.Equal(got, want) {
		t.Errorf("interfaces %v, want %v", got, want)
	}
	if l.SONiC("sonic-2") == nil || l.SONiC("nope") != nil || l.Switch("sonic-1") != nil {
		t.Error("SONiC/Switch lookups by platform are wrong")
	}
}
