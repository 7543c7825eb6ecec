package cumulus

import (
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// TestEffective: on a Cumulus Linux 5.5 factory configuration, the provider's policy on swp1 and
// swp2 and a hand-typed one with other profile names (trust both, a scheduler bound under
// another name, PFC from default-global) on swp3, each port reads as what it applies; a port
// binding nothing runs default-global.
func TestEffective(t *testing.T) {
	cfg := factory(t)
	ops, _ := cfg.tree(t).Create(examplePolicy())
	cfg.apply(t, ops)
	cfg.apply(t, []Op{
		{Method: Patch, Path: "/qos", Body: map[string]any{
			"mapping": map[string]any{"GPU": map[string]any{"trust": "both",
				"dscp": map[string]any{"26": map[string]any{"switch-priority": 3}}, "pcp": map[string]any{"3": map[string]any{"switch-priority": 3}}}},
			"egress-scheduler": map[string]any{"GPU-ETS": map[string]any{"traffic-class": map[string]any{
				"3": map[string]any{"mode": "dwrr", "bw-percent": 60}, "0": map[string]any{"mode": "dwrr", "bw-percent": 40}}}},
			"pfc": map[string]any{"default-global": map[string]any{"switch-priority": map[string]any{"3": map[string]any{}}, "tx": "enable", "rx": "enable"}},
		}},
		{Method: Patch, Path: "/interface/swp3/qos", Body: map[string]any{
			"mapping": map[string]any{"profile": "GPU"}, "egress-scheduler": map[string]any{"profile": "GPU-ETS"},
			"pfc-watchdog": map[string]any{"state": "enable"}}},
	})
	policies, pfcs := cfg.tree(t).Effective([]string{"swp4", "eth0"})
	var names []string
	for _, p := range policies {
		names = append(names, p.Interfaces[0]+"="+p.Name)
	}
	// swp4, in ports but not in the configuration, binds nothing: default-global.
	if got := strings.Join(names, " "); got != "swp1=ROCE swp2=ROCE swp3=GPU swp4=default-global" {
		t.Fatalf("policies by port: %s", got)
	}
	ours := examplePolicy()
	ours.Classes = map[string]fabric.Class{"tc3": ours.Classes["roce"], "tc6": ours.Classes["cnp"], "tc0": ours.Classes["default"]}
	ours.Interfaces = []string{"swp1"}
	if want := Canonical(ours); !want.Equal(policies[0]) {
		t.Errorf("swp1:\n%+v\nwant\n%+v", policies[0], want)
	}
	gpu := policies[2]
	roce := gpu.Classes["tc3"]
	if gpu.Trust != fabric.TrustDSCPPCP || len(gpu.Classes) != 2 || *roce.BandwidthPercent != 60 || !roce.Lossless ||
		!slices.Equal(roce.DSCP, []int{26}) || !slices.Equal(roce.PCP, []int{3}) || roce.ECN != nil || gpu.Classes["tc0"].Lossless {
		t.Errorf("swp3: %+v", gpu)
	}
	// default-global: the factory's (trust l2, PCP N to switch priority N to traffic class N).
	if g := policies[3]; g.Trust != fabric.TrustPCP || len(g.Classes) != 8 || !g.Classes["tc3"].Lossless || g.Classes["tc0"].ECN == nil {
		t.Errorf("swp4: %+v", g)
	}
	var modes []string
	for _, p := range pfcs {
		m := p.Interface + "=" + p.Mode
		if p.Watchdog != nil {
			m += "+watchdog"
		}
		modes = append(modes, m)
	}
	if got := strings.Join(modes, " "); got != "swp1=on swp2=on swp3=on+watchdog swp4=on" {
		t.Errorf("PFC by port: %s", got)
	}
}

// TestEffectiveFactory: a factory switch has no PFC, and each port runs default-global.
func TestEffectiveFactory(t *testing.T) {
	policies, pfcs := factory(t).tree(t).Effective(nil)
	if len(policies) != 3 || policies[0].Name != "default-global" || len(pfcs) != 3 || pfcs[0].Mode != fabric.PFCModeOff {
		t.Fatalf("factory: %+v %+v", policies, pfcs)
	}
}

// TestEffectiveRoCEMode: a port binding nothing on a switch with `nv set qos roce` runs the
// default-global profiles RoCE mode puts in place (NVIDIA's RoCE page), which the applied
// configuration does not show; default-global keys the operator set change them one by one
// (the page's own example moves DSCP 26 to switch priority 4 and that to traffic class 3), and
// lossy mode has no PFC.
func TestEffectiveRoCEMode(t *testing.T) {
	read := func(qos string) (fabric.QoSPolicy, fabric.PFCInterface) {
		t.Helper()
		tr, err := ParseTree([]byte(qos), []byte(`{"swp1": {"type": "swp"}}`))
		if err != nil {
			t.Fatal(err)
		}
		policies, pfcs := tr.Effective(nil)
		if len(policies) != 1 || len(pfcs) != 1 {
			t.Fatalf("%s: %+v %+v", qos, policies, pfcs)
		}
		return policies[0], pfcs[0]
	}
	p, pfc := read(`{"roce": {"enable": "on", "mode": "lossless"}}`)
	roce, cnp, other := p.Classes["tc3"], p.Classes["tc6"], p.Classes["tc0"]
	if p.Name != "default-global" || p.Trust != fabric.TrustDSCPPCP || len(p.Classes) != 3 || pfc.Mode != fabric.PFCModeOn ||
		!roce.Lossless || *roce.BandwidthPercent != 50 || roce.ECN == nil || roce.ECN.MinThresholdBytes != 150000 ||
		!slices.Contains(roce.DSCP, 26) || !cnp.StrictPriority || !slices.Contains(cnp.DSCP, 48) || other.Lossless ||
		!slices.Contains(other.DSCP, 0) || !slices.Contains(other.DSCP, 40) || other.ECN == nil {
		t.Errorf("RoCE lossless: %+v, PFC %s", p, pfc.Mode)
	}
	p, _ = read(`{"roce": {"enable": "on"}, "mapping": {"default-global": {"dscp": {"26": {"switch-priority": 4}}}},
		"egress-queue-mapping": {"default-global": {"switch-priority": {"4": {"traffic-class": 3}, "3": {"traffic-class": 0}}}}}`)
	if !slices.Contains(p.Classes["tc3"].DSCP, 26) || !slices.Contains(p.Classes["tc3"].DSCP, 32) || slices.Contains(p.Classes["tc3"].DSCP, 24) {
		t.Errorf("RoCE with DSCP 26 on switch priority 4: %+v", p.Classes["tc3"])
	}
	p, pfc = read(`{"roce": {"enable": "on", "mode": "lossy"}}`)
	if pfc.Mode != fabric.PFCModeOff || p.Classes["tc3"].Lossless || p.Classes["tc3"].ECN == nil {
		t.Errorf("RoCE lossy: %+v, PFC %s", p, pfc.Mode)
	}
}
