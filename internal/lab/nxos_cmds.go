package lab

// The `nxos` switch's configuration commands of configure terminal, class-maps and
// policy-maps (their classes' contents are in nxos_class.go, interfaces and system qos in
// nxos_iface.go). Each parses its whole line before it changes x.cfg; x.cfg is a copy anyway,
// dropped if the command fails. x.neg is the `no` form.

import "slices"

func nxosConfigTable(kind nxosModeKind) []nxosCmd {
	var t []nxosCmd
	switch kind {
	case nxConfig:
		t = []nxosCmd{
			{name: "class-map", fn: cmdClassMap, neg: true},
			{name: "policy-map", fn: cmdPolicyMap, neg: true},
			{name: "system", fn: cmdSystemQoS},
			{name: "interface", fn: cmdNXInterface},
			{name: "hostname", fn: cmdNXHostname},
		}
	case nxCmap:
		t = []nxosCmd{{name: "match", fn: cmdMatch, neg: true}}
	case nxPmapQoS:
		t = []nxosCmd{{name: "class", fn: cmdQoSClass, neg: true}}
	case nxPmapNQ:
		t = []nxosCmd{{name: "class", fn: cmdTypedClass(nxNetwork, nxPmapNQClass), neg: true}}
	case nxPmapQue:
		t = []nxosCmd{{name: "class", fn: cmdTypedClass(nxQueuing, nxPmapQueClass), neg: true}}
	default:
		t = nxosSubTable(kind)
	}
	for i := range t {
		t[i].config = true
	}
	return append(t, nxosNegate(t))
}

// nxosSubTable: the classes of policy-maps, system qos and interfaces.
func nxosSubTable(kind nxosModeKind) []nxosCmd {
	switch kind {
	case nxPmapQoSClass:
		return []nxosCmd{{name: "set", fn: cmdSetQoSGroup, neg: true}}
	case nxPmapNQClass:
		return []nxosCmd{{name: "pause", fn: cmdPausePFC, neg: true}, {name: "mtu", fn: cmdClassMTU, neg: true}}
	case nxPmapQueClass:
		return []nxosCmd{
			{name: "bandwidth", fn: cmdBandwidthPct, neg: true},
			{name: "priority", fn: cmdPriorityLevel, neg: true},
			{name: "random-detect", fn: cmdWRED, neg: true},
			{name: "pause", fn: cmdPauseBuffer, neg: true},
		}
	case nxSysQoS:
		return []nxosCmd{{name: "service-policy", fn: cmdServicePolicy, neg: true}}
	case nxIf:
		return []nxosCmd{
			{name: "service-policy", fn: cmdServicePolicy, neg: true},
			{name: "priority-flow-control", fn: cmdIfPFC, neg: true},
			{name: "flowcontrol", fn: cmdNXFlowcontrol, neg: true},
			{name: "description", fn: cmdNXDescription, neg: true},
			{name: "mtu", fn: cmdNXIfMTU, neg: true},
			{name: "shutdown", fn: cmdShutdown, neg: true},
		}
	}
	return nil
}

// nxosNegate is the `no` command of a mode: the next word is one of the mode's commands that
// have a no form.
func nxosNegate(table []nxosCmd) nxosCmd {
	var negs []nxosCmd
	for _, c := range table {
		if c.neg {
			negs = append(negs, c)
		}
	}
	return nxosCmd{name: "no", config: true, fn: func(x *nxosCtx, a *cliArgs) *cliError {
		cmd, err := findCommand(a, negs)
		if err != nil {
			return err
		}
		x.neg = true
		return cmd.fn(x, a)
	}}
}

