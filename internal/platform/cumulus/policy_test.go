package cumulus

import (
	"errors"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/golden"
)

func TestFactoryHasNoPolicy(t *testing.T) {
	tr := factory(t).tree(t)
	if p, ok := tr.Policy("ROCE", nil); ok {
		t.Fatalf("a factory switch has policy %+v", p)
	}
	if tr.QoS.Mapping["default-global"] == nil || tr.QoS.EgressScheduler["default-global"].TrafficClass["3"].Mode != "dwrr" {
		t.Fatalf("the factory tree did not parse: %+v", tr.QoS)
	}
}

// TestPolicyLifecycle writes, reads back, updates (rename, rebind, reshaped classes) and
// deletes a policy on the factory configuration of a Cumulus Linux 5.5 switch, which ends as
// it began.
func TestPolicyLifecycle(t *testing.T) {
	cfg := factory(t)
	before := cfg.String()
	p := examplePolicy()

	ops, prior := cfg.tree(t).Create(p)
	golden.Check(t, "testdata/create.golden", renderOps(ops))
	cfg.apply(t, ops)
	tr := cfg.tree(t)
	got, ok := tr.Policy("ROCE", &p)
	if !ok {
		t.Fatal("the written policy does not read back")
	}
	if want := Canonical(p); !want.Equal(*got) {
		t.Fatalf("read back:\n%+v\nwant\n%+v", *got, want)
	}
	imported, _ := tr.Policy("ROCE", nil)
	if _, ok := imported.Classes["tc3"]; !ok || !imported.Classes["tc3"].Lossless || imported.Classes["tc6"].StrictPriority != true {
		t.Errorf("an import names classes by traffic class: %+v", imported.Classes)
	}
	if len(prior.QueueMapping) != 3 || *prior.QueueMapping["3"] != 3 {
		t.Errorf("prior of the queue mapping: %+v", prior)
	}

	next := examplePolicy()
	next.Name = "RDMA"
	next.Trust = fabric.TrustDSCPPCP
	next.Interfaces = []string{"swp2", "swp3"}
	next.Classes["storage"] = fabric.Class{TrafficClass: 4, DSCP: []int{34}, PCP: []int{4}, BandwidthPercent: fabric.Ptr(20)}
	next.Classes["default"] = fabric.Class{TrafficClass: 0, BandwidthPercent: fabric.Ptr(30)}
	delete(next.Classes, "cnp")
	ops, prior = cfg.tree(t).Update(p, next, prior)
	golden.Check(t, "testdata/update.golden", renderOps(ops))
	cfg.apply(t, ops)
	tr = cfg.tree(t)
	if old, ok := tr.Policy("ROCE", &p); ok {
		t.Fatalf("the old name still reads: %+v", old)
	}
	got, ok = tr.Policy("RDMA", &next)
	if !ok || !Canonical(next).Equal(*got) {
		t.Fatalf("after the update:\n%+v\nwant\n%+v", got, Canonical(next))
	}
	if _, ok := prior.QueueMapping["6"]; ok {
		t.Errorf("switch priority 6 is no longer the policy's, its prior must go: %+v", prior)
	}

	cfg.apply(t, cfg.tree(t).Delete(next, prior))
	if after := cfg.String(); after != before {
		t.Errorf("delete did not restore the factory configuration:\n%s", after)
	}
}

// TestDeleteRestoresQueueMapping: a switch whose egress-queue-mapping sends switch priority 4
// to traffic class 0 (as NVUE's RoCE mode does) gets it back after the policy.
func TestDeleteRestoresQueueMapping(t *testing.T) {
	cfg := factory(t)
	cfg.apply(t, []Op{{Method: Patch, Path: "/qos/egress-queue-mapping/default-global/switch-priority/4", Body: TC{0}}})
	before := cfg.String()
	p := examplePolicy()
	p.Classes["storage"] = fabric.Class{TrafficClass: 4, DSCP: []int{34}, BandwidthPercent: fabric.Ptr(10)}
	p.Classes["default"] = fabric.Class{TrafficClass: 0, BandwidthPercent: fabric.Ptr(40)}
	ops, prior := cfg.tree(t).Create(p)
	cfg.apply(t, ops)
	if tc := cfg.tree(t).queueMapping("4"); tc == nil || *tc != 4 {
		t.Fatalf("switch priority 4 must reach traffic class 4 while the policy is there: %v", tc)
	}
	got, _ := cfg.tree(t).Policy("ROCE", &p)
	if !Canonical(p).Equal(*got) {
		t.Fatalf("read back %+v", got)
	}
	cfg.apply(t, cfg.tree(t).Delete(p, prior))
	if after := cfg.String(); after != before {
		t.Errorf("delete did not put switch priority 4 back to traffic class 0:\n%s", after)
	}
}

