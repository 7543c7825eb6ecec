// Package fabrictest holds the intents the platform packages' tests write: the contract's
// roce_qos_policy example, the same for every platform, which each platform's tests trim to
// what it carries. Only tests import it (by convention: it holds no provider logic).
package fabrictest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// ExamplePolicy is the contract's roce_qos_policy example bound to ports: roce (TC 3, DSCP 26,
// PCP 3, lossless, mtu 9216, 50 %, ECN 150/1500 KiB marking every packet), cnp (TC 6, DSCP
// 48, strict), default (TC 0, DSCP 0, 50 %), trust dscp, default traffic class 0.
func ExamplePolicy(ports ...string) *fabric.QoSPolicy {
	return &fabric.QoSPolicy{
		Name:                "ROCE",
		Trust:               fabric.TrustDSCP,
		DefaultTrafficClass: 0,
		Classes: map[string]fabric.Class{
			"roce": {TrafficClass: 3, DSCP: []int{26}, PCP: []int{3}, BandwidthPercent: fabric.Ptr(50), Lossless: true, MTU: fabric.Ptr(9216),
				ECN: &fabric.ECN{MinThresholdBytes: 153600, MaxThresholdBytes: 1536000, MarkProbabilityPercent: 100}},
			"cnp":     {TrafficClass: 6, DSCP: []int{48}, StrictPriority: true},
			"default": {TrafficClass: 0, DSCP: []int{0}, BandwidthPercent: fabric.Ptr(50)},
		},
		Interfaces: ports,
	}
}

// StorageClass is the class the update examples add: lossless TC 4 for DSCP 32 and 34, 10 %,
// ECN 80/800 KiB marking 5 %.
func StorageClass() fabric.Class {
	return fabric.Class{TrafficClass: 4, DSCP: []int{32, 34}, BandwidthPercent: fabric.Ptr(10), Lossless: true,
		ECN: &fabric.ECN{MinThresholdBytes: 81920, MaxThresholdBytes: 819200, MarkProbabilityPercent: 5}}
}

// WithClass returns p with class n changed by f.
func WithClass(p *fabric.QoSPolicy, n string, f func(c *fabric.Class)) *fabric.QoSPolicy {
	c := p.Classes[n]
	f(&c)
	p.Classes[n] = c
	return p
}

// WithoutMTU returns p with no class setting an mtu (for platforms that have none).
func WithoutMTU(p *fabric.QoSPolicy) *fabric.QoSPolicy {
	for n := range p.Classes {
		WithClass(p, n, func(c *fabric.Class) { c.MTU = nil })
	}
	return p
}

// Renamed returns a copy of p named name (its classes shared).
func Renamed(p *fabric.QoSPolicy, name string) *fabric.QoSPolicy {
	q := *p
	q.Name = name
	return &q
}

// Reasons renders Unsupported results as "attribute: reason" lines.
func Reasons(us []fabric.Unsupported) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.String())
	}
	return out
}

// CheckUnsupported asserts that got (a platform's CheckSupported) names exactly the attributes
// want, in order, each with a reason containing the text after the attribute ("attr: text").
func CheckUnsupported(t *testing.T, name string, got []fabric.Unsupported, want ...string) {
	t.Helper()
	lines := Reasons(got)
	if len(lines) != len(want) {
		t.Errorf("%s: got %q, want %d entries %q", name, lines, len(want), want)
		return
	}
	for i, w := range want {
		attr, reason, _ := strings.Cut(w, ": ")
		gotAttr, gotReason, _ := strings.Cut(lines[i], ": ")
		if gotAttr != attr || !strings.Contains(gotReason, reason) {
			t.Errorf("%s [%d]: got %q, want attribute %s with a reason containing %q", name, i, lines[i], attr, reason)
		}
	}
}

// WithPorts returns a copy of p bound to ports (its classes shared).
func WithPorts(p *fabric.QoSPolicy, ports []string) *fabric.QoSPolicy {
	q := *p
	q.Interfaces = ports
	return &q
}

// CheckRead asserts that read, the policy a platform read back from a device after writing
// canonical's policy, was found and is canonical, field by field (cmp.Diff) and by
// QoSPolicy.Equal, the comparison the provider's plans make.
func CheckRead(t *testing.T, canonical fabric.QoSPolicy, read *fabric.QoSPolicy, found bool) {
	t.Helper()
	if !found {
		t.Fatalf("Policy(%q) not found", canonical.Name)
	}
	if diff := cmp.Diff(canonical, *read); diff != "" {
		t.Errorf("Policy (-canonical +read):\n%s", diff)
	}
	if !canonical.Equal(*read) {
		t.Error("Canonical(p).Equal(read) is false")
	}
}

