package nxos

import (
	"strings"
	"testing"
)

// The chassis lines of real show version captures (ntc-templates, napalm), and the refusal of a
// Nexus 3000 by chassis or configured model.
func TestChassis(t *testing.T) {
	for out, want := range map[string]string{
		"Hardware\n  cisco Nexus9000 C93180YC-FX3 Chassis\n  Intel(R) Xeon(R)":         "Nexus9000 C93180YC-FX3",
		"Hardware\n  cisco Nexus3000 C3232C Chassis (Nexus 9000 Series)\n":             "Nexus3000 C3232C",
		"Hardware\n  cisco Nexus 3048 Chassis (\"48x1GE + 4x10G Supervisor\")\n":       "Nexus 3048",
		"Hardware\n  cisco Nexus9000 C9396PX Chassis \n  Intel(R) Xeon(R) CPU E5-2403": "Nexus9000 C9396PX",
		"no chassis here": "",
	} {
		if got := Chassis(out); got != want {
			t.Errorf("Chassis(%q) = %q, want %q", out, got, want)
		}
	}
	for _, c := range []struct {
		chassis, model string
		refused        bool
	}{
		{"Nexus9000 C93180YC-FX", "", false}, {"Nexus3000 C3232C", "", true}, {"Nexus 3048", "", true},
		{"", "N3K-C3172PQ", true}, {"", "N9K-C93180YC-FX", false}, {"", "", false},
	} {
		err := CheckChassis(c.chassis, c.model)
		if (err != nil) != c.refused || err != nil && !strings.Contains(err.Error(), "Nexus 3000") {
			t.Errorf("CheckChassis(%q, %q) = %v", c.chassis, c.model, err)
		}
	}
}
