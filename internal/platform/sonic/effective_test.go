package sonic

import (
	"slices"
	"testing"
)

// The stock AZURE configuration (sonic-cfggen's rendering of a real platform template, none of
// its objects named as this provider names them) is read as what Ethernet0 does.
func TestEffectiveStockAzure(t *testing.T) {
	db := baseDB(t).dbOf(t)
	if _, ok := db.Policy("AZURE"); ok {
		t.Fatal("the name-based read found AZURE: this test would not show the effective read is needed")
	}
	policies, pfcs := db.Effective()
	if len(policies) != 2 || policies[0].Interfaces[0] != "Ethernet0" || policies[1].Interfaces[0] != "Ethernet4" {
		t.Fatalf("policies %+v, want Ethernet0's and Ethernet4's (the global key and Ethernet8 classify nothing)", policies)
	}
	p := policies[0]
	if p.Name != "AZURE" || p.Trust != "dscp" {
		t.Errorf("policy %q trust %q", p.Name, p.Trust)
	}
	tc3, ok := p.Classes["tc3"]
	if !ok || !tc3.Lossless || !slices.Contains(tc3.DSCP, 3) || tc3.ECN == nil || tc3.BandwidthPercent == nil {
		t.Errorf("tc3 = %+v, want lossless (pfc_enable 3,4), DSCP 3, the scheduler's DWRR weight and AZURE_LOSSLESS's ECN", tc3)
	}
	if tc1 := p.Classes["tc1"]; tc1.Lossless || !slices.Contains(tc1.DSCP, 26) {
		t.Errorf("tc1 = %+v: the stock map sends DSCP 26 to TC 1, lossy", tc1)
	}
	if len(pfcs) != 2 || pfcs[0].Interface != "Ethernet0" || pfcs[0].Mode != "on" {
		t.Errorf("pfc %+v", pfcs)
	}
}
