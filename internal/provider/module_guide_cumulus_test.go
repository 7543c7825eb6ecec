package provider

import (
	"encoding/json"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/lab"
)

// The Cumulus leaf of the guides (examples/guides/cumulus-leaf), run as its comment says with
// the real CLI against a lab with one cumulus switch (`rocelab up --switches cumulus=1`): apply,
// an empty plan, the NVUE objects the example's comments name, a change made with curl through
// NVUE's API detected (exit 2) and repaired, and destroy giving back the applied configuration as
// it was.
func TestAccModuleGuideCumulusLeaf(t *testing.T) {
	l := startLab(t, lab.Options{Switches: map[string]int{"cumulus": 1}})
	sw := l.Cumulus("cumulus-1")
	before := withoutEmpty(sw.Applied())
	tf := applyGuide(t, l, "cumulus-leaf")
	a := sw.Applied()
	for what, c := range map[string][2]any{
		"trust l3":                  {at(a, "qos", "mapping", "ROCE", "trust"), "l3"},
		"DSCP 26 -> 3":              {at(a, "qos", "mapping", "ROCE", "dscp", "26", "switch-priority"), json.Number("3")},
		"DSCP 1 -> 0":               {at(a, "qos", "mapping", "ROCE", "dscp", "1", "switch-priority"), json.Number("0")},
		"TC 3 dwrr 50":              {at(a, "qos", "egress-scheduler", "ROCE", "traffic-class", "3", "bw-percent"), json.Number("50")},
		"TC 6 strict":               {at(a, "qos", "egress-scheduler", "ROCE", "traffic-class", "6", "mode"), "strict"},
		"ECN max":                   {at(a, "qos", "congestion-control", "ROCE", "traffic-class", "3", "max-threshold"), json.Number("1500000")},
		"SP 3 -> TC 3":              {at(a, "qos", "egress-queue-mapping", "default-global", "switch-priority", "3", "traffic-class"), json.Number("3")},
		"swp8 bound to PFC profile": {at(a, "interface", "swp8", "qos", "pfc", "profile"), "ROCE"},
		"swp8 watchdog":             {at(a, "interface", "swp8", "qos", "pfc-watchdog", "state"), "enable"},
	} {
		if c[0] != c[1] {
			t.Errorf("%s: NVUE has %v, want %v", what, c[0], c[1])
		}
	}

	// An operator makes traffic class 3 strict with curl, through a revision of their own.
	l.curl(t, "cumulus-1").change("/qos/egress-scheduler/ROCE/traffic-class/3", `{"mode": "strict"}`)
	tf.driftRepaired("a class made strict by hand",
		"# roce_qos_policy.leaf will be updated in-place", "Plan: 0 to add, 1 to change, 0 to destroy.")

	tf.destroy()
	if after := withoutEmpty(sw.Applied()); after != before {
		t.Errorf("destroy did not give back the applied configuration.\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// withoutEmpty renders an NVUE configuration without empty objects: whether NVUE keeps an object
// whose last key was unset is not documented, so destroy is compared on what is configured.
func withoutEmpty(tree map[string]any) string {
	var prune func(map[string]any) map[string]any
	prune = func(m map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			if sub, ok := v.(map[string]any); ok {
				if sub = prune(sub); len(sub) == 0 {
					continue
				}
				v = sub
			}
			out[k] = v
		}
		return out
	}
	b, _ := json.MarshalIndent(prune(tree), "", "  ")
	return string(b)
}
