package lab

// Service-policy bindings (system qos and interfaces) and the interface commands of the
// `nxos` switch.

// cmdServicePolicy: in system qos `service-policy type network-qos NAME`, `... type queuing
// output NAME`, `... type qos input NAME`; on an interface `... type qos input NAME`, `... type
// queuing output|input NAME`; and their no forms (the name may be left out). The policy-map
// must exist with that type; a no form puts system qos back to its default binding.
func cmdServicePolicy(x *nxosCtx, a *cliArgs) *cliError {
	system := x.mode.kind == nxSysQoS
	binding, err := bindingArg(a, system)
	if err != nil {
		return err
	}
	name := ""
	if !x.neg || a.more() {
		if name, err = nameArg(a); err != nil {
			return err
		}
	}
	if err := a.done(); err != nil {
		return err
	}
	bindings := x.cfg.system
	if !system {
		bindings = x.iface().servicePolicy
	}
	switch {
	case !x.neg && !x.cfg.policyExists(bindingType(binding), name):
		return errFinal("ERROR: policy-map %s does not exist", name)
	case !x.neg:
		bindings[binding] = name
	case system && nxosSystemDefaults[binding] != "":
		bindings[binding] = nxosSystemDefaults[binding]
	default:
		delete(bindings, binding)
	}
	return nil
}

// bindingArg reads `type TYPE [input|output]` as a binding key (bindQoSIn, ...).
func bindingArg(a *cliArgs, system bool) (string, *cliError) {
	if _, err := a.kw("type"); err != nil {
		return "", err
	}
	types := []string{nxQoS, nxQueuing}
	if system {
		types = append(types, nxNetwork)
	}
	typ, err := a.kw(types...)
	if err != nil {
		return "", err
	}
	var dir string
	switch {
	case typ == nxNetwork:
		return bindNetwork, nil
	case typ == nxQoS:
		dir, err = a.kw("input")
	case system:
		dir, err = a.kw("output")
	default:
		dir, err = a.kw("input", "output")
	}
	if err != nil {
		return "", err
	}
	return "type " + typ + " " + dir, nil
}

func (x *nxosCtx) iface() *nxosIface { return x.cfg.ifaces[x.mode.port-1] }

// cmdIfPFC: `priority-flow-control mode on|auto|off [send-tlv]`, `no priority-flow-control mode
// [...]` (back to auto); `priority-flow-control watch-dog-interval on|off`, `no
// priority-flow-control watch-dog-interval [on|off]` (back to off).
func cmdIfPFC(x *nxosCtx, a *cliArgs) *cliError {
	what, err := a.kw("mode", "watch-dog-interval")
	if err != nil {
		return err
	}
	if what == "watch-dog-interval" {
		v, err := onOff(x, a)
		if err != nil {
			return err
		}
		x.iface().pfcWatchdog = v == "on"
		return nil
	}
	mode, tlv := "auto", false
	err = optNeg(x, a, func() *cliError {
		m, err := a.kw("on", "auto", "off")
		if err != nil {
			return err
		}
		t, err := a.optKw("send-tlv")
		mode, tlv = m, t != ""
		return err
	})
	if err != nil {
		return err
	}
	if err := a.done(); err != nil {
		return err
	}
	if x.neg {
		mode, tlv = "auto", false
	}
	f := x.iface()
	f.pfcMode, f.pfcTLV = mode, tlv
	return nil
}

// onOff reads `on|off` and the end of the line; the no form may leave it out and means off.
func onOff(x *nxosCtx, a *cliArgs) (string, *cliError) {
	return negValue(x, a, "off", func() (string, *cliError) { return a.kw("on", "off") })
}

// cmdNXFlowcontrol: `flowcontrol send|receive on|off`, `no flowcontrol send|receive [on|off]`.
func cmdNXFlowcontrol(x *nxosCtx, a *cliArgs) *cliError {
	dir, err := a.kw("send", "receive")
	if err != nil {
		return err
	}
	v, err := onOff(x, a)
	if err != nil {
		return err
	}
	if dir == "send" {
		x.iface().fcSend = v == "on"
	} else {
		x.iface().fcRecv = v == "on"
	}
	return nil
}

// cmdNXDescription: `description TEXT` (up to 254 characters), `no description`.
func cmdNXDescription(x *nxosCtx, a *cliArgs) *cliError {
	text := ""
	if !x.neg {
		at := a.i
		t, err := a.rest()
		if err != nil {
			return err
		}
		if len(t) > 254 {
			return errInvalid(at, a.w[at])
		}
		text = t
	}
	x.iface().description = text
	return nil
}

// cmdNXIfMTU: `mtu N` (576-9216), `no mtu [N]` (back to 1500).
func cmdNXIfMTU(x *nxosCtx, a *cliArgs) *cliError {
	mtu, err := mtuArg(x, a)
	if err != nil {
		return err
	}
	x.iface().mtu = mtu
	return nil
}

// cmdShutdown: `shutdown`, `no shutdown`.
func cmdShutdown(x *nxosCtx, a *cliArgs) *cliError {
	if err := a.done(); err != nil {
		return err
	}
	x.iface().up = x.neg
	return nil
}
