package eos

// The QoS policy in EOS text both ways: the lines PolicyLines writes, and the policy a
// running-config reads as (Policy, Canonical), each checked against the other.

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

// roundTrips pairs policies with the running-config a switch prints after PolicyLines created
// them on testdata/base-running-config.txt (each written by hand in the layout of
// internal/lab/eos-switch.md: only map entries that differ from the default, one line per
// target; queues with their non-default lines).
func roundTrips() map[string]*fabric.QoSPolicy {
	pcp := examplePolicy()
	pcp.Trust = fabric.TrustPCP
	pcp.DefaultTrafficClass = 1 // no class has TC 1: unlisted DSCPs and CoS values go there
	pcp.Interfaces = []string{"Ethernet4"}
	allDSCP := examplePolicy()
	allDSCP.DefaultTrafficClass = 5 // no DSCP is left for it, but CoS values are
	fabrictest.WithClass(allDSCP, "roce", func(c *fabric.Class) {
		c.DSCP = nil
		for d := 1; d < 64; d++ {
			if d != 48 {
				c.DSCP = append(c.DSCP, d)
			}
		}
	})
	noPCP := examplePolicy()
	for n, c := range noPCP.Classes {
		c.ECN, c.PCP, c.Lossless = nil, nil, false
		noPCP.Classes[n] = c
	}
	noPCP.Interfaces = nil
	return map[string]*fabric.QoSPolicy{
		"after-create.txt":          examplePolicy(),
		"after-update.txt":          updatedPolicy(),
		"after-create-pcp.txt":      pcp,
		"after-create-all-dscp.txt": allDSCP,
		"after-create-no-pcp.txt":   noPCP,
	}
}