// Drift is one change to a device's text (the first From replaced by To) and what the policy
// read from the changed text shows (Shows). An unnamed struct type, so that the tests' tables
// list their drifts as {from, to, shows}.
type Drift = struct {
	From, To string
	Shows    func(p *fabric.QoSPolicy) bool
}

// MinThresholdReads is a Drift's Shows: class's ECN minimum threshold reads as v (a
// platform's Unknown, for a threshold in a unit it cannot convert).
func MinThresholdReads(class string, v int64) func(p *fabric.QoSPolicy) bool {
	return func(p *fabric.QoSPolicy) bool { return p.Classes[class].ECN.MinThresholdBytes == v }
}

// MarkingReads is a Drift's Shows: class's ECN marking probability reads as v (a platform's
// Unknown, for marking the policy's writer would not have written).
func MarkingReads(class string, v int) func(p *fabric.QoSPolicy) bool {
	return func(p *fabric.QoSPolicy) bool { return p.Classes[class].ECN.MarkProbabilityPercent == v }
}

// CheckDrift applies each drift to text and reads the policy back (read): the read must show
// the drift, and must not equal canonical, the policy the unchanged text reads as (a drift that
// reads as no change would be hidden from the plan).
func CheckDrift(t *testing.T, text string, canonical fabric.QoSPolicy, drifts map[string]Drift,
	read func(text string) (*fabric.QoSPolicy, bool)) {
	t.Helper()
	for name, d := range drifts {
		changed := strings.Replace(text, d.From, d.To, 1)
		if changed == text {
			t.Fatalf("%s: %q not in the text", name, d.From)
		}
		got, ok := read(changed)
		if !ok || !d.Shows(got) {
			t.Errorf("%s: read %+v", name, got)
			continue
		}
		if canonical.Equal(*got) {
			t.Errorf("%s: the drift reads as no change", name)
		}
	}
}

// Step is one write of a policy's life: from old to next (nil: none).
type Step struct {
	Name      string
	Old, Next *fabric.QoSPolicy
}

// GoldenStep is a write of a policy from Old to Next (nil: none) whose request or lines are in
// the golden file Golden; unnamed, as PFCCase.
type GoldenStep = struct {
	Golden    string
	Old, Next *fabric.QoSPolicy
}

// Lifecycle is every write a policy read from a device can meet again: create, update to
// itself, unbind from every port, rename (to renamed) and delete.
func Lifecycle(p *fabric.QoSPolicy, renamed string) []Step {
	return []Step{
		{"create", nil, p}, {"update", p, p}, {"unbind", p, WithPorts(p, nil)},
		{"rename", p, Renamed(p, renamed)}, {"delete", p, nil},
	}
}

// Edited returns p after edit changed it.
func Edited(p *fabric.QoSPolicy, edit func(p *fabric.QoSPolicy)) *fabric.QoSPolicy {
	edit(p)
	return p
}

// Updated is the update every platform's tests make of the example: the roce class's ECN
// changed to ecn and its share to 40 %, the lossless storage class (StorageClass) added, and
// the policy bound to ports instead.
func Updated(p *fabric.QoSPolicy, ecn fabric.ECN, ports ...string) *fabric.QoSPolicy {
	WithClass(p, "roce", func(c *fabric.Class) { c.ECN, c.BandwidthPercent = &ecn, fabric.Ptr(40) })
	p.Classes["storage"] = StorageClass()
	p.Interfaces = ports
	return p
}

// PFCCase is a roce_pfc_interface and what a platform reports unsupported in it
// (CheckUnsupported's want). An unnamed struct, so that a platform's table lists its cases
// without field names.
type PFCCase = struct {
	P    fabric.PFCInterface
	Want []string
}

// CheckPFCCases runs a platform's CheckPFC on each case.
func CheckPFCCases(t *testing.T, check func(fabric.PFCInterface) []fabric.Unsupported, cases map[string]PFCCase) {
	t.Helper()
	for name, tc := range cases {
		CheckUnsupported(t, name, check(tc.P), tc.Want...)
	}
}

