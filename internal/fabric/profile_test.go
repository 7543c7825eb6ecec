package fabric

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"testing"
)

func TestProfileWithDefaults(t *testing.T) {
	got := ProfileInput{Workload: WorkloadStorage}.WithDefaults()
	want := ProfileInput{Workload: WorkloadStorage, RoCEDSCP: 26, CNPDSCP: 48, RoCEPriority: 3, CNPPriority: 6, LinkSpeedGbps: 400,
		PortBufferBytes: 2560 * KiB}
	if got != want {
		t.Errorf("defaults = %+v, want %+v", got, want)
	}
	set := ProfileInput{Workload: WorkloadLossy, RoCEDSCP: 24, CNPDSCP: 46, RoCEPriority: 4, CNPPriority: 7, LinkSpeedGbps: 100,
		PortBufferBytes: 1 << 20}
	if got := set.WithDefaults(); got != set {
		t.Errorf("set values changed: %+v", got)
	}
}

func TestProfileInputValidate(t *testing.T) {
	tests := []struct {
		name        string
		edit        func(*ProfileInput)
		wantPath    string // "" means valid
		wantSummary string
	}{
		{"defaults", func(*ProfileInput) {}, "", ""},
		{"storage", func(in *ProfileInput) { in.Workload = WorkloadStorage }, "", ""},
		{"lossy", func(in *ProfileInput) { in.Workload = WorkloadLossy }, "", ""},
		{"workload empty", func(in *ProfileInput) { in.Workload = "" }, "workload", "Invalid workload"},
		{"workload unknown", func(in *ProfileInput) { in.Workload = "hpc" }, "workload", `Invalid workload "hpc"`},
		{"roce_dscp 63", func(in *ProfileInput) { in.RoCEDSCP = 63 }, "", ""},
		{"roce_dscp 0", func(in *ProfileInput) { in.RoCEDSCP = 0 }, "roce_dscp", "out of range 1-63"},
		{"roce_dscp 64", func(in *ProfileInput) { in.RoCEDSCP = 64 }, "roce_dscp", "out of range 1-63"},
		{"cnp_dscp 1", func(in *ProfileInput) { in.CNPDSCP = 1 }, "", ""},
		{"cnp_dscp -1", func(in *ProfileInput) { in.CNPDSCP = -1 }, "cnp_dscp", "out of range 1-63"},
		{"cnp_dscp equals roce_dscp", func(in *ProfileInput) { in.CNPDSCP = 26 }, "cnp_dscp", "cnp_dscp 26 equals roce_dscp"},
		{"roce_priority 7", func(in *ProfileInput) { in.RoCEPriority = 7 }, "", ""},
		{"roce_priority 0", func(in *ProfileInput) { in.RoCEPriority = 0 }, "roce_priority", "out of range 1-7"},
		{"roce_priority 8", func(in *ProfileInput) { in.RoCEPriority = 8 }, "roce_priority", "out of range 1-7"},
		{"cnp_priority 8", func(in *ProfileInput) { in.CNPPriority = 8 }, "cnp_priority", "out of range 1-7"},
		{"cnp_priority equals roce_priority", func(in *ProfileInput) { in.CNPPriority = 3 }, "cnp_priority", "cnp_priority 3 equals roce_priority"},
		{"speed 10", func(in *ProfileInput) { in.LinkSpeedGbps = 10 }, "", ""},
		{"speed 800", func(in *ProfileInput) { in.LinkSpeedGbps = 800 }, "", ""},
		{"speed 9", func(in *ProfileInput) { in.LinkSpeedGbps = 9 }, "link_speed_gbps", "out of range 10-800"},
		{"speed 801", func(in *ProfileInput) { in.LinkSpeedGbps = 801 }, "link_speed_gbps", "out of range 10-800"},
		{"buffer 1 KiB", func(in *ProfileInput) { in.PortBufferBytes = KiB }, "port_buffer_bytes", "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := ProfileInput{Workload: WorkloadAITraining}.WithDefaults()
			tt.edit(&in)
			checkOne(t, in.Validate(), tt.wantPath, tt.wantSummary)
		})
	}
}

