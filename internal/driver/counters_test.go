package driver

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Rates are the difference over the window; a counter that went down (reset) counts from zero.
func TestRatesSince(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	earlier := InterfaceCounters{PFCRxPause: map[int]float64{3: 100}, ECNMarked: f(50), Dropped: f(10),
		Retransmit: map[string]float64{"packet_seq_err": 4}, RoCETxPackets: f(1000)}
	now := InterfaceCounters{PFCRxPause: map[int]float64{3: 300, 4: 20}, ECNMarked: f(250), Dropped: f(4),
		Retransmit: map[string]float64{"packet_seq_err": 14}, RoCETxPackets: f(3000)}
	r := now.RatesSince(earlier, 2*time.Second)
	if diff := cmp.Diff(map[int]float64{3: 100, 4: 10}, r.PFCRxPause); diff != "" {
		t.Errorf("pause rates (-want +got):\n%s", diff)
	}
	if *r.ECNMarked != 100 || *r.Dropped != 2 || r.CNPSent != nil || r.PFCTxPause != nil {
		t.Errorf("rates: ecn %v dropped %v (a reset counts from zero), cnp %v", *r.ECNMarked, *r.Dropped, r.CNPSent)
	}
	if p := r.RetransmitPercent(); p == nil || *p != 0.5 {
		t.Errorf("retransmit percent over the window: %v, want 0.5 (5/s of 1000/s)", p)
	}
	// Per-queue counters are rated; watermarks and pool sizes are gauges, kept as read last.
	earlier.QueueECNMarked, now.QueueECNMarked = map[int]float64{3: 10}, map[int]float64{3: 50}
	earlier.QueueWatermarkBytes, now.QueueWatermarkBytes = map[int]float64{3: 9000}, map[int]float64{3: 4000}
	earlier.PFCWatchdogDetected, now.PFCWatchdogDetected = f(1), f(3)
	now.BufferPoolBytes, now.BufferUtilizationPercent = f(1e7), f(0.04)
	r = now.RatesSince(earlier, 2*time.Second)
	if r.QueueECNMarked[3] != 20 || r.QueueWatermarkBytes[3] != 4000 || *r.PFCWatchdogDetected != 1 ||
		*r.BufferPoolBytes != 1e7 || *r.BufferUtilizationPercent != 0.04 || r.QueueDropped != nil || r.PGSharedWatermarkBytes != nil {
		t.Errorf("queue and buffer rates: %+v", r)
	}
	if p := (InterfaceCounters{RoCETxPackets: f(0)}).RetransmitPercent(); p != nil {
		t.Errorf("nothing sent: %v", *p)
	}
}
