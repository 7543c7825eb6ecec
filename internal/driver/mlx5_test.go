package driver

import (
	"encoding/json"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
)

func TestMergeSnapshotKeepsValuesFromBeforeCreate(t *testing.T) {
	tc := [8]int{0, 0, 0, 3, 0, 0, 6, 0}
	old, _ := json.Marshal(mlx5.Snapshot{Interface: "eth0",
		NIC:   &mlx5.NICSnapshot{Trust: "pcp"},
		DCQCN: &mlx5.DCQCNSnapshot{CC: map[string]uint32{"rp_ai_rate": 5}}})
	// An update that now also manages priority_to_tc and rp_hai_rate, read after our create
	// changed trust and rp_ai_rate.
	fresh := mlx5.Snapshot{Interface: "eth0",
		NIC:   &mlx5.NICSnapshot{Trust: "dscp", PrioTC: &tc},
		DCQCN: &mlx5.DCQCNSnapshot{CC: map[string]uint32{"rp_ai_rate": 10, "rp_hai_rate": 50}}}
	raw, err := mergeSnapshot(old, fresh)
	if err != nil {
		t.Fatal(err)
	}
	var got mlx5.Snapshot
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got.NIC.Trust != "pcp" || got.NIC.PrioTC == nil || *got.NIC.PrioTC != tc {
		t.Errorf("NIC: want trust from before create and prio_tc from its first touch, got %+v", got.NIC)
	}
	if got.DCQCN.CC["rp_ai_rate"] != 5 || got.DCQCN.CC["rp_hai_rate"] != 50 {
		t.Errorf("CC: want rp_ai_rate 5 (before create) and rp_hai_rate 50 (first touch), got %v", got.DCQCN.CC)
	}
	if _, err := mergeSnapshot(Prior("{"), fresh); err == nil {
		t.Error("corrupt private state must be an error")
	}
}

func TestTrimSnapshotWritesOnlyWhatChanged(t *testing.T) {
	snap := mlx5.Snapshot{DCQCN: &mlx5.DCQCNSnapshot{
		RP: [8]int{1, 1, 1, 1, 1, 1, 1, 1}, NP: [8]int{1, 1, 1, 1, 1, 1, 1, 1},
		CC: map[string]uint32{"rp_ai_rate": 5, "rp_hai_rate": 50, "np_cnp_prio": 6, "np_cnp_prio_mode": 1},
	}}
	cur := &mlx5.HostState{RP: [8]int{1, 1, 1, 0, 1, 1, 1, 1}, NP: [8]int{1, 1, 1, 1, 1, 1, 1, 1},
		CCParams: map[string]uint32{"rp_ai_rate": 5, "rp_hai_rate": 100, "np_cnp_prio": 3, "np_cnp_prio_mode": 1}}
	got := trimSnapshot(snap, cur).DCQCN
	if got.RP != [8]int{-1, -1, -1, 1, -1, -1, -1, -1} || got.NP != [8]int{-1, -1, -1, -1, -1, -1, -1, -1} {
		t.Errorf("enables: RP %v NP %v", got.RP, got.NP)
	}
	want := map[string]uint32{"rp_hai_rate": 50, "np_cnp_prio": 6, "np_cnp_prio_mode": 1}
	if len(got.CC) != len(want) {
		t.Fatalf("CC = %v, want %v", got.CC, want)
	}
	for k, v := range want {
		if got.CC[k] != v {
			t.Errorf("CC[%s] = %d, want %d (mode is rewritten because writing np_cnp_prio resets it)", k, got.CC[k], v)
		}
	}
	if snap.DCQCN.RP[0] != 1 {
		t.Error("trimSnapshot must not modify its input")
	}
}