// Each policy reads back from the switch's text as Canonical(policy); the lines that would
// create it on the base switch parse as a profile with the same queues.
func TestRoundTrip(t *testing.T) {
	for file, p := range roundTrips() {
		t.Run(file, func(t *testing.T) {
			c := running.File(t, file)
			got, ok := c.Policy(p.Name, p)
			fabrictest.CheckRead(t, Canonical(*p), got, ok)
			ls, err := PolicyLines(running.File(t, "base-running-config.txt"), nil, p, PolicyPrior{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.Profiles[p.Name], profileOf(t, ls)); diff != "" {
				t.Errorf("the profile the lines write and the one the switch prints differ (-printed +written):\n%s", diff)
			}
		})
	}
}

// profileOf parses the qos profile PolicyLines output writes: its lines indented by mode, as a
// running-config prints them.
func profileOf(t *testing.T, ls []string) *Profile {
	t.Helper()
	c := running.Text(t, clitexttest.Indent(t, ls, "   ", enters))
	if len(c.Profiles) != 1 {
		t.Fatalf("lines hold %d profiles", len(c.Profiles))
	}
	for _, p := range c.Profiles {
		// The switch prints only non-default lines: `no bandwidth percent` and `no random-detect
		// ecn` leave nothing behind, so neither form has a nil field the other lacks.
		return p
	}
	return nil
}

// Drift the read shows rather than hides.
func TestReadDrift(t *testing.T) {
	text := goldenfile.Read(t, "testdata/after-create.txt")
	fabrictest.CheckDrift(t, text, Canonical(*examplePolicy()), map[string]fabrictest.Drift{
		"ECN in segments reads Unknown": {"minimum-threshold 150 kbytes", "minimum-threshold 150 segments",
			fabrictest.MinThresholdReads("roce", Unknown)},
		"marking on an averaged queue reads an Unknown probability": {"max-mark-probability 100 weight 0", "max-mark-probability 100 weight 4",
			fabrictest.MarkingReads("roce", Unknown)},
		"marking without its counter reads an Unknown probability": {"      random-detect ecn count\n", "", fabrictest.MarkingReads("roce", Unknown)},
		"share on a default-strict queue reads strict too": {"   tx-queue 0\n      bandwidth percent 50\n      no priority\n",
			"   tx-queue 0\n      bandwidth percent 50\n", func(p *fabric.QoSPolicy) bool {
				c := p.Classes["default"]
				return c.StrictPriority && *c.BandwidthPercent == 50
			}},
		"a strict queue without a class is a class": {"   tx-queue 6\n", "   tx-queue 5\n      priority strict\n   !\n   tx-queue 6\n",
			func(p *fabric.QoSPolicy) bool { return p.Classes["tc5"].StrictPriority && p.DefaultTrafficClass == 0 }},
		"an unbound port drops out": {"interface Ethernet2\n   service-profile ROCE\n", "interface Ethernet2\n",
			func(p *fabric.QoSPolicy) bool { return cmp.Equal(p.Interfaces, []string{"Ethernet1"}) }},
		"trust removed": {"   qos trust dscp\n", "",
			func(p *fabric.QoSPolicy) bool { return p.Trust == "" }},
		"no-drop removed": {"   priority-flow-control priority 3 no-drop\n", "",
			func(p *fabric.QoSPolicy) bool { return !p.Classes["roce"].Lossless }},
		"a DSCP moved to a classless TC": {"qos map dscp 0 1", "qos map dscp 1",
			func(p *fabric.QoSPolicy) bool { return p.DefaultTrafficClass == 1 && p.Classes["default"].DSCP[0] == 1 }},
		"TC 6 to queue 3 reads queue 3's scheduling": {"!\nend", "qos map traffic-class 6 to tx-queue 3\n!\nend",
			func(p *fabric.QoSPolicy) bool {
				return !p.Classes["cnp"].StrictPriority && *p.Classes["cnp"].BandwidthPercent == 50
			}},
	}, func(text string) (*fabric.QoSPolicy, bool) {
		return running.Text(t, text).Policy("ROCE", examplePolicy())
	})
	// EOS's default probability is 100: a line without it is what the policy asks.
	got, _ := running.Text(t, strings.Replace(text, " max-mark-probability 100", "", 1)).Policy("ROCE", examplePolicy())
	if !Canonical(*examplePolicy()).Equal(*got) {
		t.Errorf("a random-detect line without max-mark-probability reads %+v", got.Classes["roce"].ECN)
	}
	if _, ok := running.File(t, "after-create.txt").Policy("AI", nil); ok {
		t.Error("Policy(AI) found without a qos profile AI")
	}
}

// Without state classes are named tc<N>; a state class already named tc<N> for another TC
// does not make two classes share a name.
func TestPolicyClassNames(t *testing.T) {
	c := running.File(t, "after-create.txt")
	got, _ := c.Policy("ROCE", nil)
	if len(got.Classes) != 3 || got.Classes["tc3"].ECN == nil || !got.Classes["tc6"].StrictPriority || got.Classes["tc3"].PCP != nil {
		t.Errorf("imported classes = %+v", got.Classes)
	}
	known := examplePolicy()
	known.Classes["tc3"] = known.Classes["cnp"]
	delete(known.Classes, "cnp")
	delete(known.Classes, "roce")
	got, _ = c.Policy("ROCE", known)
	if _, ok := got.Classes["tc3_"]; !ok || !got.Classes["tc3"].StrictPriority || len(got.Classes) != 3 {
		t.Errorf("classes = %+v", got.Classes)
	}
}

func TestCanonical(t *testing.T) {
	got := Canonical(*examplePolicy())
	if got.DefaultTrafficClass != 0 || len(got.Classes["default"].DSCP) != 62 || got.Classes["default"].PCP != nil ||
		!cmp.Equal(got.Classes["roce"].PCP, []int{3}) {
		t.Errorf("Canonical(example) = %+v", got)
	}
	pcp := examplePolicy()
	pcp.Trust = fabric.TrustPCP
	got = Canonical(*pcp)
	if !cmp.Equal(got.Classes["cnp"].PCP, []int{}) || !cmp.Equal(got.Classes["default"].PCP, []int{0, 1, 2, 4, 5, 6, 7}) {
		t.Errorf("Canonical(trust pcp) = %+v", got)
	}
	mtu := fabrictest.WithClass(examplePolicy(), "cnp", func(c *fabric.Class) { c.MTU = fabric.Ptr(9000) })
	if Canonical(*mtu).Classes["cnp"].MTU != nil {
		t.Error("Canonical keeps an mtu EOS cannot read back")
	}
	if p := examplePolicy(); len(p.Classes["default"].DSCP) != 1 || p.Classes["cnp"].PCP != nil {
		t.Error("Canonical modified its input")
	}
}
