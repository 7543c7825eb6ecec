package driver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/mlx5"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/ssh"
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

// The host's counters: one command, parsed; a netdev name that is not one is refused before
// anything runs.
func TestMLX5Counters(t *testing.T) {
	f := &countersHost{}
	c := mlx5Counters{&mlx5Host{c: f, device: "sw", reads: newReads(testRegistry("mlx5", devices.Device{}), "sw")}}
	got, err := c.port(context.Background(), "eth0")
	if err != nil {
		t.Fatal(err)
	}
	if got.PFCRxPause == nil || got.ECNMarked != nil {
		t.Errorf("counters %+v: want PFC pause counts and no ECN (no RDMA device)", got)
	}
	if _, err := c.port(context.Background(), "eth0; reboot"); err == nil || len(f.cmds) != 1 {
		t.Errorf("an invalid netdev: %v, ran %v", err, f.cmds)
	}
}

// countersHost answers CountersScript with the platform's sample output.
type countersHost struct{ cmds []string }

func (h *countersHost) Run(_ context.Context, cmd string, _ []byte) (ssh.Result, error) {
	h.cmds = append(h.cmds, cmd)
	if cmd != mlx5.CountersScript("eth0", false) {
		return ssh.Result{ExitCode: 127}, nil
	}
	return ssh.Result{Stdout: []byte(sampleCounters)}, nil
}

const sampleCounters = `@@ethtool
NIC statistics:
     rx_prio3_pause: 7
     tx_prio3_pause: 9
@@hw_counters
@@end
`

// OpenConfig counters: a port without queues has nothing at the queue path; a port the switch
// lacks has nothing at all.
func TestOpenConfigCountersMissingPort(t *testing.T) {
	c := ocCounters{&fakeConfigDB{}, "sw"}
	if _, err := c.port(context.Background(), "Ethernet9"); err == nil || !strings.Contains(err.Error(), `device "sw" has no interface "Ethernet9"`) {
		t.Errorf("got %v", err)
	}
}