func TestBuildProfileRejectsInvalidInput(t *testing.T) {
	_, err := BuildProfile(ProfileInput{Workload: "hpc", CNPDSCP: 26, LinkSpeedGbps: 1000})
	var ps Problems
	if !errors.As(err, &ps) || len(ps) != 3 {
		t.Fatalf("err = %v, want 3 problems", err)
	}
	for i, path := range []string{"workload", "cnp_dscp", "link_speed_gbps"} {
		if got := ps[i].Path.String(); got != path {
			t.Errorf("problem %d at %s, want %s", i, got, path)
		}
	}
}

// The defaults of each workload, value by value (see the table in profile_presets.go).
func TestBuildProfileDefaults(t *testing.T) {
	rp := func(over map[string]int64) map[string]int64 {
		m := map[string]int64{
			"time_reset_us": 300, "byte_reset": 32767, "threshold": 1, "ai_rate_mbps": 5, "hai_rate_mbps": 50,
			"min_rate_mbps": 1, "max_rate_mbps": 0, "dce_tcp_g": 1019, "dce_tcp_rtt_us": 1, "initial_alpha": 1023,
			"rate_reduce_monitor_period_us": 4, "min_dec_factor_percent": 50, "gd": 11,
			"rate_to_set_on_first_cnp_mbps": 0, "clamp_target_rate": 0, "clamp_target_rate_after_time_inc": 1,
		}
		maps.Copy(m, over)
		return m
	}
	classes := func(lossless bool, e ECN) map[string]Class {
		return map[string]Class{
			"roce":    {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: Ptr(50), Lossless: lossless, ECN: &e},
			"cnp":     {TrafficClass: 6, DSCP: []int{48}, StrictPriority: true},
			"default": {TrafficClass: 0, DSCP: []int{0}, BandwidthPercent: Ptr(50)},
		}
	}
	nic := map[int]int{26: 3, 48: 6}
	np := map[string]int64{"min_time_between_cnps_us": 4}
	tests := []struct {
		workload string
		want     Profile
	}{
		{WorkloadAITraining, Profile{
			SwitchClasses: classes(true, ECN{MinThresholdBytes: 153600, MaxThresholdBytes: 1536000, MarkProbabilityPercent: 100}),
			PFCPriorities: []int{3}, NICDSCPToPriority: nic, RoCEToS: 106,
			ReactionPoint:     rp(map[string]int64{"time_reset_us": 100, "ai_rate_mbps": 20, "hai_rate_mbps": 200}),
			NotificationPoint: np,
		}},
		{WorkloadStorage, Profile{
			SwitchClasses: classes(true, ECN{MinThresholdBytes: 102400, MaxThresholdBytes: 1024000, MarkProbabilityPercent: 20}),
			PFCPriorities: []int{3}, NICDSCPToPriority: nic, RoCEToS: 106,
			ReactionPoint:     rp(map[string]int64{"min_dec_factor_percent": 75, "rate_reduce_monitor_period_us": 8}),
			NotificationPoint: np,
		}},
		{WorkloadLossy, Profile{
			SwitchClasses: classes(false, ECN{MinThresholdBytes: 102400, MaxThresholdBytes: 1024000, MarkProbabilityPercent: 100}),
			PFCPriorities: []int{}, NICDSCPToPriority: nic, RoCEToS: 106,
			ReactionPoint: rp(nil), NotificationPoint: np,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.workload, func(t *testing.T) {
			got, err := BuildProfile(ProfileInput{Workload: tt.workload, LinkSpeedGbps: 100})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("profile =\n%+v\nwant\n%+v", got, tt.want)
			}
			if got.PFCPriorities == nil {
				t.Error("PFCPriorities is nil; want an empty list for Terraform")
			}
			if !slices.Equal(slices.Sorted(maps.Keys(got.ReactionPoint)), SortedSet(ReactionPointParams)) {
				t.Errorf("reaction_point keys = %v, want every ReactionPointParams key", slices.Sorted(maps.Keys(got.ReactionPoint)))
			}
		})
	}
}

