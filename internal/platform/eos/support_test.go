package eos

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
)

func TestCheckSupported(t *testing.T) {
	pcp := examplePolicy()
	pcp.Trust = fabric.TrustPCP
	fabrictest.CheckPolicyCases(t, CheckSupported, map[string]fabrictest.PolicyCase{
		"example (pcp list, lossless, ECN)": {examplePolicy(), nil},
		"trust pcp":                         {pcp, nil},
		"32-character name":                 {fabrictest.Renamed(examplePolicy(), strings.Repeat("a", 32)), nil},
		"33-character name":                 {fabrictest.Renamed(examplePolicy(), strings.Repeat("a", 33)), []string{"name: use at most 32 characters"}},
		"trust dscp_pcp": {func() *fabric.QoSPolicy { p := examplePolicy(); p.Trust = fabric.TrustDSCPPCP; return p }(),
			[]string{"trust: EOS trusts one field per port"}},
		"mtu": {fabrictest.WithClass(fabrictest.WithClass(examplePolicy(), "roce", func(c *fabric.Class) { c.MTU = fabric.Ptr(9216) }),
			"cnp", func(c *fabric.Class) { c.MTU = fabric.Ptr(1500) }),
			[]string{`classes["cnp"].mtu: MTU is per interface`, `classes["roce"].mtu: nxos`}},
		// The example's strict CNP class is TC 6, above the round-robin classes (TC 0, 3): fine.
		"strict below a round-robin class": {fabrictest.WithClass(examplePolicy(), "cnp", func(c *fabric.Class) { c.TrafficClass = 1 }),
			[]string{`classes["cnp"].strict_priority: EOS makes every queue below a round-robin queue round-robin too`}},
		"all of them, sorted by attribute": {fabrictest.ManyUnsupported(examplePolicy(), 9216), []string{`classes["roce"].mtu: `, "name: ", "trust: "}},
	})
}

func TestCheckExact(t *testing.T) {
	if ps := fabric.ECNWholeKilobytes(*examplePolicy()); len(ps) != 0 {
		t.Errorf("whole kbytes: %v", ps)
	}
	p := fabrictest.WithClass(examplePolicy(), "roce", func(c *fabric.Class) {
		c.ECN = &fabric.ECN{MinThresholdBytes: 150000, MaxThresholdBytes: 1536001, MarkProbabilityPercent: 100}
	})
	fabrictest.WithClass(p, "cnp", func(c *fabric.Class) { c.ECN = &fabric.ECN{MinThresholdBytes: 1000, MaxThresholdBytes: 1024} })
	var got []string
	for _, pr := range fabric.ECNWholeKilobytes(*p) {
		got = append(got, pr.Error())
	}
	want := []string{
		`classes["cnp"].ecn.min_threshold_bytes: 1000 bytes is not a whole number of kbytes: ` +
			`This platform sets the value in kbytes: multiples of 1024 bytes, and never rounds silently. Use 1024 (1 kbytes).`,
		`classes["roce"].ecn.min_threshold_bytes: 150000 bytes is not a whole number of kbytes: ` +
			`This platform sets the value in kbytes: multiples of 1024 bytes, and never rounds silently. Use 149504 (146 kbytes) or 150528 (147 kbytes).`,
		`classes["roce"].ecn.max_threshold_bytes: 1536001 bytes is not a whole number of kbytes: ` +
			`This platform sets the value in kbytes: multiples of 1024 bytes, and never rounds silently. Use 1536000 (1500 kbytes) or 1537024 (1501 kbytes).`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CheckExact (-want +got):\n%s", diff)
	}
	path := fabric.ECNWholeKilobytes(*p)[0].Path
	if !path.Equal(fabric.Root("classes").Key("cnp").Attr("ecn").Attr("min_threshold_bytes")) {
		t.Errorf("path = %v", path)
	}
}

func examplePFC() *fabric.PFCInterface {
	return &fabric.PFCInterface{Interface: "Ethernet3", Mode: fabric.PFCModeOn,
		Watchdog: &fabric.PFCWatchdog{Action: fabric.WatchdogDrop, DetectionTimeMs: 200, RestorationTimeMs: 400}}
}

func TestCheckPFC(t *testing.T) {
	mod, wd := fabrictest.PFCEdits(examplePFC)
	fabrictest.CheckPFCCases(t, CheckPFC, fabrictest.WithSonicOnlyActions(wd, map[string]fabrictest.PFCCase{
		"example":                {*examplePFC(), nil},
		"mode off, link pause":   {mod(func(p *fabric.PFCInterface) { p.Mode, p.LinkPause = fabric.PFCModeOff, true }), nil},
		"no watchdog":            {mod(func(p *fabric.PFCInterface) { p.Watchdog = nil }), nil},
		"watchdog without times": {wd(func(w *fabric.PFCWatchdog) { w.DetectionTimeMs, w.RestorationTimeMs = 0, 0 }), nil},
		"10 ms steps":            {wd(func(w *fabric.PFCWatchdog) { w.DetectionTimeMs, w.RestorationTimeMs = 110, 60000 }), nil},
		"mode auto": {mod(func(p *fabric.PFCInterface) { p.Mode = fabric.PFCModeAuto }),
			[]string{`mode: EOS has no DCBX-negotiated PFC mode; mode = "auto" is supported on the nxos platform`}},
		"buffer": {mod(func(p *fabric.PFCInterface) {
			p.Buffer = &fabric.PFCBuffer{XoffBytes: fabric.Ptr(int64(122880)), XonBytes: fabric.Ptr(int64(61440)), CableLengthM: fabric.Ptr(40)}
		}), []string{"buffer.cable_length_m: sonic platform only", "buffer.xoff_bytes: EOS manages PFC headroom per platform",
			"buffer.xon_bytes: EOS manages PFC headroom per platform"}},
		"empty buffer": {mod(func(p *fabric.PFCInterface) { p.Buffer = &fabric.PFCBuffer{} }),
			[]string{"buffer: EOS manages PFC headroom"}},
		"205 ms": {wd(func(w *fabric.PFCWatchdog) { w.DetectionTimeMs = 205 }),
			[]string{"watchdog.detection_time_ms: steps of 10 ms) and this provider never rounds: 205 ms is not a multiple of 10 ms; use 200 or 210"}},
		"5 ms": {wd(func(w *fabric.PFCWatchdog) { w.RestorationTimeMs = 5 }),
			[]string{"watchdog.restoration_time_ms: 5 ms is not a multiple of 10 ms; use 10"}},
		"detection alone": {wd(func(w *fabric.PFCWatchdog) { w.RestorationTimeMs = 0 }),
			[]string{"watchdog.restoration_time_ms: set detection_time_ms and restoration_time_ms together"}},
		"restoration alone": {wd(func(w *fabric.PFCWatchdog) { w.DetectionTimeMs = 0 }),
			[]string{"watchdog.detection_time_ms: set detection_time_ms and restoration_time_ms together"}},
		"several, sorted": {mod(func(p *fabric.PFCInterface) {
			p.Mode, p.Watchdog.Action, p.Watchdog.DetectionTimeMs = fabric.PFCModeAuto, fabric.WatchdogAlert, 101
			p.Buffer = &fabric.PFCBuffer{XonBytes: fabric.Ptr(int64(1))}
		}), []string{"buffer.xon_bytes: ", "mode: ", "watchdog.action: ", "watchdog.detection_time_ms: use 100 or 110"}},
	}))
}
