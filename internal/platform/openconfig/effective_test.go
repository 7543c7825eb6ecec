package openconfig

import (
	"slices"
	"testing"
)

// The DP-1.17 canonical objects (testdata/openconfig-qos-canonical-1.json: names of OpenConfig's
// operators, not this provider's), with queue-ids and both directions bound on one port.
func TestEffectiveForeignNames(t *testing.T) {
	tr := readTree(t, "openconfig-qos-canonical-1.json")
	if len(tr.Effective()) != 1 {
		t.Fatalf("the sample binds its classifier on port2 only: %+v", tr.Effective())
	}
	af3, nc1 := uint8(3), uint8(6)
	tr.Queues["AF3"] = Queue{Name: "AF3", ID: &af3}
	tr.Queues["NC1"] = Queue{Name: "NC1", ID: &nc1}
	it := tr.Interfaces["port2"]
	it.SchedulerPolicy = "schedulerPolicy"
	it.OutputQueues = map[string]string{"AF3": "queueManagementProfile"}
	tr.Interfaces["port2"] = it
	got := tr.Effective()
	if len(got) != 1 || got[0].Name != "dscp_based_classifier_ipv4" || !slices.Equal(got[0].Interfaces, []string{"port2"}) {
		t.Fatalf("%+v", got)
	}
	tc3, tc6 := got[0].Classes["tc3"], got[0].Classes["tc6"]
	if !slices.Equal(tc3.DSCP, []int{24, 25, 26, 27, 28, 29, 30, 31}) || tc3.BandwidthPercent == nil || *tc3.BandwidthPercent != 10 ||
		tc3.ECN == nil || tc3.ECN.MinThresholdBytes != 80000 || !tc6.StrictPriority || tc6.ECN != nil {
		t.Errorf("tc3 %+v tc6 %+v", tc3, tc6)
	}
	if got[0].DSCPMap()[26] != 3 || got[0].DSCPMap()[0] != 0 {
		t.Errorf("DSCP map %v", got[0].DSCPMap())
	}
}