// TestPolicyDrift: changes made out of band read as differences.
func TestPolicyDrift(t *testing.T) {
	p := examplePolicy()
	for name, tc := range map[string]struct {
		op    Op
		check func(got fabric.QoSPolicy) bool
	}{
		"a DSCP moved": {Op{Method: Patch, Path: "/qos/mapping/ROCE/dscp/26", Body: SP{0}},
			func(got fabric.QoSPolicy) bool { return len(got.Classes["roce"].DSCP) == 0 }},
		"the strict class made dwrr": {Op{Method: Patch, Path: "/qos/egress-scheduler/ROCE/traffic-class/6", Body: ETS{Mode: "dwrr"}},
			func(got fabric.QoSPolicy) bool { return !got.Classes["cnp"].StrictPriority }},
		"PFC off for the roce class": {Op{Method: Delete, Path: "/qos/pfc/ROCE/switch-priority/3"},
			func(got fabric.QoSPolicy) bool { return !got.Classes["roce"].Lossless }},
		"a port unbound from the scheduler": {Op{Method: Delete, Path: "/interface/swp2/qos/egress-scheduler"},
			func(got fabric.QoSPolicy) bool { return len(got.Interfaces) == 1 && got.Interfaces[0] == "swp1" }},
		"RED turned on": {Op{Method: Patch, Path: "/qos/congestion-control/ROCE/traffic-class/3", Body: ECNConfig{RED: enable}},
			func(got fabric.QoSPolicy) bool { return got.Classes["roce"].ECN.MarkProbabilityPercent == Unknown }},
		"trust port": {Op{Method: Patch, Path: "/qos/mapping/ROCE", Body: Mapping{Trust: "port"}},
			func(got fabric.QoSPolicy) bool { return got.Trust == "" }},
	} {
		t.Run(name, func(t *testing.T) {
			cfg := factory(t)
			ops, _ := cfg.tree(t).Create(p)
			cfg.apply(t, ops)
			cfg.apply(t, []Op{tc.op})
			got, ok := cfg.tree(t).Policy("ROCE", &p)
			if !ok || Canonical(p).Equal(*got) || !tc.check(*got) {
				t.Errorf("drift not seen: %+v", got)
			}
		})
	}
}

func TestCheckSupported(t *testing.T) {
	p := examplePolicy()
	if u := CheckSupported(p); len(u) != 0 {
		t.Fatalf("the example is supported: %+v", u)
	}
	p.Name = "ROCE policy"
	c := p.Classes["roce"]
	c.MTU = fabric.Ptr(9216)
	p.Classes["roce"] = c
	p.Interfaces = []string{"swp1", "Ethernet4"}
	u := CheckSupported(p)
	var attrs []string
	for _, x := range u {
		attrs = append(attrs, x.Attr[len(x.Attr)-1])
	}
	if len(u) != 3 || attrs[0] != "mtu" || attrs[1] != "interfaces" || attrs[2] != "name" {
		t.Errorf("unsupported: %+v", u)
	}
}

