package nxos

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"

// Service-policy bindings (system qos and interfaces) and the interface commands of the
// `nxos` switch.

// cmdServicePolicy: in system qos `service-policy type network-qos NAME`, `... type queuing
// output NAME`, `... type qos input NAME`; on an interface `... type qos input NAME`, `... type
// queuing output|input NAME`; and their no forms (the name may be left out). The policy-map
// must exist with that type; a no form puts system qos back to its default binding.
func cmdServicePolicy(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	system := x.mode.kind == nxSysQoS
	binding, err := bindingArg(a, system)
	if err != nil {
		return err
	}
	name := ""
	if !x.neg || a.More() {
		if name, err = nameArg(a); err != nil {
			return err
		}
	}
	if err := a.Done(); err != nil {
		return err
	}
	bindings := x.cfg.system
	if !system {
		bindings = x.iface().servicePolicy
	}
	switch {
	case !x.neg && !x.cfg.policyExists(bindingType(binding), name):
		return cliswitch.ErrFinal("ERROR: policy-map %s does not exist", name)
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
func bindingArg(a *cliswitch.Args, system bool) (string, *cliswitch.Refusal) {
	if _, err := a.Kw("type"); err != nil {
		return "", err
	}
	types := []string{nxQoS, nxQueuing}
	if system {
		types = append(types, nxNetwork)
	}
	typ, err := a.Kw(types...)
	if err != nil {
		return "", err
	}
	var dir string
	switch {
	case typ == nxNetwork:
		return bindNetwork, nil
	case typ == nxQoS:
		dir, err = a.Kw("input")
	case system:
		dir, err = a.Kw("output")
	default:
		dir, err = a.Kw("input", "output")
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
func cmdIfPFC(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	what, err := a.Kw("mode", "watch-dog-interval")
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
	err = optNeg(x, a, func() *cliswitch.Refusal {
		m, err := a.Kw("on", "auto", "off")
		if err != nil {
			return err
		}
		t, err := a.OptKw("send-tlv")
		mode, tlv = m, t != ""
		return err
	})
	if err != nil {
		return err
	}
	if err := a.Done(); err != nil {
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
func onOff(x *nxosCtx, a *cliswitch.Args) (string, *cliswitch.Refusal) {
	return cliswitch.NegLast(a, x.neg, "off", cliswitch.Keyword("on", "off"))
}

// cmdNXFlowcontrol: `flowcontrol send|receive on|off`, `no flowcontrol send|receive [on|off]`.
func cmdNXFlowcontrol(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	dir, err := a.Kw("send", "receive")
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
func cmdNXDescription(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	text := ""
	if !x.neg {
		at := a.Pos
		t, err := a.Rest()
		if err != nil {
			return err
		}
		if len(t) > 254 {
			return cliswitch.ErrInvalid(at, a.Words[at])
		}
		text = t
	}
	x.iface().description = text
	return nil
}

// cmdNXIfMTU: `mtu N` (576-9216), `no mtu [N]` (back to 1500).
func cmdNXIfMTU(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	mtu, err := mtuArg(x, a)
	if err != nil {
		return err
	}
	x.iface().mtu = mtu
	return nil
}

// cmdShutdown: `shutdown`, `no shutdown`.
func cmdShutdown(x *nxosCtx, a *cliswitch.Args) *cliswitch.Refusal {
	if err := a.Done(); err != nil {
		return err
	}
	x.iface().up = x.neg
	return nil
}
