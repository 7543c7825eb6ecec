package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestDriftPorts(t *testing.T) {
	var ports []string
	for s := 1; s <= 8; s++ {
		for p := range 32 {
			ports = append(ports, fmt.Sprintf("sonic-%d/Ethernet%d", s, 4*p))
		}
	}
	got := DriftPorts(ports)
	if len(got) != 13 { // ceil(5% of 256)
		t.Fatalf("%d drifted ports, want 13", len(got))
	}
	if got[0] != "sonic-1/Ethernet0" || got[12] != "sonic-8/Ethernet48" {
		t.Errorf("drifted ports %v", got)
	}
	switches := map[string]bool{}
	for _, p := range got {
		sw, _, _ := strings.Cut(p, "/")
		switches[sw] = true
	}
	if len(switches) != 8 {
		t.Errorf("drift on %d switches, want it spread over all 8", len(switches))
	}
	if DriftPorts(nil) != nil || len(DriftPorts(ports[:16])) != 1 {
		t.Error("small fabrics")
	}
}

func TestDriftPaths(t *testing.T) {
	paths := DriftPaths([]string{"sonic-1/Ethernet0", "sonic-2/Ethernet8", "sonic-1/Ethernet80"})
	if len(paths) != 2 || len(paths["sonic-1"]) != 2 {
		t.Fatalf("paths %v", paths)
	}
	p := paths["sonic-2"][0]
	var names []string
	for _, e := range p.GetElem() {
		names = append(names, e.GetName())
	}
	if p.GetOrigin() != "sonic-db" || !slices.Equal(names, []string{"CONFIG_DB", "localhost", "PFC_WD", "Ethernet8", "detection_time"}) {
		t.Errorf("path %s %v", p.GetOrigin(), names)
	}
}

func TestSetOutOfBandBadCA(t *testing.T) {
	err := SetOutOfBand(context.Background(), InventoryDevice{Address: "127.0.0.1:1", CACertificate: "nope"}, nil, "300")
	if err == nil || !strings.Contains(err.Error(), "CA certificate") {
		t.Errorf("err = %v", err)
	}
}

// A drift plan changes a resource per drifted port per interface, but map-keyed only the
// roce_pfc_interfaces of each switch with a drifted port.
func TestDriftChanges(t *testing.T) {
	ports := []string{"sonic-1/Ethernet0", "sonic-1/Ethernet8", "sonic-2/Ethernet4", "sonic-10/Ethernet0"}
	if got := DriftChanges(ports, PerInterface); got != 4 {
		t.Errorf("per interface: %d changes, want 4", got)
	}
	if got := DriftChanges(ports, MapKeyed); got != 3 {
		t.Errorf("map-keyed: %d changes, want 3 (one per switch)", got)
	}
	if got := DriftChanges(nil, MapKeyed); got != 0 {
		t.Errorf("no drift: %d changes", got)
	}
}
