package nxos

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric/fabrictest"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext/clitexttest"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/internal/platformtest"
)

// FuzzParseRunningConfig feeds ParseRunningConfig every sample under testdata (running-configs
// and the golden line files, which parse as configuration too) and the corpus under
// testdata/fuzz/FuzzParseRunningConfig/, mutated. It must not panic; every policy-map,
// class-map and interface it reports must be in the input; values stay in range; and every line
// built from the parsed configuration (policies read back and written again, the contract's
// example created, moved onto every port, renamed and deleted over what the device has, PFC
// created and restored on each port) is one CLI line without a character a CLI session would
// act on, or the writer refuses the device value that would have put one there.
// `make fuzz` runs it for FUZZTIME.

// hasLine reports whether some line of text has the words want, then possibly more words in
// between (optional keywords such as match-any), ending with last.
func hasLine(text string, last string, want ...string) bool {
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) > len(want) && slices.Equal(f[:len(want)], want) && f[len(f)-1] == last {
			return true
		}
	}
	return false
}

func FuzzParseRunningConfig(f *testing.F) {
	for _, text := range platformtest.Files(f, "testdata/*.txt", "testdata/*.golden") {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseRunningConfig(text)
		if platformtest.Refused(t, "a configuration", c, err) {
			return
		}
		for name := range c.QoSPolicies {
			if !hasLine(text, name, "policy-map", "type", "qos") {
				t.Errorf("policy-map %q is not in the input", name)
			}
		}
		for name := range c.ClassMaps {
			if !hasLine(text, name, "class-map", "type", "qos") {
				t.Errorf("class-map %q is not in the input", name)
			}
		}
		for name := range c.Interfaces {
			if !hasLine(text, name, "interface") {
				t.Errorf("interface %q is not in the input", name)
			}
		}
		checkConfig(t, c)
	})
}

func checkConfig(t *testing.T, c *Config) {
	t.Helper()
	for name, cm := range c.ClassMaps {
		for _, m := range cm.Matches {
			hi := map[string]int{"dscp": 63, "cos": 7}[m.Field]
			if (m.Field == "dscp" || m.Field == "cos") && (len(m.Values) == 0 || !slices.IsSorted(m.Values) ||
				m.Values[0] < 0 || m.Values[len(m.Values)-1] > hi) {
				t.Errorf("class-map %q: match %q values %v", name, m.Text, m.Values)
			}
		}
	}
	for name, pm := range c.QoSPolicies {
		for _, cl := range pm.Classes {
			if cl.QoSGroup != nil && (*cl.QoSGroup < 0 || *cl.QoSGroup > 7) {
				t.Errorf("policy-map %q class %q: qos-group %d", name, cl.Name, *cl.QoSGroup)
			}
		}
	}
	for name, pm := range c.NetworkQoS {
		for tc, cl := range pm.Classes {
			if tc < 0 || tc > 7 || cl.MTU != nil && (*cl.MTU < 576 || *cl.MTU > 9216) ||
				slices.ContainsFunc(cl.PauseCOS, func(v int) bool { return v < 0 || v > 7 }) {
				t.Errorf("network-qos %q class %d: %+v", name, tc, *cl)
			}
		}
	}
	for name, pm := range c.Queuing {
		for _, classes := range []map[int]*QueueClass{pm.Out, pm.In} {
			for tc, q := range classes {
				if tc < 0 || tc > 7 || q.PriorityLevel != nil && (*q.PriorityLevel < 1 || *q.PriorityLevel > maxPriorityLevel) {
					t.Errorf("queuing %q class %d: %+v", name, tc, *q)
				}
			}
		}
	}

	clitexttest.ReadEach(t, slices.Sorted(maps.Keys(c.QoSPolicies)), examplePolicy(), c.Policy, func(p *fabric.QoSPolicy) {
		_ = Canonical(*p)
		// Written again, as an update, a rename and a delete do.
		prior := c.PolicyPrior(p.Interfaces)
		clitexttest.WriteBack(t, p, CheckSupported(*p), func(old, next *fabric.QoSPolicy) ([]string, error) {
			return PolicyLines(c, old, next, prior)
		})
	})
	if _, ok := c.Policy("no such policy-map", nil); ok {
		t.Error("Policy of a missing policy-map")
	}
	_ = c.LosslessTCs()
	_ = c.CheckCreate("dev", "ROCE")

	// The contract's example, under its own name and under the name of each policy-map of the
	// device, bound to every port the device has: create, moving every port away, rename and
	// delete meet the device's own objects and bindings and restore its prior ones.
	var ports []string
	for _, port := range slices.Sorted(maps.Keys(c.Interfaces)) {
		if len(fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOff}.Validate()) == 0 {
			ports = append(ports, port)
		}
	}
	names := []string{"ROCE"}
	for name := range c.QoSPolicies {
		if ex := fabrictest.Renamed(examplePolicy(), name); len(ex.Validate()) == 0 && len(CheckSupported(*ex)) == 0 {
			names = append(names, name)
		}
	}
	prior := c.PolicyPrior(ports)
	for _, name := range names {
		ex := fabrictest.Renamed(examplePolicy(), name)
		ex.Interfaces = ports
		bound := boundTo(c, name)
		for _, step := range []struct {
			name      string
			dev       *Config
			old, next *fabric.QoSPolicy
		}{
			{"create", c, nil, ex},
			{"update", bound, ex, updatedPolicy()},
			{"unbind all", bound, ex, fabrictest.WithPorts(ex, nil)},
			{"rename", bound, ex, fabrictest.Renamed(ex, "ROCE2")},
			{"delete", bound, ex, nil},
			{"delete of the unbound", c, ex, nil},
		} {
			next := step.next
			if next != nil && next.Name == "ROCE" && step.old != nil {
				next = fabrictest.Renamed(next, name)
			}
			for _, pr := range []PolicyPrior{prior, {}} {
				lines, err := PolicyLines(step.dev, step.old, next, pr)
				clitexttest.CheckWritten(t, step.name+" of the example as "+name, lines, err)
			}
		}
	}

	lossless := len(c.LosslessTCs()) > 0
	for _, port := range ports {
		pfcPrior := c.PFCPrior(port)
		read, ok := c.PFC(port)
		if !ok || read.Interface != port {
			t.Fatalf("PFC(%q) = %+v, %v", port, read, ok)
		}
		mine := examplePFC()
		mine.Interface = port
		if !lossless {
			mine.Buffer = nil
		}
		if c.CheckPFCAgainst(*mine) != nil {
			mine.Buffer = nil // the port's name is too long for its ingress policy-map
		}
		bare := &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeOff}
		steps := []struct {
			name      string
			old, next *fabric.PFCInterface
		}{{"create", nil, mine}, {"unmanage", mine, bare}, {"delete", mine, nil}}
		if len(read.Validate()) == 0 && c.CheckPFCAgainst(*read) == nil {
			steps = append(steps, struct {
				name      string
				old, next *fabric.PFCInterface
			}{"rewrite of the read", read, read})
		}
		for _, step := range steps {
			lines, err := PFCLines(c, port, step.old, step.next, pfcPrior)
			clitexttest.CheckWritten(t, "PFC "+step.name+" on "+port, lines, err)
		}
	}
}

// boundTo is c after policy name was bound in system qos and on every port.
func boundTo(c *Config, name string) *Config {
	out := *c
	out.System.NetworkQoS = NetworkQoSName(name)
	out.Interfaces = map[string]*Interface{}
	for port, i := range c.Interfaces {
		j := *i
		j.QoSInput, j.QueuingOutput = name, QueuingName(name)
		out.Interfaces[port] = &j
	}
	return &out
}