// cmdClassMap: `class-map type qos [match-any|match-all] NAME` (match-all when not given, as on
// NX-OS), `no class-map type qos [match-any|match-all] NAME`.
func cmdClassMap(x *nxosCtx, a *cliArgs) *cliError {
	if _, err := a.kw("type"); err != nil {
		return err
	}
	if _, err := a.kw("qos"); err != nil {
		return err
	}
	match := ""
	if a.n-a.i >= 2 {
		m, err := a.kw("match-any", "match-all")
		if err != nil {
			return err
		}
		match = m
	}
	name, err := nameArg(a)
	if err != nil {
		return err
	}
	if err := a.done(); err != nil {
		return err
	}
	cm, exists := x.cfg.classMaps[name]
	if x.neg {
		switch {
		case !exists:
			return errFinal("ERROR: class-map %s does not exist", name)
		case x.cfg.classMapInUse(name):
			return errFinal("ERROR: Class-map is in use, cannot delete")
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
func cmdMatch(x *nxosCtx, a *cliArgs) *cliError {
	what, err := a.kw("dscp", "cos")
	if err != nil {
		return err
	}
	hi := 63
	if what == "cos" {
		hi = 7
	}
	set := ^uint64(0)
	if !x.neg || a.more() {
		if set, err = a.list(0, hi); err != nil {
			return err
		}
	}
	if err := a.done(); err != nil {
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
func cmdPolicyMap(x *nxosCtx, a *cliArgs) *cliError {
	if _, err := a.kw("type"); err != nil {
		return err
	}
	typ, err := a.kw(nxQoS, nxNetwork, nxQueuing)
	if err != nil {
		return err
	}
	name, err := nameArg(a)
	if err != nil {
		return err
	}
	if err := a.done(); err != nil {
		return err
	}
	if _, system := nxosSystemPolicies[name]; system {
		return errFinal("ERROR: %s is a system-defined policy-map and cannot be modified", name)
	}
	byName := x.cfg.policies[typ]
	if x.neg {
		switch {
		case byName[name] == nil:
			return errFinal("ERROR: policy-map %s does not exist", name)
		case x.cfg.policyInUse(typ, name):
			return errFinal("ERROR: Policy-map is in use, cannot delete")
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
func cmdQoSClass(x *nxosCtx, a *cliArgs) *cliError {
	name, err := nameArg(a)
	if err != nil {
		return err
	}
	if err := a.done(); err != nil {
		return err
	}
	if _, ok := x.cfg.classMaps[name]; !ok && name != "class-default" && !x.neg {
		return errFinal("ERROR: class-map %s does not exist", name)
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
func cmdTypedClass(typ string, kind nxosModeKind) func(x *nxosCtx, a *cliArgs) *cliError {
	return func(x *nxosCtx, a *cliArgs) *cliError {
		if _, err := a.kw("type"); err != nil {
			return err
		}
		if _, err := a.kw(typ); err != nil {
			return err
		}
		name, err := nameArg(a)
		if err != nil {
			return err
		}
		if err := a.done(); err != nil {
			return err
		}
		if !slices.Contains(nxosSystemClasses[typ], name) {
			return errFinal("ERROR: class-map %s does not exist", name)
		}
		return x.enterClass(name, kind)
	}
}

// enterClass adds the class to the mode's policy-map and enters it; the no form removes it.
func (x *nxosCtx) enterClass(name string, kind nxosModeKind) *cliError {
	p := x.policy()
	if x.neg {
		p.removeClass(name)
		return nil
	}
	p.class(name)
	x.next = nxosMode{kind: kind, name: x.mode.name, class: name}
	return nil
}

func cmdSystemQoS(x *nxosCtx, a *cliArgs) *cliError {
	if _, err := a.kw("qos"); err != nil {
		return err
	}
	if err := a.done(); err != nil {
		return err
	}
	x.next = nxosMode{kind: nxSysQoS}
	return nil
}

func cmdNXInterface(x *nxosCtx, a *cliArgs) *cliError {
	port, err := a.ethernetSlot(len(x.cfg.ifaces))
	if err != nil {
		return err
	}
	if err := a.done(); err != nil {
		return err
	}
	x.next = nxosMode{kind: nxIf, port: port}
	return nil
}

func cmdNXHostname(x *nxosCtx, a *cliArgs) *cliError {
	at := a.i
	name, err := a.word()
	if err != nil {
		return err
	}
	if !hostnameRE.MatchString(name) {
		return errInvalid(at, name)
	}
	if err := a.done(); err != nil {
		return err
	}
	x.cfg.hostname = name
	return nil
}