// ECN thresholds: whole KiB, min strictly below max; growing with the link speed until Kmax
// reaches the per-port buffer budget, then Kmax stays at it and Kmin keeps the preset's ratio;
// AI training's Kmax 1.5x that of storage below the budget, and storage marking no later than
// AI training.
func TestProfileThresholds(t *testing.T) {
	ecn := func(w string, speed int, budget int64) ECN {
		p, err := BuildProfile(ProfileInput{Workload: w, LinkSpeedGbps: speed, PortBufferBytes: budget})
		if err != nil {
			t.Fatal(err)
		}
		return *p.SwitchClasses["roce"].ECN
	}
	for _, w := range []string{WorkloadAITraining, WorkloadStorage, WorkloadLossy} {
		var prev ECN
		for speed := MinLinkSpeedGbps; speed <= MaxLinkSpeedGbps; speed++ {
			e := ecn(w, speed, 0)
			at := Root("classes").Key("roce").Attr("ecn")
			if p := WholeKilobytes(at, e.MinThresholdBytes); p != nil {
				t.Fatalf("%s %dG: %v", w, speed, p)
			}
			if p := WholeKilobytes(at, e.MaxThresholdBytes); p != nil {
				t.Fatalf("%s %dG: %v", w, speed, p)
			}
			capped := e.MaxThresholdBytes == DefaultPortBufferBytes
			if e.MinThresholdBytes >= e.MaxThresholdBytes || e.MaxThresholdBytes > DefaultPortBufferBytes ||
				!capped && (e.MinThresholdBytes < prev.MinThresholdBytes || e.MaxThresholdBytes <= prev.MaxThresholdBytes) ||
				capped && 9*e.MinThresholdBytes > e.MaxThresholdBytes {
				t.Fatalf("%s %dG: thresholds %+v after %+v", w, speed, e, prev)
			}
			prev = e
		}
	}
	unbounded := int64(MaxPortBufferBytes)
	for _, speed := range []int{10, 25, 100, 400, 800} {
		ai, st := ecn(WorkloadAITraining, speed, unbounded), ecn(WorkloadStorage, speed, unbounded)
		if 2*ai.MaxThresholdBytes != 3*st.MaxThresholdBytes || st.MinThresholdBytes > ai.MinThresholdBytes {
			t.Errorf("%dG: ai-training %+v, storage %+v", speed, ai, st)
		}
	}
	if e := ecn(WorkloadAITraining, 25, 0); e.MinThresholdBytes != 38*KiB || e.MaxThresholdBytes != 375*KiB {
		t.Errorf("ai-training 25G: %+v, want 38 / 375 KiB (1.5 x 25 rounded up)", e)
	}
	if e := ecn(WorkloadAITraining, 400, unbounded); e.MinThresholdBytes != 600*KiB || e.MaxThresholdBytes != 6000*KiB {
		t.Errorf("ai-training 400G without a bound: %+v, want 600 / 6000 KiB", e)
	}
	// The default 400G on the default 2.5 MiB budget: Kmax 2560 KiB, Kmin 600 x 2560/6000 = 256 KiB.
	if e := ecn(WorkloadAITraining, 0, 0); e.MinThresholdBytes != 256*KiB || e.MaxThresholdBytes != 2560*KiB {
		t.Errorf("ai-training defaults: %+v, want 256 / 2560 KiB", e)
	}
	if e := ecn(WorkloadStorage, 800, 4096*KiB); e.MinThresholdBytes != 410*KiB || e.MaxThresholdBytes != 4096*KiB {
		t.Errorf("storage 800G, 4 MiB budget: %+v, want 410 / 4096 KiB (800 x 4096/8000 rounded up)", e)
	}
}

// profileFabric builds what a user would feed the resources from a profile: two leaves with the
// classes bound to Ethernet1-2 (PFC on with a watchdog where lossless), two hosts.
func profileFabric(in ProfileInput, p Profile) Fabric {
	in = in.WithDefaults()
	var f Fabric
	for _, leaf := range []string{"leaf-1", "leaf-2"} {
		f.Policies = append(f.Policies, SwitchPolicy{leaf, QoSPolicy{
			Name: DefaultPolicyName, Trust: TrustDSCP, Classes: maps.Clone(p.SwitchClasses),
			Interfaces: []string{"Ethernet1", "Ethernet2"},
		}})
		if len(p.PFCPriorities) > 0 {
			for _, ifc := range []string{"Ethernet1", "Ethernet2"} {
				f.PFC = append(f.PFC, SwitchPFC{leaf, PFCInterface{Interface: ifc, Mode: PFCModeOn,
					Watchdog: &PFCWatchdog{Action: WatchdogDrop, DetectionTimeMs: 200, RestorationTimeMs: 400}}})
			}
		}
	}
	for _, host := range []string{"gpu-1", "gpu-2"} {
		f.NICs = append(f.NICs, HostNIC{host, NICQoS{
			Interface: "eth0", Trust: TrustDSCP, PFCPriorities: slices.Clone(p.PFCPriorities),
			DSCPToPriority: maps.Clone(p.NICDSCPToPriority), RoCEToS: Ptr(p.RoCEToS),
		}})
		f.DCQCN = append(f.DCQCN, HostDCQCN{host, DCQCN{
			Interface: "eth0", Priorities: []int{in.RoCEPriority}, CNPDSCP: in.CNPDSCP, CNPPriority: in.CNPPriority,
			ReactionPoint: maps.Clone(p.ReactionPoint), NotificationPoint: maps.Clone(p.NotificationPoint),
		}})
	}
	return f
}

