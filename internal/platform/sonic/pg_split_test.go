package sonic

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pgKeysOf are port's BUFFER_PG keys (PG or range -> profile).
func pgKeysOf(t *testing.T, d fakeDB, port string) map[string]string {
	t.Helper()
	return d.dbOf(t).PortFields(port).PGs
}

// With only TC 3 lossless, the stock range 3-4 becomes PG 3 alone (TC 4 goes to the lossy PG
// 0, so headroom on PG 4 would be reserved for nothing), and delete brings the range back.
func TestLosslessPGsEqualLosslessTCs(t *testing.T) {
	roundTrip(t, baseDB(t), examplePolicy(), func(d fakeDB) {
		if diff := cmp.Diff(map[string]string{"0": "ingress_lossy_profile", "3": "NULL"}, pgKeysOf(t, d, "Ethernet0")); diff != "" {
			t.Errorf("PGs after create (-want +got):\n%s", diff)
		}
	})
}

// The PFC interface first (its headroom on the stock range 3-4), then the policy: the split
// keeps the headroom on PG 3; the policy's destroy puts the range back with that headroom
// (the PFC interface still reads as configured), and the PFC interface's destroy leaves the
// stock switch.
func TestPGSplitKeepsThePFCHeadroom(t *testing.T) {
	base := baseDB(t)
	d := base.clone()
	pfc := examplePFC()
	pfcPrior := d.dbOf(t).PFCPrior("Ethernet0", *pfc)
	d.set(t)(BuildPFCSet("Ethernet0", nil, pfc, d.dbOf(t), pfcPrior))
	headroom := bufferProfileName("Ethernet0", 122880, 61440)
	if got := pgKeysOf(t, d, "Ethernet0")["3-4"]; got != headroom {
		t.Fatalf("the PFC interface's headroom is not on the stock range: %v", pgKeysOf(t, d, "Ethernet0"))
	}
	p := examplePolicy()
	restore := priorOf(d.dbOf(t), p)
	d.set(t)(BuildSet(nil, p, restore, d.dbOf(t)))
	if diff := cmp.Diff(map[string]string{"0": "ingress_lossy_profile", "3": headroom}, pgKeysOf(t, d, "Ethernet0")); diff != "" {
		t.Errorf("PGs after the policy (-want +got):\n%s", diff)
	}
	checkPFC(t, d, pfc)
	d.set(t)(BuildSet(p, nil, restore, d.dbOf(t)))
	if diff := cmp.Diff(map[string]string{"0": "ingress_lossy_profile", "3-4": headroom}, pgKeysOf(t, d, "Ethernet0")); diff != "" {
		t.Errorf("PGs after the policy's destroy (-want +got):\n%s", diff)
	}
	checkPFC(t, d, pfc)
	d.set(t)(BuildPFCSet("Ethernet0", pfc, nil, d.dbOf(t), pfcPrior))
	if diff := cmp.Diff(base, d); diff != "" {
		t.Errorf("both destroyed (-before +after):\n%s", diff)
	}
}
