package eos

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

// examplePolicy is the contract's roce_qos_policy example without its eos-unsupported mtu,
// bound to Ethernet1 and Ethernet2: roce (TC 3, DSCP 26, PCP 3, lossless, ECN 150/1500
// kbytes), cnp (TC 6, strict), default (TC 0).
func examplePolicy() *fabric.QoSPolicy {
	return &fabric.QoSPolicy{
		Name:                "ROCE",
		Trust:               fabric.TrustDSCP,
		DefaultTrafficClass: 0,
		Classes: map[string]fabric.Class{
			"roce": {TrafficClass: 3, DSCP: []int{26}, PCP: []int{3}, BandwidthPercent: ptr(50), Lossless: true,
				ECN: &fabric.ECN{MinThresholdBytes: 153600, MaxThresholdBytes: 1536000, MarkProbabilityPercent: 100}},
			"cnp":     {TrafficClass: 6, DSCP: []int{48}, StrictPriority: true},
			"default": {TrafficClass: 0, DSCP: []int{0}, BandwidthPercent: ptr(50)},
		},
		Interfaces: []string{"Ethernet1", "Ethernet2"},
	}
}

// updatedPolicy changes the roce ECN and share, adds a lossless storage class with ECN,
// unbinds Ethernet2 and binds Ethernet3.
func updatedPolicy() *fabric.QoSPolicy {
	p := examplePolicy()
	roce := p.Classes["roce"]
	roce.ECN = &fabric.ECN{MinThresholdBytes: 76800, MaxThresholdBytes: 768000, MarkProbabilityPercent: 20}
	roce.BandwidthPercent = ptr(40)
	p.Classes["roce"] = roce
	p.Classes["storage"] = fabric.Class{TrafficClass: 4, DSCP: []int{32, 34}, BandwidthPercent: ptr(10), Lossless: true,
		ECN: &fabric.ECN{MinThresholdBytes: 81920, MaxThresholdBytes: 819200, MarkProbabilityPercent: 5}}
	p.Interfaces = []string{"Ethernet1", "Ethernet3"}
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

// sampleParts splits testdata/eos-running-config-qos-1.txt (the shared sample, source header
// kept) into its parts (A), (B) and (C) at their "# (X)" headers; other '#' lines are the
// sample's annotations, not EOS text, and are dropped.
func sampleParts(t *testing.T) map[string]string {
	t.Helper()
	parts := map[string]string{}
	part := ""
	for _, line := range strings.Split(readTestdata(t, "eos-running-config-qos-1.txt"), "\n") {
		if h, ok := strings.CutPrefix(line, "# ("); ok && len(h) > 1 && h[1] == ')' {
			part = h[:1]
			continue
		}
		if strings.HasPrefix(line, "#") || part == "" {
			continue
		}
		parts[part] += line + "\n"
	}
	if len(parts) != 3 {
		t.Fatalf("sample: want parts A, B and C, found %d", len(parts))
	}
	return parts
}
