package cumulus

import (
	"maps"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// roceMode is the RoCE mode `qos roce` sets ("" when RoCE is off): NVUE's default is lossless
// ("`nv set qos roce` and `nv set qos roce mode lossless` are equivalent", RDMA over Converged
// Ethernet - RoCE). 5.12's OpenAPI has enable on/off; later releases state enabled/disabled.
func (q QoS) roceMode() string {
	if e := stringOf(q.Roce["enable"]); e != "on" && !enabled(e) && q.Roce["state"] != "enabled" {
		return ""
	}
	if m := stringOf(q.Roce["mode"]); m != "" {
		return m
	}
	return "lossless"
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

// roceGlobal is the default-global profiles RoCE mode puts in place, which the applied
// configuration without defaults does not show, as NVIDIA's RoCE page lists them ("Default RoCE
// Configuration" and `nv show qos roce`): trust pcp,dscp; PCP N and DSCP 8N-8N+7 to switch
// priority N; switch priority 3 to traffic class 3, 6 to 6, the others to 0; traffic class 6
// strict, 3 and 0 DWRR 50 %; ECN on traffic classes 0 and 3 (150000 / 1500000 bytes,
// probability 100); PFC on switch priority 3, tx and rx, in the lossless modes only. nil when
// RoCE is off.
func (q QoS) roceGlobal() *QoS {
	mode := q.roceMode()
	if mode == "" {
		return nil
	}
	m := &Mapping{Trust: "both", DSCP: map[string]SP{}, PCP: map[string]SP{}}
	for d := range 64 {
		m.DSCP[key(d)] = SP{d / 8}
	}
	qm := &QueueMapping{SwitchPriority: map[string]TC{}}
	for sp := range 8 {
		m.PCP[key(sp)] = SP{sp}
		tc := 0
		if sp == 3 || sp == 6 {
			tc = sp
		}
		qm.SwitchPriority[key(sp)] = TC{tc}
	}
	ecn := func() ECNConfig {
		return ECNConfig{ECN: enable, RED: disable, MinThreshold: fabric.Ptr(int64(150000)), MaxThreshold: fabric.Ptr(int64(1500000)),
			Probability: fabric.Ptr(100)}
	}
	out := &QoS{
		Mapping:            map[string]*Mapping{global: m},
		EgressQueueMapping: map[string]*QueueMapping{global: qm},
		EgressScheduler: map[string]*Scheduler{global: {TrafficClass: map[string]ETS{
			"0": {Mode: "dwrr", BWPercent: fabric.Ptr(50)}, "3": {Mode: "dwrr", BWPercent: fabric.Ptr(50)}, "6": {Mode: "strict"}}}},
		CongestionControl: map[string]*Congestion{global: {TrafficClass: map[string]ECNConfig{"0": ecn(), "3": ecn()}}},
	}
	if mode != "lossy" && mode != "lossy-multi-tc" {
		out.PFC = map[string]*PFCProfile{global: {SwitchPriority: map[string]struct{}{"3": {}}, Tx: enable, Rx: enable}}
	}
	return out
}

// withRoCE is q's default-global profiles over those RoCE mode puts in place, key by key, as
// NVIDIA's RoCE page changes them ("Change RoCE Configuration": `nv set qos mapping
// default-global dscp 26 switch-priority 4` changes one entry of RoCE's mapping). q itself
// when RoCE is off.
func (q QoS) withRoCE() QoS {
	base := q.roceGlobal()
	if base == nil {
		return q
	}
	out := q
	if own := q.Mapping[global]; own != nil {
		m := *base.Mapping[global]
		if own.Trust != "" {
			m.Trust = own.Trust
		}
		maps.Copy(m.DSCP, own.DSCP)
		maps.Copy(m.PCP, own.PCP)
		base.Mapping[global] = &m
	}
	if own := q.EgressQueueMapping[global]; own != nil {
		maps.Copy(base.EgressQueueMapping[global].SwitchPriority, own.SwitchPriority)
	}
	if own := q.EgressScheduler[global]; own != nil {
		maps.Copy(base.EgressScheduler[global].TrafficClass, own.TrafficClass)
	}
	if own := q.CongestionControl[global]; own != nil {
		maps.Copy(base.CongestionControl[global].TrafficClass, own.TrafficClass)
	}
	if own := q.PFC[global]; own != nil {
		base.PFC = map[string]*PFCProfile{global: own}
	}
	out.Mapping = withGlobal(q.Mapping, base.Mapping[global])
	out.EgressQueueMapping = withGlobal(q.EgressQueueMapping, base.EgressQueueMapping[global])
	out.EgressScheduler = withGlobal(q.EgressScheduler, base.EgressScheduler[global])
	out.CongestionControl = withGlobal(q.CongestionControl, base.CongestionControl[global])
	out.PFC = withGlobal(q.PFC, base.PFC[global])
	return out
}

// withGlobal is profiles with default-global replaced by g (removed when g is nil).
func withGlobal[T any](profiles map[string]*T, g *T) map[string]*T {
	out := maps.Clone(profiles)
	if out == nil {
		out = map[string]*T{}
	}
	if g == nil {
		delete(out, global)
	} else {
		out[global] = g
	}
	return out
}
