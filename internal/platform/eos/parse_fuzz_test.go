package eos

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
	goldenfile "github.com/rocefabric/terraform-provider-roce/internal/golden"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext/clitexttest"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// Fuzz tests of the running-config parsers (text and `| json`). Seeds are every sample under
// testdata (running-configs and the golden line files, which parse as configuration too) plus
// the corpus under testdata/fuzz/<FuzzName>/. The parsers must not panic; a profile or
// interface they report must be in the input; values stay in range; and whatever the lines
// built from a parsed configuration are (a policy read back and written again, the maps and
// service-profiles restored from the device's prior values, a port's PFC lines restored), each
// is one CLI line without a character a CLI session would act on, or PolicyLines refuses the
// device value that would have put one there. `make fuzz` runs each target for FUZZTIME.

// seedTexts are the testdata files that hold EOS text.
func seedTexts(tb testing.TB) []string {
	tb.Helper()
	return platformtest.Files(tb, "testdata/*.txt", "testdata/*.golden")
}

// hasLine reports whether some line of text has exactly the words want.
func hasLine(text string, want ...string) bool {
	for _, l := range strings.Split(text, "\n") {
		if slices.Equal(strings.Fields(l), want) {
			return true
		}
	}
	return false
}

// treeJSON renders a tree as `show running-config | json` prints it.
func treeJSON(nodes []*node) string {
	var b strings.Builder
	b.WriteString(`{"cmds": {`)
	for i, n := range nodes {
		if i > 0 {
			b.WriteString(", ")
		}
		k, _ := json.Marshal(n.Line)
		b.Write(k)
		b.WriteString(": ")
		if n.Children == nil {
			b.WriteString("null")
		} else {
			b.WriteString(treeJSON(n.Children))
		}
	}
	b.WriteString(`}, "comments": []}`)
	return b.String()
}

func FuzzParseRunningConfig(f *testing.F) {
	for _, s := range seedTexts(f) {
		f.Add(s)
	}
	f.Add("interface Ethernet1\n   service-profile ROCE\n   flowcontrol send on\nqos profile ROCE\n   tx-queue 3\n      bandwidth percent 100\n")
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseRunningConfig(text)
		if platformtest.Refused(t, "a configuration", c, err) {
			return
		}
		for name := range c.Profiles {
			if !hasLine(text, "qos", "profile", name) {
				t.Errorf("profile %q is not in the input", name)
			}
		}
		for name := range c.Interfaces {
			if !hasLine(text, "interface", name) {
				t.Errorf("interface %q is not in the input", name)
			}
		}
		checkConfig(t, c)
		// The `| json` form of the same configuration reads the same.
		if utf8.ValidString(text) {
			js, err := ParseRunningConfigJSON([]byte(treeJSON(clitext.Tree(text))))
			if err != nil || !reflect.DeepEqual(c, js) {
				t.Errorf("the JSON form reads differently (%v):\n text %+v\n json %+v", err, c, js)
			}
		}
	})
}

