package nxos

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
// updated policy bind: Ethernet1/2 had qos input LEGACY, system qos the platform default.
func basePrior(t *testing.T) PolicyPrior {
	t.Helper()
	return running.File(t, "base-running-config.txt").PolicyPrior([]string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3"})
}

// Each transaction (platformtest.Dialect.PolicySteps), replayed on the switch text it was
// computed from, passes NX-OS's reference checks and leaves the switch as the next policy
// reads (Canonical(next)), or, after a delete, as the base switch reads.
func TestPolicyLinesGolden(t *testing.T) {
	dialect.GoldenPolicyLines(t, func(t *testing.T, tc platformtest.PolicyStep, got []string) {
		after := replay(t, goldenfile.Read(t, "testdata/"+tc.Device), got)
		if tc.Next != nil {
			read, ok := after.Policy(tc.Next.Name, tc.Next)
			if !ok {
				t.Fatalf("after the lines there is no policy %s", tc.Next.Name)
			}
			if diff := cmp.Diff(Canonical(*tc.Next), *read); diff != "" {
				t.Errorf("after the lines (-canonical +read):\n%s", diff)
			}
			if tc.Old != nil && tc.Old.Name != tc.Next.Name {
				if _, ok := after.Policy(tc.Old.Name, nil); ok || len(after.ClassMaps) != 4 || len(after.Queuing) != 2 {
					t.Errorf("rename left old objects: %s", goldenfile.JSON(t, after))
				}
			}
			return
		}
		if diff := cmp.Diff(running.File(t, "base-running-config.txt"), settled(after)); diff != "" {
			t.Errorf("after delete (-base +replayed):\n%s", diff)
		}
	})
}

// Without a recorded prior (after import) delete binds the platform's default network-qos
// policy and removes the port bindings.
func TestPolicyLinesDeleteWithoutPrior(t *testing.T) {
	got, err := PolicyLines(running.File(t, "after-create.txt"), examplePolicy(), nil, PolicyPrior{})
	clitexttest.WantLines(t, "delete without prior", got, err,
		"interface Ethernet1/1", "no service-policy type qos input ROCE", "exit",
		"interface Ethernet1/2", "no service-policy type qos input ROCE", "exit",
		// The queuing policy is system-wide: unbound there, system qos is back on default-8q-out-policy.
		"system qos", "service-policy type network-qos default-8q-nq-policy", "no service-policy type queuing output ROCE-out", "exit",
		"no policy-map type qos ROCE", "no policy-map type queuing ROCE-out", "no policy-map type network-qos ROCE-nq",
		"no class-map type qos ROCE-cnp", "no class-map type qos ROCE-default", "no class-map type qos ROCE-roce")
}

// The device read just before decides what exists and what is still ours.
func TestPolicyLinesUsesDevice(t *testing.T) {
	text := goldenfile.Read(t, "testdata/after-create.txt")
	text = strings.Replace(text, "interface Ethernet1/1\n  service-policy type qos input ROCE\n",
		"interface Ethernet1/1\n  service-policy type qos input OPERATOR\n", 1) // rebound by hand: not ours
	text = strings.Replace(text, "interface Ethernet1/3\n", "interface Ethernet1/3\n  service-policy type qos input ROCE\n", 1)
	text += "class-map type qos match-any OPERATOR-x\npolicy-map type qos OPERATOR\n  class ROCE-cnp\n  class OPERATOR-x\n"
	c := running.Text(t, text)
	got, err := PolicyLines(c, examplePolicy(), nil, basePrior(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"interface Ethernet1/2", "no service-policy type qos input ROCE", "service-policy type qos input LEGACY", "exit",
		// attached by hand, not in the policy: detached so that the policy-map can go
		"interface Ethernet1/3", "no service-policy type qos input ROCE", "exit",
		"system qos", "service-policy type network-qos default-8q-nq-policy", "no service-policy type queuing output ROCE-out", "exit",
		"no policy-map type qos ROCE", "no policy-map type queuing ROCE-out", "no policy-map type network-qos ROCE-nq",
		// ROCE-cnp is used by OPERATOR: kept
		"no class-map type qos ROCE-default", "no class-map type qos ROCE-roce",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("delete (-want +got):\n%s", diff)
	}
	replay(t, text, got)
	// A prior naming the policy itself (say, recorded on a retried create) counts as none.
	prior := basePrior(t)
	prior.Ports["Ethernet1/2"] = PortPolicies{QoSInput: "ROCE", QueuingOutput: "ROCE-out"}
	prior.NetworkQoS = "ROCE-nq"
	got, _ = PolicyLines(running.File(t, "after-create.txt"), examplePolicy(), nil, prior)
	if slices.Contains(got, "service-policy type qos input ROCE") || !slices.Contains(got, "service-policy type network-qos default-8q-nq-policy") {
		t.Errorf("prior naming ROCE:\n%s", goldenfile.Lines(got))
	}
	// Nothing left to do: a second delete after the first writes nothing.
	after := replay(t, goldenfile.Read(t, "testdata/after-create.txt"), mustLines(t, running.File(t, "after-create.txt"), examplePolicy(), nil))
	if got := mustLines(t, after, examplePolicy(), nil); len(got) != 0 {
		t.Errorf("delete of a deleted policy: %q", got)
	}
	// An update that changes nothing rewrites the policy-maps only.
	for _, l := range mustLines(t, running.File(t, "after-create.txt"), examplePolicy(), examplePolicy()) {
		if strings.HasPrefix(l, "class-map") || strings.HasPrefix(l, "interface") || l == "system qos" || strings.HasPrefix(l, "no ") {
			t.Errorf("update without change writes %q", l)
		}
	}
}

func mustLines(t *testing.T, c *Config, old, next *fabric.QoSPolicy) []string {
	t.Helper()
	ls, err := PolicyLines(c, old, next, basePrior(t))
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// Switching a queue between strict and a share, or from `bandwidth percent`, removes the
// conflicting line first; a class-map of the other match type is re-entered with its type.
func TestPolicyLinesConflicts(t *testing.T) {
	c := running.Text(t, `class-map type qos match-all ROCE-roce
  match dscp 26
  match precedence 3
policy-map type queuing ROCE-out
  class type queuing c-out-8q-q6
    bandwidth percent 10
  class type queuing c-out-8q-q3
    priority level 2
    random-detect threshold burst-optimized ecn
`)
	got := mustLines(t, c, nil, examplePolicy())
	for _, want := range [][]string{
		{"class-map type qos match-all ROCE-roce", "no match precedence 3", "exit"},
		// Level 1 is the control queue 7's (no class uses it): the strict CNP class is level 2.
		{"class type queuing c-out-8q-q6", "no bandwidth percent", "priority level 2", "exit"},
		{"class type queuing c-out-8q-q3", "no priority", "bandwidth remaining percent 50", "random-detect "},
	} {
		i := slices.Index(got, want[0])
		if i < 0 || len(got) < i+len(want) {
			t.Fatalf("no %q in\n%s", want[0], goldenfile.Lines(got))
		}
		for j, w := range want {
			if !strings.HasPrefix(got[i+j], w) {
				t.Errorf("line %d after %q = %q, want %q", j, want[0], got[i+j], w)
			}
		}
	}
}

func TestPolicyLinesRejects(t *testing.T) {
	mod := func(f func(p *fabric.QoSPolicy)) *fabric.QoSPolicy { p := examplePolicy(); f(p); return p }
	c := running.File(t, "base-running-config.txt")
	for name, tc := range map[string]struct {
		c         *Config
		old, next *fabric.QoSPolicy
		want      string
	}{
		"nothing":   {c, nil, nil, "needs an old or a next policy"},
		"no device": {nil, nil, examplePolicy(), "needs the device's running-config"},
		"old name":  {c, fabrictest.Renamed(examplePolicy(), ""), nil, "old policy has no name"},
		"dscp_pcp":  {c, nil, mod(func(p *fabric.QoSPolicy) { p.Trust = fabric.TrustDSCPPCP }), "trust: NX-OS class-maps cannot"},
		"kbytes": {c, nil, fabrictest.WithClass(examplePolicy(), "roce", func(c *fabric.Class) { c.ECN.MinThresholdBytes = 150000 }),
			"not a whole number of kbytes"},
		"invalid": {c, nil, mod(func(p *fabric.QoSPolicy) { p.DefaultTrafficClass = 9 }), "default_traffic_class 9 out of range"},
		"long":    {c, nil, fabrictest.Renamed(examplePolicy(), strings.Repeat("x", 37)), "use at most 36 characters"},
	} {
		if _, err := PolicyLines(tc.c, tc.old, tc.next, PolicyPrior{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", name, err, tc.want)
		}
	}
}

func TestPolicyPrior(t *testing.T) {
	c := running.File(t, "after-update.txt")
	got := c.PolicyPrior([]string{"Ethernet1/2", "Ethernet1/3", "Ethernet1/9"})
	want := PolicyPrior{NetworkQoS: "ROCE-nq", QueuingOutput: "ROCE-out", Ports: map[string]PortPolicies{
		"Ethernet1/2": {QoSInput: "LEGACY"}, "Ethernet1/3": {QoSInput: "ROCE"}, "Ethernet1/9": {}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PolicyPrior (-want +got):\n%s", diff)
	}
	if s := goldenfile.JSON(t, got); !strings.Contains(s, `"network_qos"`) || !strings.Contains(s, `"qos_input"`) || !strings.Contains(s, `"queuing_output"`) {
		t.Errorf("JSON form: %s", s)
	}
}

func TestForeignNetworkQoS(t *testing.T) {
	for _, tc := range []struct {
		system, policy, want string
		foreign              bool
	}{
		{"", "ROCE", "", false},
		{DefaultNetworkQoS, "ROCE", "", false},
		{"ROCE-nq", "ROCE", "", false},
		{"ROCE-nq", "AI", "ROCE-nq", true},
		{"QOS_NETWORK", "ROCE", "QOS_NETWORK", true},
	} {
		c := running.Text(t, "system qos\n  service-policy type network-qos "+tc.system+"\n")
		if got, foreign := c.ForeignNetworkQoS(tc.policy); got != tc.want || foreign != tc.foreign {
			t.Errorf("system qos %q, policy %s: got %q %v", tc.system, tc.policy, got, foreign)
		}
		if err := c.CheckCreate("nxos-1", tc.policy); (err != nil) != tc.foreign {
			t.Errorf("CheckCreate: %v", err)
		}
	}
	// The Azure sample binds its own QOS_NETWORK: creating a policy there is refused, naming
	// the policy to import.
	err := running.Text(t, sample(t)).CheckCreate("tor-1", "ROCE")
	for _, want := range []string{"network-qos policy QOS_NETWORK", "tor-1/<name of its policy-map type qos>",
		"its policy-map type qos: AZLocal_SERVICES"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckCreate on the sample: %v, want %q", err, want)
		}
	}
}

// Egress queuing is bound in system qos; a bound port's own queuing output, which would hide
// it, is removed while the port is bound and comes back when the policy lets go.
func TestPolicyLinesQueuingSystemWide(t *testing.T) {
	text := strings.Replace(goldenfile.Read(t, "testdata/base-running-config.txt"), "interface Ethernet1/2\n  service-policy type qos input LEGACY\n",
		"interface Ethernet1/2\n  service-policy type qos input LEGACY\n  service-policy type queuing output LEGACY-out\n", 1)
	text += "policy-map type queuing LEGACY-out\n  class type queuing c-out-8q-q3\n    bandwidth remaining percent 10\n"
	c := running.Text(t, text)
	prior := c.PolicyPrior(examplePolicy().Interfaces)
	create := mustLines(t, c, nil, examplePolicy())
	for _, want := range []string{"service-policy type queuing output ROCE-out", "no service-policy type queuing output LEGACY-out"} {
		if !slices.Contains(create, want) {
			t.Errorf("create lacks %q:\n%s", want, goldenfile.Lines(create))
		}
	}
	after := replay(t, text, create)
	if after.System.QueuingOutput != "ROCE-out" || after.Interfaces["Ethernet1/2"].QueuingOutput != "" {
		t.Errorf("after create: system queuing %q, Ethernet1/2 queuing %q", after.System.QueuingOutput, after.Interfaces["Ethernet1/2"].QueuingOutput)
	}
	if p, _ := after.Policy("ROCE", examplePolicy()); !slices.Contains(p.Interfaces, "Ethernet1/2") {
		t.Errorf("Ethernet1/2 does not read as bound: %v", p.Interfaces)
	}
	del, err := PolicyLines(after, examplePolicy(), nil, prior)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"no service-policy type queuing output ROCE-out", "service-policy type queuing output LEGACY-out"} {
		if !slices.Contains(del, want) {
			t.Errorf("delete lacks %q:\n%s", want, goldenfile.Lines(del))
		}
	}
}
