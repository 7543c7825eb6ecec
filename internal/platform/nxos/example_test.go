package nxos

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

// azurePolicy is the intent of the Azure Local TOR reference (testdata/
// nxos-running-config-ipqos-1.txt) as a roce_qos_policy: CoS 3 is lossless RDMA with 50 %
// and ECN at 300 kbytes, CoS 7 the cluster heartbeat, the rest the default class; every
// class has mtu 9216. The reference gives the heartbeat `bandwidth percent 1` of the link and
// the default 48 % of the rest; the policy's shares are all of the rest and sum to 100, so
// the default class gets 49.
func azurePolicy() *fabric.QoSPolicy {
	ecn := &fabric.ECN{MinThresholdBytes: 300 * fabric.KiB, MaxThresholdBytes: 300 * fabric.KiB, MarkProbabilityPercent: 100}
	return &fabric.QoSPolicy{
		Name:  "AZLocal_SERVICES",
		Trust: fabric.TrustPCP,
		Classes: map[string]fabric.Class{
			"RDMA":    {TrafficClass: 3, PCP: []int{3}, BandwidthPercent: fabric.Ptr(50), Lossless: true, MTU: fabric.Ptr(9216), ECN: ecn},
			"CLUSTER": {TrafficClass: 7, PCP: []int{7}, BandwidthPercent: fabric.Ptr(1), MTU: fabric.Ptr(9216)},
			"default": {TrafficClass: 0, PCP: []int{0}, BandwidthPercent: fabric.Ptr(49), MTU: fabric.Ptr(9216)},
		},
		Interfaces: []string{"Ethernet1/17"},
	}
}

// seedPolicy is the Nexus "golden template" of the seed articles (class-map type qos
// match-any ROCE, match dscp 26, policy-map type qos ROCE_POLICY, class ROCE, pause no-drop,
// system qos) as a roce_qos_policy. On a Nexus 9000 a no-drop class lives in the network-qos
// policy (`pause pfc-cos 3`), not in the qos policy-map, and the queues need shares: RoCE
// gets traffic class 3 and half the bandwidth, everything else the default class.
func seedPolicy() *fabric.QoSPolicy {
	return &fabric.QoSPolicy{
		Name:  "ROCE_POLICY",
		Trust: fabric.TrustDSCP,
		Classes: map[string]fabric.Class{
			"ROCE":    {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: fabric.Ptr(50), Lossless: true},
			"default": {TrafficClass: 0, DSCP: []int{0}, BandwidthPercent: fabric.Ptr(50)},
		},
		Interfaces: []string{"Ethernet1/1"},
	}
}

// The lines each example writes on a fresh switch, and then roce_pfc_interface with mode on
// on its port (the seed also sets `priority-flow-control mode on`): the examples the docs
// show. Each is valid, supported, exact, and reads back as written.
func TestExamples(t *testing.T) {
	for _, tc := range []struct {
		golden string
		p      *fabric.QoSPolicy
	}{
		{"example-azure.golden", azurePolicy()},
		{"example-seed.golden", seedPolicy()},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			if probs := tc.p.Validate(); len(probs) > 0 {
				t.Fatal(probs)
			}
			if u := CheckSupported(*tc.p); len(u) > 0 {
				t.Fatal(fabrictest.Reasons(u))
			}
			fresh := running.Text(t, "")
			if err := fresh.CheckCreate("nxos-1", tc.p.Name); err != nil {
				t.Fatal(err)
			}
			ls := mustLines(t, fresh, nil, tc.p)
			after := replay(t, "", ls)
			port := tc.p.Interfaces[0]
			pfc := &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOn}
			pls, err := PFCLines(after, port, nil, pfc, after.PFCPrior(port))
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.golden, "! roce_qos_policy\n"+goldenfile.Lines(ls)+"! roce_pfc_interface\n"+goldenfile.Lines(pls))
			after = replay(t, indent(t, ls), pls)
			got, _ := after.Policy(tc.p.Name, tc.p)
			if diff := cmp.Diff(Canonical(*tc.p), *got); diff != "" {
				t.Errorf("read back (-canonical +read):\n%s", diff)
			}
			if gotPFC, _ := after.PFC(port); !cmp.Equal(pfc, gotPFC) {
				t.Errorf("PFC read back: %s", goldenfile.JSON(t, gotPFC))
			}
		})
	}
}
