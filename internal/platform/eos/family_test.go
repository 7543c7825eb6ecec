package eos

import (
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

func TestFamilyOf(t *testing.T) {
	for _, c := range []struct {
		model, image string
		want         Family
		ok           bool
	}{
		{"DCS-7060CX-32S", "", FamilyStrata, true}, {"DCS-7050SX3-48YC12-F", "Default", FamilyStrata, true},
		{"DCS-7280SR3-48YC8", "", FamilySand, true}, {"DCS-7280CR3-32P4-F", "Default", FamilySand, true},
		{"vEOS-lab", "None", FamilyStrata, true}, {"cEOSLab", "None", FamilySand, true},
		{"CCS-720XP-48ZC2-F", "Strata-4GB", FamilyStrata, true}, {"DCS-7999X", "Sand-4GB", FamilySand, true},
		{"DCS-7999X", "Default", "", false},
	} {
		if got, ok := FamilyOf(c.model, c.image); got != c.want || ok != c.ok {
			t.Errorf("FamilyOf(%q, %q) = %q %v, want %q %v", c.model, c.image, got, ok, c.want, c.ok)
		}
	}
	for v, before := range map[string]bool{"4.31.2F": true, "4.25.1F-20348152.oslorel (engineering build)": true,
		"4.33.0F": false, "4.35.1F": false, "5.0": false, "": true, "x.y": true} {
		if got := queue7Before(v); got != before {
			t.Errorf("queue7Before(%q) = %v", v, got)
		}
	}
}

// On a Strata switch every queue line of the profile is uc-tx-queue: blocks, and the removal of
// a class's block on an update.
func TestPolicyLinesStrata(t *testing.T) {
	c := running.File(t, "after-create.txt")
	c.Family = FamilyStrata
	next, old := examplePolicy(), examplePolicy()
	delete(next.Classes, "default")
	roce := next.Classes["roce"]
	roce.BandwidthPercent = fabric.Ptr(100)
	next.Classes["roce"] = roce
	got, err := PolicyLines(c, old, next, basePrior(t))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got, "uc-tx-queue 3") || !slices.Contains(got, "no uc-tx-queue 0") {
		t.Errorf("Strata lines:\n%s", goldenfile.Lines(got))
	}
	for _, l := range got {
		if strings.HasPrefix(l, "tx-queue") || strings.HasPrefix(l, "no tx-queue") {
			t.Errorf("Sand's %q on Strata:\n%s", l, goldenfile.Lines(got))
		}
	}
	p := *examplePolicy()
	for name, cl := range p.Classes {
		if cl.TrafficClass == 6 {
			cl.TrafficClass = 7
			p.Classes[name] = cl
		}
	}
	if err := CheckFamily(FamilySand, "4.31.2F", p); err == nil || !strings.Contains(err.Error(), "traffic class 7") {
		t.Errorf("Sand 4.31, class on TC 7: %v", err)
	}
	if err := CheckFamily(FamilySand, "4.33.1F", p); err != nil {
		t.Errorf("Sand 4.33: %v", err)
	}
	if err := CheckFamily(FamilyStrata, "4.31.2F", p); err != nil {
		t.Errorf("Strata: %v", err)
	}
}