// Every workload, with defaults and with other inputs, yields settings that pass each
// resource's validation and the fabric check with no finding at all.
func TestProfileIsConsistent(t *testing.T) {
	inputs := []ProfileInput{
		{},
		{LinkSpeedGbps: 10},
		{LinkSpeedGbps: 25},
		{LinkSpeedGbps: 800},
		{RoCEDSCP: 24, CNPDSCP: 46, RoCEPriority: 4, CNPPriority: 5, LinkSpeedGbps: 400},
		{RoCEDSCP: 48, CNPDSCP: 26, RoCEPriority: 6, CNPPriority: 3}, // article 001: AI on CS6
		{RoCEDSCP: 63, CNPDSCP: 1, RoCEPriority: 7, CNPPriority: 1, LinkSpeedGbps: 200},
	}
	for _, w := range []string{WorkloadAITraining, WorkloadStorage, WorkloadLossy} {
		for _, in := range inputs {
			in.Workload = w
			p, err := BuildProfile(in)
			if err != nil {
				t.Fatalf("%+v: %v", in, err)
			}
			f := profileFabric(in, p)
			for _, sp := range f.Policies {
				if ps := sp.Policy.Validate(); len(ps) > 0 {
					t.Errorf("%+v: policy: %v", in, ps)
				}
				for _, name := range sp.Policy.ClassNames() {
					if e := sp.Policy.Classes[name].ECN; e != nil {
						if WholeKilobytes(nil, e.MinThresholdBytes) != nil || WholeKilobytes(nil, e.MaxThresholdBytes) != nil {
							t.Errorf("%+v: class %s thresholds not whole KiB: %+v", in, name, *e)
						}
					}
				}
			}
			for _, e := range f.PFC {
				if ps := e.PFC.Validate(); len(ps) > 0 {
					t.Errorf("%+v: pfc: %v", in, ps)
				}
			}
			if ps := f.NICs[0].NIC.Validate(); len(ps) > 0 {
				t.Errorf("%+v: nic: %v", in, ps)
			}
			if ps := f.DCQCN[0].DCQCN.Validate(); len(ps) > 0 {
				t.Errorf("%+v: dcqcn: %v", in, ps)
			}
			if got := Check(f); len(got) > 0 || !OK(got) {
				t.Errorf("%+v: findings:\n%s", in, dump(got))
			}
		}
	}
}

// Profiles share no map or slice with each other or with the presets.
func TestProfileReturnsFreshValues(t *testing.T) {
	a, _ := BuildProfile(ProfileInput{Workload: WorkloadAITraining})
	a.ReactionPoint["time_reset_us"] = 1
	a.NotificationPoint["min_time_between_cnps_us"] = 1
	a.PFCPriorities[0] = 7
	a.NICDSCPToPriority[26] = 0
	a.SwitchClasses["roce"].ECN.MaxThresholdBytes = 1
	*a.SwitchClasses["roce"].BandwidthPercent = 1
	b, _ := BuildProfile(ProfileInput{Workload: WorkloadAITraining})
	if b.ReactionPoint["time_reset_us"] != 100 || b.NotificationPoint["min_time_between_cnps_us"] != 4 ||
		b.PFCPriorities[0] != 3 || b.NICDSCPToPriority[26] != 3 ||
		b.SwitchClasses["roce"].ECN.MaxThresholdBytes != DefaultPortBufferBytes || *b.SwitchClasses["roce"].BandwidthPercent != 50 {
		t.Errorf("a second profile sees the first one's edits: %+v", b)
	}
	if nvidiaReactionPoint["time_reset_us"] != 300 {
		t.Error("the firmware defaults were modified")
	}
}