func FuzzParseRunningConfigJSON(f *testing.F) {
	for _, s := range seedTexts(f) {
		f.Add([]byte(treeJSON(clitext.Tree(s))))
	}
	f.Add([]byte(goldenfile.Read(f, "testdata/eos-switch-running-config.json")))
	f.Add([]byte(`{"cmds": {"qos profile ROCE": {"cmds": {"tx-queue 3": {"cmds": {"bandwidth percent 100": null}}}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, ok := platformtest.ParseJSON(t, "a configuration", ParseRunningConfigJSON, b)
		if !ok {
			return
		}
		checkConfig(t, c)
	})
}

// checkConfig asserts the ranges of a parsed configuration, then reads every policy and port
// back and writes lines from what was read, checking each line.
func checkConfig(t *testing.T, c *Config) {
	t.Helper()
	for _, m := range [][]int{c.DSCPToTC[:], c.COSToTC[:], c.TCToQueue[:]} {
		for k, v := range m {
			if v < 0 || v > 7 {
				t.Errorf("map entry %d -> %d", k, v)
			}
		}
	}
	for name, p := range c.Profiles {
		if !slices.IsSorted(p.NoDrop) || slices.ContainsFunc(p.NoDrop, func(v int) bool { return v < 0 || v > 7 }) {
			t.Errorf("profile %q: no-drop %v", name, p.NoDrop)
		}
		for q, tq := range p.Queues {
			if q < 0 || q > 7 || tq == nil {
				t.Errorf("profile %q: tx-queue %d", name, q)
				continue
			}
			if tq.BandwidthPercent != nil && (*tq.BandwidthPercent < 0 || *tq.BandwidthPercent > 100) {
				t.Errorf("profile %q: tx-queue %d bandwidth %d", name, q, *tq.BandwidthPercent)
			}
			if e := tq.ECN; e != nil && (e.MinBytes < Unknown || e.MaxBytes < Unknown || e.Probability < 1 || e.Probability > 100) {
				t.Errorf("profile %q: tx-queue %d ECN %+v", name, q, *e)
			}
		}
	}
	for name, i := range c.Interfaces {
		if i.Name != name {
			t.Errorf("interface %q named %q", name, i.Name)
		}
		if w := i.Watchdog; w != nil && (w.TimeoutMs < 0 || w.RecoveryMs < 0) {
			t.Errorf("interface %q: watchdog %+v", name, *w)
		}
	}

	clitexttest.ReadEach(t, slices.Sorted(maps.Keys(c.Profiles)), examplePolicy(), c.Policy, func(p *fabric.QoSPolicy) {
		for cn, cl := range p.Classes {
			if cl.TrafficClass < 0 || cl.TrafficClass > 7 {
				t.Errorf("policy %q class %q: traffic class %d", p.Name, cn, cl.TrafficClass)
			}
		}
		if p.DefaultTrafficClass < Unknown || p.DefaultTrafficClass > 7 {
			t.Errorf("policy %q: default traffic class %d", p.Name, p.DefaultTrafficClass)
		}
		_ = Canonical(*p)
		// Written again, as an update, a rename and a delete do.
		prior := c.PolicyPrior(p.Interfaces)
		clitexttest.WriteBack(t, p, CheckSupported(*p), func(old, next *fabric.QoSPolicy) ([]string, error) {
			return PolicyLines(c, old, next, prior)
		})
	})
	if _, ok := c.Policy("no such profile "+strings.Repeat("x", 3), nil); ok {
		t.Error("Policy of a missing profile")
	}

	// The contract's example bound to every port the device has, so that update, unbind and
	// delete restore what the device had there before.
	var ports []string
	for _, port := range slices.Sorted(maps.Keys(c.Interfaces)) {
		if len(fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOff}.Validate()) == 0 {
			ports = append(ports, port)
		}
	}
	ex := examplePolicy()
	ex.Interfaces = ports
	prior := c.PolicyPrior(ports)
	bound := boundTo(c, ex.Name)
	for _, step := range []struct {
		name      string
		old, next *fabric.QoSPolicy
	}{
		{"create", nil, ex},
		{"unbind all", ex, fabrictest.WithPorts(ex, nil)},
		{"rename", ex, fabrictest.Renamed(ex, "ROCE2")},
		{"delete", ex, nil},
	} {
		lines, err := PolicyLines(bound, step.old, step.next, prior)
		clitexttest.CheckWritten(t, step.name+" of the example", lines, err)
	}
	lines, err := PolicyLines(bound, ex, nil, PolicyPrior{})
	clitexttest.CheckWritten(t, "delete without prior", lines, err)

	for _, port := range ports {
		pfcPrior := c.PFCPrior(port)
		read, ok := c.PFC(port)
		if !ok || read.Interface != port || read.Mode != fabric.PFCModeOn && read.Mode != fabric.PFCModeOff {
			t.Fatalf("PFC(%q) = %+v, %v", port, read, ok)
		}
		mine := examplePFC()
		mine.Interface = port
		for _, step := range []struct {
			name      string
			old, next *fabric.PFCInterface
		}{{"create", nil, mine}, {"unmanage watchdog", mine, &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOff}}, {"delete", mine, nil}} {
			clitexttest.CheckLines(t, "PFC "+step.name+" on "+port, PFCLines(port, step.old, step.next, pfcPrior))
		}
		if len(read.Validate()) == 0 && len(CheckPFC(*read)) == 0 {
			clitexttest.CheckLines(t, "PFC read back on "+port, PFCLines(port, read, read, pfcPrior))
		}
	}
}

// boundTo is c with every interface's service-profile set to name: the device after a policy
// named name was bound to all of its ports.
func boundTo(c *Config, name string) *Config {
	out := *c
	out.Interfaces = map[string]*Interface{}
	for port, i := range c.Interfaces {
		j := *i
		j.ServiceProfile = name
		out.Interfaces[port] = &j
	}
	return &out
}