// PFCEdits builds cases from a platform's example: mod edits a fresh example, wd its watchdog.
func PFCEdits(example func() *fabric.PFCInterface) (mod func(func(*fabric.PFCInterface)) fabric.PFCInterface,
	wd func(func(*fabric.PFCWatchdog)) fabric.PFCInterface) {
	mod = func(f func(p *fabric.PFCInterface)) fabric.PFCInterface { p := example(); f(p); return *p }
	wd = func(f func(w *fabric.PFCWatchdog)) fabric.PFCInterface {
		return mod(func(p *fabric.PFCInterface) { f(p.Watchdog) })
	}
	return mod, wd
}

// WithSonicOnlyActions adds to a CLI platform's cases the watchdog actions only SONiC has
// (forward, alert), each refused with a pointer to the sonic platform; wd edits the
// platform's example (PFCEdits).
func WithSonicOnlyActions(wd func(func(*fabric.PFCWatchdog)) fabric.PFCInterface, cases map[string]PFCCase) map[string]PFCCase {
	for name, action := range map[string]string{"forward": fabric.WatchdogForward, "alert": fabric.WatchdogAlert} {
		cases[name] = PFCCase{wd(func(w *fabric.PFCWatchdog) { w.Action = action }), []string{"watchdog.action: sonic platform only"}}
	}
	return cases
}

// PolicyCase is a roce_qos_policy and what a platform reports unsupported in it
// (CheckUnsupported's want); unnamed, as PFCCase.
type PolicyCase = struct {
	P    *fabric.QoSPolicy
	Want []string
}

// CheckPolicyCases runs a platform's CheckSupported on each case.
func CheckPolicyCases(t *testing.T, check func(fabric.QoSPolicy) []fabric.Unsupported, cases map[string]PolicyCase) {
	t.Helper()
	for name, tc := range cases {
		CheckUnsupported(t, name, check(*tc.P), tc.Want...)
	}
}

// ManyUnsupported is p with a 40-character name, trust dscp_pcp and mtu on its roce class:
// what a CLI platform refuses on three attributes at once (reported sorted by attribute).
func ManyUnsupported(p *fabric.QoSPolicy, mtu int) *fabric.QoSPolicy {
	p = WithClass(Renamed(p, strings.Repeat("b", 40)), "roce", func(c *fabric.Class) { c.MTU = fabric.Ptr(mtu) })
	p.Trust = fabric.TrustDSCPPCP
	return p
}

// PFCStep is one write of a roce_pfc_interface's life: from Old to Next (nil: none), its
// lines in the golden file Golden.
type PFCStep struct {
	Golden    string
	Old, Next *fabric.PFCInterface
}

// PFCLifecycle is the life of example (a fresh one each call) on its port: create, update to
// updated, unmanage (PFC off, link pause on, nothing else managed) and delete.
func PFCLifecycle(example func() *fabric.PFCInterface, updated *fabric.PFCInterface) []PFCStep {
	unmanaged := &fabric.PFCInterface{Interface: example().Interface, Mode: fabric.PFCModeOff, LinkPause: true}
	return []PFCStep{
		{"pfc-create.golden", nil, example()},
		{"pfc-update.golden", example(), updated},
		{"pfc-unmanage.golden", example(), unmanaged},
		{"pfc-delete.golden", example(), nil},
	}
}

// PolicyEdits builds cases from a platform's example: mod edits a fresh example, class one
// class of a policy.
func PolicyEdits(example func() *fabric.QoSPolicy) (mod func(func(*fabric.QoSPolicy)) *fabric.QoSPolicy,
	class func(*fabric.QoSPolicy, string, func(*fabric.Class))) {
	mod = func(f func(p *fabric.QoSPolicy)) *fabric.QoSPolicy { return Edited(example(), f) }
	class = func(p *fabric.QoSPolicy, n string, f func(c *fabric.Class)) { WithClass(p, n, f) }
	return mod, class
}

// RejectCase is a policy and what its refusal must say; unnamed, as PFCCase.
type RejectCase = struct {
	P    *fabric.QoSPolicy
	Want string
}

// CheckRejects checks that build (a platform's request builder, from old to next) refuses
// each case's policy, created, with an error containing its Want, and refuses to build
// nothing from nothing.
func CheckRejects(t *testing.T, build func(old, next *fabric.QoSPolicy) error, cases map[string]RejectCase) {
	t.Helper()
	for name, tc := range cases {
		if err := build(nil, tc.P); err == nil || !strings.Contains(err.Error(), tc.Want) {
			t.Errorf("%s: err = %v, want it to contain %q", name, err, tc.Want)
		}
	}
	if err := build(nil, nil); err == nil {
		t.Error("building from nil to nil succeeded")
	}
}
