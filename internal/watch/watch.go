// Package watch judges a fabric's counters against the golden metrics of a RoCE fabric
// (DESIGN.md, "roce_fabric_counters"): ports in a PFC pause storm, hosts retransmitting more than
// 0.001 % of what they send, switch buffers fuller than 80 %, and ECN marks on ports that keep
// nothing lossless. The other two golden metrics, DSCP marking consistency and p99
// latency, are roce_fabric_audit's and roce_perftest's.
package watch

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/rocefabric/terraform-provider-roce/internal/driver"
)

// Thresholds are the limits a finding crosses.
type Thresholds struct {
	// MaxPauseFramesPerSecond is the PFC pause frames a port may send or receive per second on
	// one priority; judged only on rates (a sampled window).
	MaxPauseFramesPerSecond float64
	// MaxRetransmitPercent is the retransmissions per RDMA packet sent, in percent.
	MaxRetransmitPercent float64
	// MaxBufferUtilizationPercent is the highest lossless queue watermark's share of its pool.
	MaxBufferUtilizationPercent float64
}

// Defaults are the seed article's figures (0.001 % retransmits, 80 % buffer) and, for pause
// frames, which the article watches as 5-minute deltas without a limit, our own: a full
// pause quantum (65,535 x 512 bit times) lasts 335 us at 100 Gb/s, so 1,000 frames a second
// on one priority hold its sender paused about a third of the time.
var Defaults = Thresholds{MaxPauseFramesPerSecond: 1000, MaxRetransmitPercent: 0.001, MaxBufferUtilizationPercent: 80}

// Metric names a golden metric a finding is about.
type Metric string

// The metrics a finding can be about.
const (
	PauseStorm         Metric = "pause_storm"
	Retransmit         Metric = "retransmit"
	BufferUtilization  Metric = "buffer_utilization"
	ECNOutsideLossless Metric = "ecn_outside_lossless"
)

// Finding is one port over one threshold. Value and Threshold are in the metric's unit (frames
// per second, percent; for a watchdog storm, queues in a storm against 0; for ECN on a port without
// PFC, marks or marks per second against 0).
type Finding struct {
	Device, Interface string
	Metric            Metric
	Value, Threshold  float64
	Message           string
}

// Port judges one port's counters. now is the latest reading (counts); rates, when the
// counters were sampled over a window, the per-second rates over it (nil otherwise).
// Without rates, pauses are not judged (a count since boot says nothing of now), and the
// retransmit rate and ECN marks are over the counters' lifetime.
func Port(device, port string, now driver.InterfaceCounters, rates *driver.InterfaceCounters, t Thresholds) []Finding {
	var out []Finding
	add := func(m Metric, value, limit float64, format string, args ...any) {
		out = append(out, Finding{Device: device, Interface: port, Metric: m, Value: value, Threshold: limit,
			Message: device + " " + port + ": " + fmt.Sprintf(format, args...)})
	}
	// A storm the watchdog holds now: more storms detected than restored (the counts, not
	// their rates, even when sampled).
	if now.PFCWatchdogDetected != nil && now.PFCWatchdogRestored != nil {
		if n := *now.PFCWatchdogDetected - *now.PFCWatchdogRestored; n > 0 {
			add(PauseStorm, n, 0, "PFC storm: the PFC watchdog holds %s in a storm now (%s detected, %s restored)",
				plural(n, "queue"), num(*now.PFCWatchdogDetected), num(*now.PFCWatchdogRestored))
		}
	}
	counts := now
	if rates != nil {
		counts = *rates
		for _, dir := range []struct {
			verb string
			m    map[int]float64
		}{{"received", rates.PFCRxPause}, {"sent", rates.PFCTxPause}} {
			for _, prio := range slices.Sorted(maps.Keys(dir.m)) {
				if r := dir.m[prio]; r > t.MaxPauseFramesPerSecond {
					add(PauseStorm, r, t.MaxPauseFramesPerSecond, "PFC pause storm: %s pause frames %s per second on priority %d (limit %s)",
						num(r), dir.verb, prio, num(t.MaxPauseFramesPerSecond))
				}
			}
		}
	}
	if p := counts.RetransmitPercent(); p != nil && *p > t.MaxRetransmitPercent {
		add(Retransmit, *p, t.MaxRetransmitPercent, "RoCE retransmit rate %s %% of packets sent (limit %s %%)", num(*p), num(t.MaxRetransmitPercent))
	}
	if u := now.BufferUtilizationPercent; u != nil && *u > t.MaxBufferUtilizationPercent {
		pool := ""
		if now.BufferPoolBytes != nil {
			pool = " of " + num(*now.BufferPoolBytes) + " bytes"
		}
		add(BufferUtilization, *u, t.MaxBufferUtilizationPercent, "buffer utilisation %s %%%s (limit %s %%)", num(*u), pool, num(t.MaxBufferUtilizationPercent))
	}
	// ECN marks on a port that keeps nothing lossless: RoCE traffic (ECN-capable, the
	// lossless class's) crossing a port without PFC. A port with lossless queues may well
	// mark ECN on a lossy one too (DCTCP traffic), so only the port's lack of PFC is judged.
	if now.LosslessQueues != nil && len(now.LosslessQueues) == 0 {
		marks := counts.ECNMarked
		if marks == nil && counts.QueueECNMarked != nil {
			sum := 0.0
			for _, v := range counts.QueueECNMarked {
				sum += v
			}
			marks = &sum
		}
		if marks != nil && *marks > 0 {
			unit := "packets"
			if rates != nil {
				unit = "packets per second"
			}
			add(ECNOutsideLossless, *marks, 0, "%s ECN-marked %s on a port with no PFC priority: RoCE traffic where the port is not lossless", num(*marks), unit)
		}
	}
	return out
}

// Sort orders findings by device, interface and metric, as a plan shows them.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Device != b.Device {
			return a.Device < b.Device
		}
		if a.Interface != b.Interface {
			return a.Interface < b.Interface
		}
		return a.Metric < b.Metric
	})
}

func plural(n float64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return num(n) + " " + what + "s"
}

// num prints a figure as a user reads it: integers without a fraction, others from 1 up to one
// decimal, smaller ones to 3 significant digits.
func num(v float64) string {
	switch {
	case v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 1:
		return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
