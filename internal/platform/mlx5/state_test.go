package mlx5

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

func TestNICEqualRules(t *testing.T) {
	got := readFixture(t, "read-full.txt").NICQoS()
	tests := []struct {
		name  string
		edit  func(*fabric.NICQoS)
		equal bool
	}{
		{"contract", func(*fabric.NICQoS) {}, true},
		{"explicit zero DSCP", func(n *fabric.NICQoS) { n.DSCPToPriority[0] = 0 }, true},
		{"explicit zero prio_tc and 0% TC", func(n *fabric.NICQoS) {
			n.PriorityToTC[1] = 0
			n.ETS[7] = fabric.ETSClass{BandwidthPercent: fabric.Ptr(0)}
		}, true},
		{"unmanaged prio_tc, ets, roce_tos", func(n *fabric.NICQoS) { n.PriorityToTC, n.ETS, n.RoCEToS = nil, nil, nil }, true},
		{"pfc order and duplicates", func(n *fabric.NICQoS) { n.PFCPriorities = []int{3, 3} }, true},
		{"one more DSCP", func(n *fabric.NICQoS) { n.DSCPToPriority[46] = 5 }, false},
		{"DSCP missing", func(n *fabric.NICQoS) { delete(n.DSCPToPriority, 48) }, false},
		{"trust pcp", func(n *fabric.NICQoS) { n.Trust = fabric.TrustPCP }, false},
		{"pfc 4", func(n *fabric.NICQoS) { n.PFCPriorities = []int{3, 4} }, false},
		{"prio_tc", func(n *fabric.NICQoS) { n.PriorityToTC[5] = 3 }, false},
		{"ets share", func(n *fabric.NICQoS) { n.ETS[0] = fabric.ETSClass{BandwidthPercent: fabric.Ptr(40)} }, false},
		{"ets strict", func(n *fabric.NICQoS) { n.ETS[7] = fabric.ETSClass{StrictPriority: true} }, false},
		{"roce_tos", func(n *fabric.NICQoS) { n.RoCEToS = fabric.Ptr(104) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := contractNIC()
			tt.edit(&want)
			if NICEqual(want, got) != tt.equal {
				t.Fatalf("NICEqual = %v, want %v", !tt.equal, tt.equal)
			}
			// NICQoSLike returns want itself exactly when equal, so Terraform sees no diff.
			like := readFixture(t, "read-full.txt").NICQoSLike(want)
			if same := cmp.Equal(want, like); same != tt.equal {
				t.Errorf("NICQoSLike equal to want = %v, want %v; diff:\n%s", same, tt.equal, cmp.Diff(want, like))
			}
		})
	}
}

// roce_tos unset on the host reads as nil and differs from any managed value.
func TestNICRoCEToSUnset(t *testing.T) {
	s := readFixture(t, "read-full.txt")
	s.RoCEToS = nil
	if NICEqual(contractNIC(), s.NICQoS()) {
		t.Error("unset global traffic class equals roce_tos 106")
	}
	if like := s.NICQoSLike(contractNIC()); like.RoCEToS != nil {
		t.Errorf("roce_tos = %v", *like.RoCEToS)
	}
}

func TestDCQCNLike(t *testing.T) {
	want := contractDCQCN()
	want.NotificationPoint = nil
	s := readFixture(t, "read-full.txt")
	if got := s.DCQCNLike(want); !cmp.Equal(want, got) || !DCQCNEqual(want, got) {
		t.Errorf("DCQCNLike (-want +got):\n%s", cmp.Diff(want, got))
	}
	// roce_rp and roce_np disagree: the priority shows as the opposite of what want asks for.
	s.NP[3], s.RP[5] = 0, 1
	got := s.DCQCNLike(want)
	if !cmp.Equal(got.Priorities, []int{5}) || DCQCNEqual(want, got) {
		t.Errorf("priorities = %v", got.Priorities)
	}
	if plain := s.DCQCN(); plain.Priorities != nil {
		t.Errorf("DCQCN() priorities = %v, want none (no priority has both enabled)", plain.Priorities)
	}
	// np_cnp_prio_mode 1: np_cnp_prio is not in effect.
	s.CCParams[ccCNPPrioMode] = 1
	if got := s.DCQCNLike(want); got.CNPPriority != -1 {
		t.Errorf("cnp_priority = %d", got.CNPPriority)
	}
	// A parameter the host lacks is missing from the rebuilt profile, hence a difference.
	delete(s.CCParams, "rp_gd")
	if _, ok := s.DCQCNLike(want).ReactionPoint["gd"]; ok {
		t.Error("gd present")
	}
}

func TestSnapshotJSON(t *testing.T) {
	s, nic, d := contractOnFullHost(t)
	snap := s.Snapshot(&nic, &d)
	b, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "snapshot.json", string(b)+"\n")
	var back Snapshot
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snap, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if len(back.DCQCN.CC) != 20 || back.NIC.RoCEToS == nil || *back.NIC.RoCEToS != 106 {
		t.Errorf("snapshot = %s", b)
	}
	// Only what is managed is recorded.
	nic.PriorityToTC, nic.ETS, nic.RoCEToS = nil, nil, nil
	small := s.Snapshot(&nic, nil)
	if small.DCQCN != nil || small.NIC.PrioTC != nil || small.NIC.TSA != nil || small.NIC.RoCEToS != nil || small.NIC.DSCP2Prio == nil {
		t.Errorf("snapshot = %+v", small.NIC)
	}
	s.RoCEToS = nil
	if tos := s.Snapshot(&fabric.NICQoS{RoCEToS: fabric.Ptr(1)}, nil).NIC.RoCEToS; tos == nil || *tos != -1 {
		t.Errorf("unset traffic class recorded as %v", tos)
	}
}
