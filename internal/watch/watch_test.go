package watch

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/driver"
)

func f(v float64) *float64 { return &v }

// Each golden metric over its threshold is one finding naming the port, its figure and the
// limit; a healthy port has none.
func TestPort(t *testing.T) {
	healthy := driver.InterfaceCounters{
		PFCRxPause: map[int]float64{3: 10}, PFCWatchdogDetected: f(2), PFCWatchdogRestored: f(2),
		BufferPoolBytes: f(1e7), BufferUtilizationPercent: f(40),
		QueueECNMarked: map[int]float64{0: 0, 3: 500}, LosslessQueues: []int{3, 4},
	}
	cases := []struct {
		name  string
		now   driver.InterfaceCounters
		rates *driver.InterfaceCounters
		want  []Finding
	}{
		{name: "healthy", now: healthy},
		{name: "healthy sampled", now: healthy, rates: &driver.InterfaceCounters{PFCRxPause: map[int]float64{3: 999}, QueueECNMarked: map[int]float64{3: 50}}},
		{name: "watchdog holds a storm", now: driver.InterfaceCounters{PFCWatchdogDetected: f(3), PFCWatchdogRestored: f(1)},
			want: []Finding{{Metric: PauseStorm, Value: 2, Message: "leaf-1 Ethernet0: PFC storm: the PFC watchdog holds 2 queues in a storm now (3 detected, 1 restored)"}}},
		{name: "pause rate", now: healthy, rates: &driver.InterfaceCounters{PFCRxPause: map[int]float64{0: 5000, 3: 1500.5}, PFCTxPause: map[int]float64{4: 1001}},
			want: []Finding{
				{Metric: PauseStorm, Value: 5000, Threshold: 1000, Message: "leaf-1 Ethernet0: PFC pause storm: 5000 pause frames received per second on priority 0 (limit 1000)"},
				{Metric: PauseStorm, Value: 1500.5, Threshold: 1000, Message: "leaf-1 Ethernet0: PFC pause storm: 1500.5 pause frames received per second on priority 3 (limit 1000)"},
				{Metric: PauseStorm, Value: 1001, Threshold: 1000, Message: "leaf-1 Ethernet0: PFC pause storm: 1001 pause frames sent per second on priority 4 (limit 1000)"},
			}},
		{name: "buffer", now: driver.InterfaceCounters{BufferPoolBytes: f(13945824), BufferUtilizationPercent: f(90)},
			want: []Finding{{Metric: BufferUtilization, Value: 90, Threshold: 80, Message: "leaf-1 Ethernet0: buffer utilisation 90 % of 13945824 bytes (limit 80 %)"}}},
		{name: "retransmits over the window", now: driver.InterfaceCounters{Retransmit: map[string]float64{"packet_seq_err": 0}, RoCETxPackets: f(1e9)},
			rates: &driver.InterfaceCounters{Retransmit: map[string]float64{"packet_seq_err": 2, "local_ack_timeout_err": 1}, RoCETxPackets: f(1e5)},
			want:  []Finding{{Metric: Retransmit, Value: 0.003, Threshold: 0.001, Message: "leaf-1 Ethernet0: RoCE retransmit rate 0.003 % of packets sent (limit 0.001 %)"}}},
		{name: "ECN on a lossy queue of a lossless port", now: driver.InterfaceCounters{QueueECNMarked: map[int]float64{1: 7, 3: 9}, LosslessQueues: []int{3}}},
		{name: "ECN on a port without PFC", now: driver.InterfaceCounters{ECNMarked: f(9), QueueECNMarked: map[int]float64{3: 9}, LosslessQueues: []int{}},
			want: []Finding{{Metric: ECNOutsideLossless, Value: 9, Message: "leaf-1 Ethernet0: 9 ECN-marked packets on a port with no PFC priority: RoCE traffic where the port is not lossless"}}},
		{name: "ECN per second on a port without PFC", now: driver.InterfaceCounters{QueueECNMarked: map[int]float64{3: 9}, LosslessQueues: []int{}},
			rates: &driver.InterfaceCounters{QueueECNMarked: map[int]float64{3: 0.5, 4: 0}},
			want:  []Finding{{Metric: ECNOutsideLossless, Value: 0.5, Message: "leaf-1 Ethernet0: 0.5 ECN-marked packets per second on a port with no PFC priority: RoCE traffic where the port is not lossless"}}},
		{name: "no ECN on a port without PFC", now: driver.InterfaceCounters{ECNMarked: f(0), LosslessQueues: []int{}}},
		{name: "lossless queues unknown", now: driver.InterfaceCounters{ECNMarked: f(7), QueueECNMarked: map[int]float64{1: 7}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Port("leaf-1", "Ethernet0", c.now, c.rates, Defaults)
			for i := range c.want {
				c.want[i].Device, c.want[i].Interface = "leaf-1", "Ethernet0"
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
