package sonic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// stockQueueDB is the sample switch with buffers_config.j2's egress layout on Ethernet0:
// queues 0-2 and 5-6 lossy, 3-4 lossless.
func stockQueueDB(t *testing.T) fakeDB {
	d := baseDB(t)
	d.setField("BUFFER_POOL", "egress_lossy_pool", "type", "egress")
	d.setField(tBufferProf, "q_lossy_profile", "pool", "egress_lossy_pool")
	d.setField(tBufferProf, "q_lossy_profile", "size", "0")
	d.setField(tBufferQueue, "Ethernet0|0-2", fProfile, "q_lossy_profile")
	d.setField(tBufferQueue, "Ethernet0|5-6", fProfile, "q_lossy_profile")
	return d
}

func TestQueueBufferLayout(t *testing.T) {
	db := stockQueueDB(t).dbOf(t)
	stock := db.queueBuffers("Ethernet0")
	if want := map[string]string{"0-2": "q_lossy_profile", "3-4": egressLosslessProfile, "5-6": "q_lossy_profile"}; !cmp.Equal(stock, want) {
		t.Fatalf("queueBuffers = %v, want %v", stock, want)
	}
	lossless, lossy := egressLosslessProfile, "q_lossy_profile"
	for name, c := range map[string]struct {
		queues []int
		want   map[string]string
	}{
		"3, already lossless": {[]int{3}, stock},
		"2 splits 0-2":        {[]int{2}, map[string]string{"0-1": lossy, "2": lossless, "3-4": lossless, "5-6": lossy}},
		"1 splits 0-2 in three": {[]int{1, 3}, map[string]string{"0": lossy, "1": lossless, "2": lossy, "3-4": lossless,
			"5-6": lossy}},
		"5 and 6 take the range whole": {[]int{5, 6}, map[string]string{"0-2": lossy, "3-4": lossless, "5-6": lossless}},
		"7 has no key":                 {[]int{7}, map[string]string{"0-2": lossy, "3-4": lossless, "5-6": lossy, "7": lossless}},
	} {
		t.Run(name, func(t *testing.T) {
			got := db.queueBufferLayout(stock, c.queues, lossless)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("layout (-want +got):\n%s", diff)
			}
		})
	}
	if got := db.queueBufferLayout(stock, []int{2}, ""); !cmp.Equal(got, stock) {
		t.Errorf("without a lossless egress profile the layout changed: %v", got)
	}
}

// A policy whose lossless class is on TC 2 moves queue 2 to the lossless egress profile (a
// lossy profile there drops at its threshold however PFC pauses the sender), and delete puts
// the stock 0-2 range back exactly; an update to TC 5 moves it on.
func TestQueueBufferFollowsLosslessTC(t *testing.T) {
	base := stockQueueDB(t)
	d := base.clone()
	p := examplePolicy()
	roce := p.Classes["roce"]
	roce.TrafficClass = 2
	p.Classes["roce"] = roce
	p.Interfaces = []string{"Ethernet0"}
	restore := priorOf(d.dbOf(t), p)
	d.set(t)(BuildSet(nil, p, restore, d.dbOf(t)))
	want := map[string]string{"0-1": "q_lossy_profile", "2": egressLosslessProfile, "3-4": egressLosslessProfile, "5-6": "q_lossy_profile"}
	if diff := cmp.Diff(want, d.dbOf(t).queueBuffers("Ethernet0")); diff != "" {
		t.Errorf("after create (-want +got):\n%s", diff)
	}
	// Queue 2 put back on a lossy profile by hand: the port reads as not bound (drift), and
	// applying the same policy moves the queue again.
	drifted := d.clone()
	drifted.setField(tBufferQueue, "Ethernet0|2", fProfile, "q_lossy_profile")
	if got, _ := drifted.dbOf(t).PolicyWith(p.Name, p); len(got.Interfaces) != 0 {
		t.Errorf("with lossless queue 2 on a lossy profile the policy reads bound to %v", got.Interfaces)
	}
	drifted.set(t)(BuildSet(p, p, restore, drifted.dbOf(t)))
	if diff := cmp.Diff(d, drifted); diff != "" {
		t.Errorf("re-apply after the drift (-applied +re-applied):\n%s", diff)
	}
	next := examplePolicy()
	roce.TrafficClass = 5
	next.Classes = map[string]fabric.Class{"roce": roce, "cnp": p.Classes["cnp"], "default": p.Classes["default"]}
	next.Interfaces = p.Interfaces
	d.set(t)(BuildSet(p, next, restore, d.dbOf(t)))
	want = map[string]string{"0-2": "q_lossy_profile", "3-4": egressLosslessProfile, "5": egressLosslessProfile, "6": "q_lossy_profile"}
	if diff := cmp.Diff(want, d.dbOf(t).queueBuffers("Ethernet0")); diff != "" {
		t.Errorf("after the update to TC 5 (-want +got):\n%s", diff)
	}
	d.set(t)(BuildSet(next, nil, restore, d.dbOf(t)))
	if diff := cmp.Diff(base, d); diff != "" {
		t.Errorf("delete does not restore the switch (-before +after):\n%s", diff)
	}
}
