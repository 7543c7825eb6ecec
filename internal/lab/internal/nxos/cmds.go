package nxos

// The `nxos` switch's configuration commands of configure terminal, class-maps and
// policy-maps (their classes' contents are in class.go, interfaces and system qos in
// iface.go). Each parses its whole line before it changes x.cfg; x.cfg is a copy anyway,
// dropped if the command fails. x.neg is the `no` form.

import (
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

func nxosConfigTable(kind nxosModeKind) []nxosCmd {
	var t []nxosCmd
	switch kind {
	case nxConfig:
		t = []nxosCmd{
			{Name: "class-map", Fn: cmdClassMap, Neg: true},
			{Name: "policy-map", Fn: cmdPolicyMap, Neg: true},
			{Name: "system", Fn: cmdSystemQoS},
			{Name: "interface", Fn: cmdNXInterface},
			{Name: "hostname", Fn: cliswitch.Hostname(setHostname)},
		}
	case nxCmap:
		t = []nxosCmd{{Name: "match", Fn: cmdMatch, Neg: true}}
	case nxPmapQoS:
		t = []nxosCmd{{Name: "class", Fn: cmdQoSClass, Neg: true}}
	case nxPmapNQ:
		t = []nxosCmd{{Name: "class", Fn: cmdTypedClass(nxNetwork, nxPmapNQClass), Neg: true}}
	case nxPmapQue:
		t = []nxosCmd{{Name: "class", Fn: cmdTypedClass(nxQueuing, nxPmapQueClass), Neg: true}}
	default:
		t = nxosSubTable(kind)
	}
	return cliswitch.ConfigMode(t, negated)
}

// nxosSubTable: the classes of policy-maps, system qos and interfaces.
func nxosSubTable(kind nxosModeKind) []nxosCmd {
	switch kind {
	case nxPmapQoSClass:
		return []nxosCmd{{Name: "set", Fn: cmdSetQoSGroup, Neg: true}}
	case nxPmapNQClass:
		return []nxosCmd{{Name: "pause", Fn: cmdPausePFC, Neg: true}, {Name: "mtu", Fn: cmdClassMTU, Neg: true}}
	case nxPmapQueClass:
		return []nxosCmd{
			{Name: "bandwidth", Fn: cmdBandwidthPct, Neg: true},
			{Name: "priority", Fn: cmdPriorityLevel, Neg: true},
			{Name: "random-detect", Fn: cmdWRED, Neg: true},
			{Name: "pause", Fn: cmdPauseBuffer, Neg: true},
		}
	case nxSysQoS:
		return []nxosCmd{{Name: "service-policy", Fn: cmdServicePolicy, Neg: true}}
	case nxIf:
		return []nxosCmd{
			{Name: "service-policy", Fn: cmdServicePolicy, Neg: true},
			{Name: "priority-flow-control", Fn: cmdIfPFC, Neg: true},
			{Name: "flowcontrol", Fn: cmdNXFlowcontrol, Neg: true},
			{Name: "description", Fn: cmdNXDescription, Neg: true},
			{Name: "mtu", Fn: cmdNXIfMTU, Neg: true},
			{Name: "shutdown", Fn: cmdShutdown, Neg: true},
		}
	}
	return nil
}

// negated marks a command run after `no` (cliswitch.ConfigMode).
func negated(x *nxosCtx) { x.neg = true }

// cmdClassMap: `class-map type qos [match-any|match-all] NAME` (match-all when not given, as on
// NX-OS), `no class-map type qos [match-any|match-all] NAME`.
func cmdClassMap(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Keywords("type", "qos"); err != nil {
		return err
	}
	match := ""
	if a.End-a.Pos >= 2 {
		m, err := a.Kw("match-any", "match-all")
		if err != nil {
			return err
		}
		match = m
	}
	name, err := cliswitch.Last(a, nameArg)
	if err != nil {
		return err
	}
	cm, exists := x.cfg.classMaps[name]
	if x.neg {
		switch {
		case !exists:
			return cliswitch.ErrFinal("ERROR: class-map %s does not exist", name)
		case x.cfg.classMapInUse(name):
			return cliswitch.ErrFinal("ERROR: Class-map is in use, cannot delete")
		}
		delete(x.cfg.classMaps, name)
		return nil
	}
	if !exists {
		cm = &nxosClassMap{matchAll: true}
		x.cfg.classMaps[name] = cm
	}
	if match != "" {
		cm.matchAll = match == "match-all"
	}
	x.next = nxosMode{kind: nxCmap, name: name}
	return nil
}

// classMap is the class-map of the mode, re-created if another terminal deleted it meanwhile.
func (x *nxosCtx) classMap() *nxosClassMap {
	cm, ok := x.cfg.classMaps[x.mode.name]
	if !ok {
		cm = &nxosClassMap{matchAll: true}
		x.cfg.classMaps[x.mode.name] = cm
	}
	return cm
}

// cmdMatch: `[no] match dscp LIST` (0-63), `[no] match cos LIST` (0-7). Repeated lines add to
// the set; the no form takes values out (all of them without a list).
func cmdMatch(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	what, err := a.Kw("dscp", "cos")
	if err != nil {
		return err
	}
	hi := 63
	if what == "cos" {
		hi = 7
	}
	set := ^uint64(0)
	if !x.neg || a.More() {
		if set, err = argList(a, 0, hi); err != nil {
			return err
		}
	}
	if err := a.Done(); err != nil {
		return err
	}
	cm := x.classMap()
	switch {
	case what == "cos" && x.neg:
		cm.cos &^= uint8(set)
	case what == "cos":
		cm.cos |= uint8(set)
	case x.neg:
		cm.dscp &^= set
	default:
		cm.dscp |= set
	}
	return nil
}

// cmdPolicyMap: `[no] policy-map type qos|network-qos|queuing NAME`.
func cmdPolicyMap(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if _, err := a.Kw("type"); err != nil {
		return err
	}
	typ, err := a.Kw(nxQoS, nxNetwork, nxQueuing)
	if err != nil {
		return err
	}
	name, err := cliswitch.Last(a, nameArg)
	if err != nil {
		return err
	}
	if _, system := nxosSystemPolicies[name]; system {
		return cliswitch.ErrFinal("ERROR: %s is a system-defined policy-map and cannot be modified", name)
	}
	byName := x.cfg.policies[typ]
	if x.neg {
		switch {
		case byName[name] == nil:
			return cliswitch.ErrFinal("ERROR: policy-map %s does not exist", name)
		case x.cfg.policyInUse(typ, name):
			return cliswitch.ErrFinal("ERROR: Policy-map is in use, cannot delete")
		}
		delete(byName, name)
		return nil
	}
	if byName[name] == nil {
		byName[name] = &nxosPolicy{}
	}
	kinds := map[string]nxosModeKind{nxQoS: nxPmapQoS, nxNetwork: nxPmapNQ, nxQueuing: nxPmapQue}
	x.next = nxosMode{kind: kinds[typ], name: name}
	return nil
}

// modePolicyType is the policy-map type of a policy-map mode or of its class mode.
func modePolicyType(kind nxosModeKind) string {
	switch kind {
	case nxPmapQoS, nxPmapQoSClass:
		return nxQoS
	case nxPmapNQ, nxPmapNQClass:
		return nxNetwork
	}
	return nxQueuing
}

// policy is the policy-map of the mode, re-created if another terminal deleted it meanwhile.
func (x *nxosCtx) policy() *nxosPolicy {
	byName := x.cfg.policies[modePolicyType(x.mode.kind)]
	p, ok := byName[x.mode.name]
	if !ok {
		p = &nxosPolicy{}
		byName[x.mode.name] = p
	}
	return p
}

// class is the class of the class mode.
func (x *nxosCtx) class() *nxosClass { return x.policy().class(x.mode.class) }

// cmdQoSClass: `[no] class NAME` in a qos policy-map; the class-map must exist, except
// class-default.
func cmdQoSClass(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	name, err := cliswitch.Last(a, nameArg)
	if err != nil {
		return err
	}
	if _, ok := x.cfg.classMaps[name]; !ok && name != "class-default" && !x.neg {
		return cliswitch.ErrFinal("ERROR: class-map %s does not exist", name)
	}
	return x.enterClass(name, nxPmapQoSClass)
}

// nxosSystemClasses are the system-defined classes of network-qos and queuing policy-maps, in
// the order NX-OS prints queuing classes.
var nxosSystemClasses = map[string][]string{
	nxNetwork: {"c-8q-nq1", "c-8q-nq2", "c-8q-nq3", "c-8q-nq4", "c-8q-nq5", "c-8q-nq6", "c-8q-nq7", "c-8q-nq-default"},
	nxQueuing: {
		"c-out-8q-q7", "c-out-8q-q6", "c-out-8q-q5", "c-out-8q-q4", "c-out-8q-q3", "c-out-8q-q2", "c-out-8q-q1", "c-out-8q-q-default",
		"c-in-q7", "c-in-q6", "c-in-q5", "c-in-q4", "c-in-q3", "c-in-q2", "c-in-q1", "c-in-q-default",
	},
}

// cmdTypedClass: `[no] class type network-qos|queuing NAME`; NAME is one of the system classes.
func cmdTypedClass(typ string, kind nxosModeKind) func(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	return func(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
		if _, err := a.Kw("type"); err != nil {
			return err
		}
		if _, err := a.Kw(typ); err != nil {
			return err
		}
		name, err := cliswitch.Last(a, nameArg)
		if err != nil {
			return err
		}
		if !slices.Contains(nxosSystemClasses[typ], name) {
			return cliswitch.ErrFinal("ERROR: class-map %s does not exist", name)
		}
		return x.enterClass(name, kind)
	}
}

// enterClass adds the class to the mode's policy-map and enters it; the no form removes it.
func (x *nxosCtx) enterClass(name string, kind nxosModeKind) *cliswitch.Refusal {
	p := x.policy()
	if x.neg {
		p.removeClass(name)
		return nil
	}
	p.class(name)
	x.next = nxosMode{kind: kind, name: x.mode.name, class: name}
	return nil
}

func cmdSystemQoS(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if _, err := cliswitch.Last(a, cliswitch.Keyword("qos")); err != nil {
		return err
	}
	x.next = nxosMode{kind: nxSysQoS}
	return nil
}

func cmdNXInterface(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	port, err := cliswitch.Last(a, ethernetSlot(len(x.cfg.ifaces)))
	if err != nil {
		return err
	}
	x.next = nxosMode{kind: nxIf, port: port}
	return nil
}

func setHostname(x *nxosCtx, name string) { x.cfg.hostname = name }
