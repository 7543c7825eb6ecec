package nxos

import (
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext/clitexttest"
)

// replay applies configuration lines to the running-config text before, block by block, as
// NX-OS would, and returns the configuration after. Each top-level block is first checked
// against the configuration as it is at that point, with the rules NX-OS enforces line by
// line (nxos-switch.md, "Errors"): a class or service-policy names an existing class-map or
// policy-map, a `no service-policy` names the attached one, and a policy-map or class-map is
// deleted only when it exists and nothing uses it.
func replay(t *testing.T, before string, ls []string) *Config {
	t.Helper()
	checkModes(t, ls)
	text := before
	var blockLines []string
	depth := 0
	for _, l := range ls {
		blockLines = append(blockLines, l)
		switch {
		case l == "exit":
			depth--
		case enters(l):
			depth++
		}
		if depth == 0 {
			checkBlock(t, running.Text(t, text), blockLines)
			text += indent(t, blockLines)
			blockLines = nil
		}
	}
	return running.Text(t, text)
}

// checkBlock checks one top-level block (or line) against c, the configuration before it.
func checkBlock(t *testing.T, c *Config, ls []string) {
	t.Helper()
	head := strings.Fields(ls[0])
	policyMap := len(head) == 4 && head[0] == "policy-map" && head[1] == "type" && head[2] == "qos"
	var bindings *Bindings
	if len(head) == 2 && head[0] == "interface" {
		bindings = &Bindings{}
		if i := c.Interfaces[head[1]]; i != nil {
			bindings = &i.Bindings
		}
	} else if ls[0] == "system qos" {
		bindings = &c.System
	}
	for _, l := range ls {
		f := strings.Fields(l)
		switch {
		case policyMap && len(f) == 2 && f[0] == "class" && f[1] != classDefault && c.ClassMaps[f[1]] == nil:
			t.Errorf("%q: ERROR: class-map %s does not exist", l, f[1])
		case bindings != nil && len(f) >= 4 && f[0] == "service-policy":
			if !c.hasPolicyMap(f[2], f[len(f)-1]) && f[len(f)-1] != DefaultNetworkQoS {
				t.Errorf("%q: ERROR: policy-map %s does not exist", l, f[len(f)-1])
			}
		case bindings != nil && len(f) >= 5 && f[0] == "no" && f[1] == "service-policy":
			b := *bindings
			b.line(f[1:]) // what the binding would be after attaching the named policy
			if b != *bindings {
				t.Errorf("%q: the port does not have %s attached (%+v)", l, f[len(f)-1], *bindings)
			}
		case len(f) == 5 && f[0] == "no" && f[1] == "policy-map":
			if !c.hasPolicyMap(f[3], f[4]) {
				t.Errorf("%q: ERROR: policy-map %s does not exist", l, f[4])
			} else if c.attached(f[4]) {
				t.Errorf("%q: ERROR: Policy-map is in use, cannot delete", l)
			}
		case len(f) == 5 && f[0] == "no" && f[1] == "class-map":
			if c.ClassMaps[f[4]] == nil {
				t.Errorf("%q: ERROR: class-map %s does not exist", l, f[4])
			}
			for name, pm := range c.QoSPolicies {
				for _, cl := range pm.Classes {
					if cl.Name == f[4] {
						t.Errorf("%q: class-map in use by policy-map %s", l, name)
					}
				}
			}
		}
	}
}

// attached reports whether a policy-map of that name is attached anywhere.
func (c *Config) attached(name string) bool {
	all := []Bindings{c.System}
	for _, i := range c.Interfaces {
		all = append(all, i.Bindings)
	}
	for _, b := range all {
		if b.QoSInput == name || b.QueuingOutput == name || b.QueuingInput == name || b.NetworkQoS == name {
			return true
		}
	}
	return false
}

// checkModes asserts the session discipline (clitexttest.CheckModes): checkpoints and
// rollbacks are the transport's.
func checkModes(t *testing.T, ls []string) {
	t.Helper()
	clitexttest.CheckModes(t, ls, 2, enters, func(l string) bool {
		return l == "end" || strings.HasPrefix(l, "checkpoint") || strings.HasPrefix(l, "rollback")
	})
}

// settled drops what a switch would not print: interfaces without a QoS or PFC line, and a
// system qos binding of the default network-qos policy.
func settled(c *Config) *Config {
	for name, i := range c.Interfaces {
		if *i == (Interface{}) {
			delete(c.Interfaces, name)
		}
	}
	if c.System.NetworkQoS == DefaultNetworkQoS {
		c.System.NetworkQoS = ""
	}
	return c
}
