package nxos

import (
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
)

func TestCheckSupported(t *testing.T) {
	allStrict := examplePolicy()
	allStrict.Classes = map[string]fabric.Class{}
	for tc := range 8 {
		allStrict.Classes["s"+string(rune('a'+tc))] = fabric.Class{TrafficClass: tc, StrictPriority: true}
	}
	fabrictest.CheckPolicyCases(t, CheckSupported, map[string]fabrictest.PolicyCase{
		"example (pcp list, lossless, mtu, ECN)": {examplePolicy(), nil},
		"trust pcp":                              {pcpPolicy(), nil},
		"mtu 1500 and 9216": {fabrictest.WithClass(fabrictest.WithClass(examplePolicy(), "roce", func(c *fabric.Class) { c.MTU = fabric.Ptr(1500) }),
			"cnp", func(c *fabric.Class) { c.MTU = fabric.Ptr(9216) }), nil},
		"36-character name": {fabrictest.Renamed(examplePolicy(), strings.Repeat("a", 36)), []string{
			`classes["default"]: class-map ` + strings.Repeat("a", 36) + "-default, and class-map names have at most 40 characters",
			`classes["roce"]: shorten the policy or class name`}},
		"37-character name": {fabrictest.Renamed(examplePolicy(), strings.Repeat("a", 37)), []string{
			"name: policy-map names have at most 40 characters; use at most 36 characters on nxos"}},
		"7 + 32 characters": {fabrictest.WithClass(fabrictest.Renamed(examplePolicy(), "P123456"), strings.Repeat("c", 32), func(c *fabric.Class) {}), nil},
		"8 + 32 characters": {fabrictest.WithClass(fabrictest.Renamed(examplePolicy(), "P1234567"), strings.Repeat("c", 32), func(c *fabric.Class) {}),
			[]string{`classes["` + strings.Repeat("c", 32) + `"]: class-map P1234567-ccc`}},
		"trust dscp_pcp": {func() *fabric.QoSPolicy { p := examplePolicy(); p.Trust = fabric.TrustDSCPPCP; return p }(),
			[]string{"trust: NX-OS class-maps cannot give DSCP precedence over CoS"}},
		"mtu out of range": {fabrictest.WithClass(fabrictest.WithClass(examplePolicy(), "roce", func(c *fabric.Class) { c.MTU = fabric.Ptr(9217) }),
			"cnp", func(c *fabric.Class) { c.MTU = fabric.Ptr(1499) }),
			[]string{`classes["cnp"].mtu: from 1500 to 9216 bytes (1499 given)`, `classes["roce"].mtu: (9217 given)`}},
		"8 strict classes":                 {allStrict, []string{`classes["sa"].strict_priority: priority levels 1-7`}},
		"all of them, sorted by attribute": {fabrictest.ManyUnsupported(examplePolicy(), 100), []string{`classes["roce"].mtu: `, "name: ", "trust: "}},
	})
}

func TestCheckPFC(t *testing.T) {
	mod, wd := fabrictest.PFCEdits(examplePFC)
	fabrictest.CheckPFCCases(t, CheckPFC, fabrictest.WithSonicOnlyActions(wd, map[string]fabrictest.PFCCase{
		"example":                {*examplePFC(), nil},
		"mode auto":              {mod(func(p *fabric.PFCInterface) { p.Mode = fabric.PFCModeAuto }), nil},
		"mode off, link pause":   {mod(func(p *fabric.PFCInterface) { p.Mode, p.LinkPause = fabric.PFCModeOff, true }), nil},
		"no watchdog, no buffer": {mod(func(p *fabric.PFCInterface) { p.Watchdog, p.Buffer = nil, nil }), nil},
		"empty buffer":           {mod(func(p *fabric.PFCInterface) { p.Buffer = &fabric.PFCBuffer{} }), nil},
		"cable length": {mod(func(p *fabric.PFCInterface) { p.Buffer.CableLengthM = fabric.Ptr(40) }),
			[]string{"buffer.cable_length_m: NX-OS has no cable-length setting"}},
		"xoff alone": {mod(func(p *fabric.PFCInterface) { p.Buffer.XonBytes = nil }),
			[]string{"buffer.xon_bytes: set both xoff_bytes and xon_bytes, or neither"}},
		"xon alone": {mod(func(p *fabric.PFCInterface) { p.Buffer.XoffBytes = nil }),
			[]string{"buffer.xoff_bytes: set both xoff_bytes and xon_bytes, or neither"}},
		"long port name": {mod(func(p *fabric.PFCInterface) { p.Interface = "Ethernet1/1/" + strings.Repeat("1", 30) }),
			[]string{"buffer: policy-map roce-in-Ethernet1_1_111"}},
		"buffer below NX-OS's smallest": {mod(func(p *fabric.PFCInterface) {
			p.Buffer.XoffBytes, p.Buffer.XonBytes = fabric.Ptr(int64(3000)), fabric.Ptr(int64(1999))
		}),
			[]string{"buffer: NX-OS's pause buffer-size (xoff_bytes + xon_bytes = 4999) takes 5000 to 268435456 bytes"}},
		"buffer at NX-OS's smallest": {mod(func(p *fabric.PFCInterface) {
			p.Buffer.XoffBytes, p.Buffer.XonBytes = fabric.Ptr(int64(3000)), fabric.Ptr(int64(2000))
		}), nil},
		"buffer above NX-OS's largest": {mod(func(p *fabric.PFCInterface) {
			p.Buffer.XoffBytes, p.Buffer.XonBytes = fabric.Ptr(int64(268435456)), fabric.Ptr(int64(1))
		}),
			[]string{"buffer: NX-OS's pause buffer-size"}},
		"long port name without buffer": {mod(func(p *fabric.PFCInterface) {
			p.Interface, p.Buffer = "Ethernet1/1/"+strings.Repeat("1", 30), nil
		}), nil},
		"detection time": {wd(func(w *fabric.PFCWatchdog) { w.DetectionTimeMs = 200 }),
			[]string{"watchdog.detection_time_ms: NX-OS watchdog timers are system-wide (interval x multipliers); leave detection_time_ms and restoration_time_ms null"}},
		"restoration time": {wd(func(w *fabric.PFCWatchdog) { w.RestorationTimeMs = 400 }),
			[]string{"watchdog.restoration_time_ms: system-wide"}},
		"several, sorted": {mod(func(p *fabric.PFCInterface) {
			p.Watchdog.Action, p.Watchdog.RestorationTimeMs, p.Watchdog.DetectionTimeMs = fabric.WatchdogAlert, 400, 200
			p.Buffer = &fabric.PFCBuffer{XonBytes: fabric.Ptr(int64(1)), CableLengthM: fabric.Ptr(3)}
		}), []string{"buffer.cable_length_m: ", "buffer.xoff_bytes: ", "watchdog.action: ", "watchdog.detection_time_ms: ",
			"watchdog.restoration_time_ms: "}},
	}))
}

func TestObjectNames(t *testing.T) {
	for got, want := range map[string]string{
		ClassMapName("ROCE", "roce"): "ROCE-roce", NetworkQoSName("ROCE"): "ROCE-nq", QueuingName("ROCE"): "ROCE-out",
		IngressName("Ethernet1/1"): "roce-in-Ethernet1_1", IngressName("Ethernet1/1/4"): "roce-in-Ethernet1_1_4",
		sysClass(nqPrefix, 0): "c-8q-nq-default", sysClass(outPrefix, 7): "c-out-8q-q7", sysClass(inPrefix, 3): "c-in-q3",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
