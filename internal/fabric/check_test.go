package fabric

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// refPolicy is the contract's policy bound to Ethernet1 only, the port refFabric gives PFC.
func refPolicy() QoSPolicy {
	p := contractPolicy()
	p.Interfaces = []string{"Ethernet1"}
	return p
}

// refFabric is the contract's example, fully consistent: two leaves with the contract's policy
// and PFC (with watchdog) on Ethernet1, two GPU hosts with the contract's NIC QoS and DCQCN.
func refFabric() Fabric {
	return Fabric{
		Policies: []SwitchPolicy{{"leaf-1", refPolicy()}, {"leaf-2", refPolicy()}},
		PFC:      []SwitchPFC{{"leaf-1", contractPFC()}, {"leaf-2", contractPFC()}},
		NICs:     []HostNIC{{"gpu-1", contractNIC()}, {"gpu-2", contractNIC()}},
		DCQCN:    []HostDCQCN{{"gpu-1", contractDCQCN()}, {"gpu-2", contractDCQCN()}},
	}
}

// wantFinding describes an expected finding: exact rule, severity and device, and words the
// message must contain.
type wantFinding struct {
	rule, severity, device string
	words                  []string
}

func errorOn(rule, device string, words ...string) wantFinding {
	return wantFinding{rule, SeverityError, device, words}
}

func warningOn(rule, device string, words ...string) wantFinding {
	return wantFinding{rule, SeverityWarning, device, words}
}

// checkCase is an edit of a base fabric and the findings Check reports on it.
type checkCase struct {
	name string
	edit func(*Fabric)
	want []wantFinding
}

// checkEdits runs Check on a fresh base fabric edited by each case, in a subtest, asserting the
// case's findings and then more (when not nil) on what Check returned.
func checkEdits(t *testing.T, base func() Fabric, cases []checkCase, more func(t *testing.T, c checkCase, got []Finding)) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := base()
			c.edit(&f)
			got := Check(f)
			assertFindings(t, got, c.want)
			if more != nil {
				more(t, c, got)
			}
		})
	}
}

func assertFindings(t *testing.T, got []Finding, want []wantFinding) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d:\n%s", len(got), len(want), dump(got))
	}
	for i, w := range want {
		g := got[i]
		if g.Rule != w.rule || g.Severity != w.severity || g.Device != w.device {
			t.Errorf("finding %d = %s %s %q, want %s %s %q\n%s", i, g.Rule, g.Severity, g.Device,
				w.rule, w.severity, w.device, g.Message)
		}
		for _, word := range w.words {
			if !strings.Contains(g.Message, word) {
				t.Errorf("finding %d (%s %s): message lacks %q:\n%s", i, g.Rule, g.Device, word, g.Message)
			}
		}
		if !strings.HasSuffix(g.Message, ".") || strings.ToUpper(g.Message[:1]) != g.Message[:1] {
			t.Errorf("finding %d: message is not a sentence: %q", i, g.Message)
		}
	}
}

func dump(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Rule + " " + f.Severity + " " + f.Device + ": " + f.Message + "\n")
	}
	return b.String()
}

func TestCheckReferenceFabric(t *testing.T) {
	f := refFabric()
	for _, sp := range f.Policies {
		checkOne(t, sp.Policy.Validate(), "", "")
	}
	for _, e := range f.PFC {
		checkOne(t, e.PFC.Validate(), "", "")
	}
	for _, h := range f.NICs {
		checkOne(t, h.NIC.Validate(), "", "")
	}
	for _, h := range f.DCQCN {
		checkOne(t, h.DCQCN.Validate(), "", "")
	}
	got := Check(f)
	assertFindings(t, got, nil)
	if !OK(got) {
		t.Error("OK = false for the reference fabric")
	}
}

func TestCheckPartialFabrics(t *testing.T) {
	ref := refFabric()
	tests := []struct {
		name string
		f    Fabric
	}{
		{"empty", Fabric{}},
		{"switches only", Fabric{Policies: ref.Policies, PFC: ref.PFC}},
		{"policies only, no lossless class", Fabric{Policies: []SwitchPolicy{{"leaf-1", func() QoSPolicy {
			p := refPolicy()
			class(&p, "roce", func(c *Class) { c.Lossless = false })
			return p
		}()}}}},
		{"hosts only", Fabric{NICs: ref.NICs, DCQCN: ref.DCQCN}},
		{"one NIC", Fabric{NICs: ref.NICs[:1]}},
		{"one DCQCN", Fabric{DCQCN: ref.DCQCN[:1]}},
		{"PFC only", Fabric{PFC: ref.PFC}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertFindings(t, Check(tt.f), nil)
		})
	}
}

func TestOK(t *testing.T) {
	warn := Finding{Severity: SeverityWarning, Rule: "R11", Device: "leaf-1", Message: "W."}
	fail := Finding{Severity: SeverityError, Rule: "R1", Device: "gpu-1", Message: "E."}
	if !OK(nil) || !OK([]Finding{warn}) {
		t.Error("OK = false without error findings")
	}
	if OK([]Finding{warn, fail}) {
		t.Error("OK = true with an error finding")
	}
}

// Findings come out in the same order whatever the order of the inputs, and the inputs are
// left untouched.
func TestCheckDeterministicAndPure(t *testing.T) {
	build := func() Fabric {
		f := refFabric()
		f.NICs[1].NIC.PFCPriorities = []int{4, 3}
		f.NICs[0].NIC.RoCEToS = Ptr(104)
		f.PFC[0].PFC.Watchdog = nil
		f.Policies = append(f.Policies, SwitchPolicy{"leaf-3", refPolicy()})
		class(&f.Policies[2].Policy, "roce", func(c *Class) { c.DSCP = []int{24} })
		return f
	}
	f := build()
	want := Check(f)
	if !reflect.DeepEqual(f, build()) {
		t.Fatal("Check modified its input")
	}
	if len(want) < 5 {
		t.Fatalf("expected several findings, got:\n%s", dump(want))
	}
	for i := 0; i < 10; i++ {
		g := build()
		slices.Reverse(g.Policies)
		slices.Reverse(g.PFC)
		slices.Reverse(g.NICs)
		slices.Reverse(g.DCQCN)
		if got := Check(g); !reflect.DeepEqual(got, want) {
			t.Fatalf("order changed with input order:\n%s\nwant:\n%s", dump(got), dump(want))
		}
	}
	for i := 1; i < len(want); i++ {
		a, b := want[i-1], want[i]
		if ruleNumber(a.Rule) > ruleNumber(b.Rule) ||
			(a.Rule == b.Rule && (a.Device > b.Device || (a.Device == b.Device && a.Message > b.Message))) {
			t.Errorf("findings %d and %d out of order:\n%s", i-1, i, dump(want))
		}
	}
}
