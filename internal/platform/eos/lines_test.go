package eos

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext/clitexttest"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// basePrior is what the driver records on the base switch for the ports the example and the
// updated policy bind: Ethernet2 had profile LEGACY, the maps a CoS 5 and a DSCP 46 entry.
func basePrior(t *testing.T) PolicyPrior {
	t.Helper()
	return running.File(t, "base-running-config.txt").PolicyPrior([]string{"Ethernet1", "Ethernet2", "Ethernet3"})
}

// Each transaction (platformtest.Dialect.PolicySteps) keeps to the session's modes.
func TestPolicyLinesGolden(t *testing.T) {
	dialect.GoldenPolicyLines(t, func(t *testing.T, _ platformtest.PolicyStep, got []string) { checkModes(t, got) })
}

// checkModes asserts the session discipline (clitexttest.CheckModes): end, commit and abort
// are the transport's.
func checkModes(t *testing.T, ls []string) {
	t.Helper()
	clitexttest.CheckModes(t, ls, 2, enters, func(l string) bool { return l == "end" || l == "commit" || l == "abort" })
}

// enters reports whether a configuration line enters a sub-mode.
func enters(l string) bool {
	return strings.HasPrefix(l, "qos profile ") || strings.HasPrefix(l, "interface ") || strings.HasPrefix(l, "tx-queue ")
}

// Every map a policy writes is whole: 64 DSCPs, 8 CoS values (when owned), 8 TCs.
func TestPolicyLinesMapsWhole(t *testing.T) {
	got, err := PolicyLines(nil, nil, examplePolicy(), PolicyPrior{})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, l := range got {
		f := strings.Fields(l)
		if len(f) > 3 && f[0] == "qos" && f[1] == "map" {
			count[f[2]] += slices.Index(f, "to") - 3
		}
	}
	if diff := cmp.Diff(map[string]int{"dscp": 64, "cos": 8, "traffic-class": 8}, count); diff != "" {
		t.Errorf("map entries written (-want +got):\n%s", diff)
	}
	noPCP := fabrictest.WithClass(examplePolicy(), "roce", func(c *fabric.Class) { c.PCP = nil })
	got, _ = PolicyLines(nil, nil, noPCP, PolicyPrior{})
	for _, l := range got {
		if strings.HasPrefix(l, "qos map cos") {
			t.Errorf("a policy without pcp writes the CoS map: %q", l)
		}
	}
	// An update dropping the last pcp gives the CoS map back to the prior.
	got, _ = PolicyLines(nil, examplePolicy(), noPCP, basePrior(t))
	if !slices.Contains(got, "no qos map cos 0 1 2 3 4 5 6 7") || !slices.Contains(got, "qos map cos 5 to traffic-class 4") {
		t.Errorf("update without pcp does not restore the CoS map:\n%s", goldenfile.Lines(got))
	}
}

// Without a recorded prior (after import) delete returns the maps to EOS's defaults and
// removes the bindings.
func TestPolicyLinesDeleteWithoutPrior(t *testing.T) {
	got, err := PolicyLines(running.File(t, "after-create.txt"), examplePolicy(), nil, PolicyPrior{})
	clitexttest.WantLines(t, "delete without prior", got, err,
		"no qos profile ROCE",
		"no qos map dscp "+allKeys(64),
		"no qos map cos 0 1 2 3 4 5 6 7",
		"no qos map traffic-class 0 1 2 3 4 5 6 7 to tx-queue",
		"interface Ethernet1", "no service-profile", "exit",
		"interface Ethernet2", "no service-profile", "exit")
}

// The device read just before decides only what would change nothing or is no longer ours.
func TestPolicyLinesUsesDevice(t *testing.T) {
	c := running.File(t, "after-create.txt")
	c.Interfaces["Ethernet1"].ServiceProfile = ""         // unbound by hand: nothing to undo
	c.Interfaces["Ethernet2"].ServiceProfile = "OPERATOR" // rebound by hand: not ours to take back
	delete(c.Profiles, "ROCE")                            // profile removed by hand
	got, err := PolicyLines(c, examplePolicy(), nil, basePrior(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range got {
		if strings.HasPrefix(l, "interface ") || strings.HasPrefix(l, "no qos profile") {
			t.Errorf("unexpected line %q in\n%s", l, goldenfile.Lines(got))
		}
	}
	delete(c.Interfaces, "Ethernet1")
	c.Interfaces["Ethernet2"].ServiceProfile = "ROCE"
	got, _ = PolicyLines(c, examplePolicy(), nil, basePrior(t))
	if slices.Contains(got, "interface Ethernet1") || !slices.Contains(got, "service-profile LEGACY") {
		t.Errorf("a port the switch no longer has is skipped, the others restored:\n%s", goldenfile.Lines(got))
	}
	// A prior naming the policy itself (say, recorded on a retried create) counts as none.
	prior := basePrior(t)
	prior.ServiceProfiles["Ethernet2"] = "ROCE"
	got, _ = PolicyLines(c, examplePolicy(), nil, prior)
	if !slices.Contains(got, "no service-profile") {
		t.Errorf("prior naming ROCE:\n%s", goldenfile.Lines(got))
	}
}

func TestPolicyLinesRejects(t *testing.T) {
	mod := func(f func(p *fabric.QoSPolicy)) *fabric.QoSPolicy { p := examplePolicy(); f(p); return p }
	for name, tc := range map[string]struct {
		old, next *fabric.QoSPolicy
		want      string
	}{
		"nothing":  {nil, nil, "needs an old or a next policy"},
		"old name": {fabrictest.Renamed(examplePolicy(), ""), nil, "old policy has no name"},
		"dscp_pcp": {nil, mod(func(p *fabric.QoSPolicy) { p.Trust = fabric.TrustDSCPPCP }), "trust: EOS trusts one field"},
		"mtu":      {nil, fabrictest.WithClass(examplePolicy(), "cnp", func(c *fabric.Class) { c.MTU = fabric.Ptr(9000) }), `classes["cnp"].mtu`},
		"kbytes": {nil, fabrictest.WithClass(examplePolicy(), "roce", func(c *fabric.Class) { c.ECN.MinThresholdBytes = 150000 }),
			"not a whole number of kbytes"},
		"invalid": {nil, mod(func(p *fabric.QoSPolicy) { p.DefaultTrafficClass = 9 }), "default_traffic_class 9 out of range"},
		"long":    {nil, fabrictest.Renamed(examplePolicy(), strings.Repeat("x", 33)), "at most 32 characters"},
	} {
		if _, err := PolicyLines(nil, tc.old, tc.next, PolicyPrior{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", name, err, tc.want)
		}
	}
}

func TestPolicyPrior(t *testing.T) {
	got := running.File(t, "base-running-config.txt").PolicyPrior([]string{"Ethernet2", "Ethernet4", "Ethernet99"})
	want := PolicyPrior{DSCPToTC: defaultDSCP(), COSToTC: cosDefault, TCToQueue: defaultTCToQueue(),
		ServiceProfiles: map[string]string{"Ethernet2": "LEGACY", "Ethernet4": "", "Ethernet99": ""}}
	want.DSCPToTC[46], want.COSToTC[5] = 6, 4
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PolicyPrior (-want +got):\n%s", diff)
	}
	if s := goldenfile.JSON(t, got); !strings.Contains(s, `"dscp_to_tc"`) || !strings.Contains(s, `"service_profiles"`) {
		t.Errorf("JSON form: %s", s)
	}
}