func TestPFC(t *testing.T) {
	cfg := factory(t)
	p := examplePolicy()
	ops, _ := cfg.tree(t).Create(p)
	cfg.apply(t, ops)
	tr := cfg.tree(t)
	if got := tr.PFC("swp1"); got.Mode != fabric.PFCModeOn || got.Watchdog != nil {
		t.Fatalf("a port of a lossless policy: %+v", got)
	}
	for _, port := range []string{"swp3", "swp9"} {
		if got := tr.PFC(port); got.Mode != fabric.PFCModeOff || got.Watchdog != nil {
			t.Fatalf("an unbound port, configured or not: %+v", got)
		}
	}
	want := fabric.PFCInterface{Interface: "swp1", Mode: fabric.PFCModeOn, Watchdog: &fabric.PFCWatchdog{Action: fabric.WatchdogDrop}}
	before := cfg.String()
	prior := tr.WatchdogState("swp1")
	cfg.apply(t, tr.WritePFC("swp1", &want, prior))
	if got := cfg.tree(t).PFC("swp1"); got.Watchdog == nil || got.Watchdog.Action != fabric.WatchdogDrop {
		t.Fatalf("watchdog not on: %+v", got)
	}
	cfg.apply(t, cfg.tree(t).WritePFC("swp1", nil, prior))
	if after := cfg.String(); after != before {
		t.Fatalf("delete must unset the watchdog it set:\n%s", after)
	}
	cfg.apply(t, []Op{{Method: Patch, Path: "/interface/swp2/qos/pfc-watchdog", Body: State{enable}}})
	prior = cfg.tree(t).WatchdogState("swp2")
	cfg.apply(t, cfg.tree(t).WritePFC("swp2", &fabric.PFCInterface{Interface: "swp2", Mode: fabric.PFCModeOn}, prior))
	if got := cfg.tree(t).PFC("swp2"); got.Watchdog != nil {
		t.Fatalf("a resource without watchdog turns it off: %+v", got)
	}
	cfg.apply(t, cfg.tree(t).WritePFC("swp2", nil, prior))
	if got := cfg.tree(t).PFC("swp2"); got.Watchdog == nil {
		t.Fatalf("delete must put the watchdog back on: %+v", got)
	}
	u := CheckPFC(fabric.PFCInterface{Interface: "swp1", Mode: fabric.PFCModeAuto, LinkPause: true,
		Buffer:   &fabric.PFCBuffer{XoffBytes: fabric.Ptr[int64](1)},
		Watchdog: &fabric.PFCWatchdog{Action: fabric.WatchdogAlert, DetectionTimeMs: 200}})
	if len(u) != 5 {
		t.Errorf("unsupported PFC: %+v", u)
	}
}

// TestWatchdogFollowsPFC: NVUE takes a PFC watchdog only on a port with PFC, so a watchdog
// waits for the policy's PFC profile, and a policy that takes the PFC profile away takes the
// watchdog too (destroy in any order).
func TestWatchdogFollowsPFC(t *testing.T) {
	cfg := factory(t)
	wd := fabric.PFCInterface{Interface: "swp1", Mode: fabric.PFCModeOn, Watchdog: &fabric.PFCWatchdog{Action: fabric.WatchdogDrop}}
	var needs fabric.NeedsLossless
	if err := cfg.tree(t).CheckPFCAgainst(wd); !errors.As(err, &needs) {
		t.Fatalf("a watchdog before any PFC profile: %v", err)
	}
	p := examplePolicy()
	ops, prior := cfg.tree(t).Create(p)
	cfg.apply(t, ops)
	if err := cfg.tree(t).CheckPFCAgainst(wd); err != nil {
		t.Fatal(err)
	}
	cfg.apply(t, cfg.tree(t).WritePFC("swp1", &wd, ""))
	lossy := examplePolicy()
	c := lossy.Classes["roce"]
	c.Lossless = false
	lossy.Classes["roce"] = c
	ops, prior = cfg.tree(t).Update(p, lossy, prior)
	cfg.apply(t, ops)
	if got := cfg.tree(t).PFC("swp1"); got.Watchdog != nil || got.Mode != fabric.PFCModeOff {
		t.Fatalf("a policy made lossy takes the watchdog with the PFC profile: %+v", got)
	}
	ops, prior = cfg.tree(t).Update(lossy, p, prior)
	cfg.apply(t, ops)
	cfg.apply(t, cfg.tree(t).WritePFC("swp1", &wd, ""))
	cfg.apply(t, cfg.tree(t).Delete(p, prior))
	if got := cfg.tree(t).PFC("swp1"); got.Watchdog != nil {
		t.Fatalf("a deleted policy takes the watchdog: %+v", got)
	}
}
