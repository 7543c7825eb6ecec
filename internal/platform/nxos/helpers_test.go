package nxos

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
)

func ptr[T any](v T) *T { return &v }

// examplePolicy is the contract's roce_qos_policy example bound to Ethernet1/1 and
// Ethernet1/2: roce (TC 3, DSCP 26, PCP 3, lossless, mtu 9216, ECN 150/1500 kbytes), cnp
// (TC 6, strict), default (TC 0). PCP is not written under trust dscp.
func examplePolicy() *fabric.QoSPolicy {
	return &fabric.QoSPolicy{
		Name:                "ROCE",
		Trust:               fabric.TrustDSCP,
		DefaultTrafficClass: 0,
		Classes: map[string]fabric.Class{
			"roce": {TrafficClass: 3, DSCP: []int{26}, PCP: []int{3}, BandwidthPercent: ptr(50), Lossless: true, MTU: ptr(9216),
				ECN: &fabric.ECN{MinThresholdBytes: 153600, MaxThresholdBytes: 1536000, MarkProbabilityPercent: 100}},
			"cnp":     {TrafficClass: 6, DSCP: []int{48}, StrictPriority: true},
			"default": {TrafficClass: 0, DSCP: []int{0}, BandwidthPercent: ptr(50)},
		},
		Interfaces: []string{"Ethernet1/1", "Ethernet1/2"},
	}
}

// updatedPolicy widens roce's DSCPs, changes its ECN and share and lets go of its mtu; adds a
// lossless storage class with an mtu; replaces cnp (strict, TC 6) by control (strict, TC 7);
// gives default an mtu; unbinds Ethernet1/2 and binds Ethernet1/3.
func updatedPolicy() *fabric.QoSPolicy {
	p := examplePolicy()
	withClass(p, "roce", func(c *fabric.Class) {
		c.DSCP, c.MTU, c.BandwidthPercent = []int{24, 26}, nil, ptr(40)
		c.ECN = &fabric.ECN{MinThresholdBytes: 76800, MaxThresholdBytes: 768000, MarkProbabilityPercent: 20}
	})
	withClass(p, "default", func(c *fabric.Class) { c.MTU = ptr(9216) })
	delete(p.Classes, "cnp")
	p.Classes["control"] = fabric.Class{TrafficClass: 7, DSCP: []int{48}, StrictPriority: true}
	p.Classes["storage"] = fabric.Class{TrafficClass: 4, DSCP: []int{32, 34}, BandwidthPercent: ptr(10), Lossless: true,
		MTU: ptr(9216), ECN: &fabric.ECN{MinThresholdBytes: 81920, MaxThresholdBytes: 819200, MarkProbabilityPercent: 5}}
	p.Interfaces = []string{"Ethernet1/1", "Ethernet1/3"}
	return p
}

// pcpPolicy is the example with trust pcp: roce PCP 3, cnp PCP 6, default none; unlisted
// CoS values go to TC 1, which has no class.
func pcpPolicy() *fabric.QoSPolicy {
	p := examplePolicy()
	p.Trust, p.DefaultTrafficClass, p.Interfaces = fabric.TrustPCP, 1, []string{"Ethernet1/4"}
	withClass(p, "cnp", func(c *fabric.Class) { c.PCP = []int{6} })
	return p
}

func renamed(p *fabric.QoSPolicy, name string) *fabric.QoSPolicy {
	q := *p
	q.Name = name
	return &q
}

// withClass returns p with class n changed by f.
func withClass(p *fabric.QoSPolicy, n string, f func(c *fabric.Class)) *fabric.QoSPolicy {
	c := p.Classes[n]
	f(&c)
	p.Classes[n] = c
	return p
}

// examplePFC is roce_pfc_interface on Ethernet1/3 with mode on, a buffer and the watchdog.
func examplePFC() *fabric.PFCInterface {
	return &fabric.PFCInterface{Interface: "Ethernet1/3", Mode: fabric.PFCModeOn,
		Buffer:   &fabric.PFCBuffer{XoffBytes: ptr(int64(122880)), XonBytes: ptr(int64(61440))},
		Watchdog: &fabric.PFCWatchdog{Action: fabric.WatchdogDrop}}
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name)) //nolint:gosec // the tests name their own files
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// parseFile parses a running-config under testdata.
func parseFile(t *testing.T, name string) *Config {
	t.Helper()
	return mustParse(t, readTestdata(t, name))
}

func mustParse(t *testing.T, text string) *Config {
	t.Helper()
	c, err := ParseRunningConfig(text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// numberList matches an indented JSON array of numbers, which render puts on one line.
var numberList = regexp.MustCompile(`\[\s*-?\d+(?:,\s*-?\d+)*\s*\]`)

// render prints v as indented JSON (map keys sorted, number arrays on one line), a stable and
// readable form for golden files.
func render(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out := numberList.ReplaceAllStringFunc(string(b), func(s string) string {
		return "[" + strings.Join(strings.Fields(strings.Trim(s, "[]")), " ") + "]"
	})
	return out + "\n"
}

// lines renders configuration lines one per line, as a session would receive them.
func lines(ls []string) string { return strings.Join(ls, "\n") + "\n" }

// sample is testdata/nxos-running-config-ipqos-1.txt (the shared sample, source header kept)
// without its '#' annotation lines, which are not NX-OS text.
func sample(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(readTestdata(t, "nxos-running-config-ipqos-1.txt"), "\n") {
		if !strings.HasPrefix(line, "#") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// enters reports whether a configuration line enters a sub-mode.
func enters(l string) bool {
	for _, p := range []string{"class-map ", "policy-map ", "class ", "interface "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return l == "system qos"
}

// indent renders configuration lines as running-config text: each line indented 2 spaces per
// sub-mode it is typed in, "exit" dropped.
func indent(t *testing.T, ls []string) string {
	t.Helper()
	var b strings.Builder
	depth := 0
	for _, l := range ls {
		if l == "exit" {
			depth--
			continue
		}
		b.WriteString(strings.Repeat("  ", depth) + l + "\n")
		if enters(l) {
			depth++
		}
	}
	if depth != 0 {
		t.Fatalf("lines end %d modes below global configuration", depth)
	}
	return b.String()
}
