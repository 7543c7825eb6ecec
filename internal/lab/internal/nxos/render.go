package nxos

// The `nxos` switch's configuration texts in NX-OS's layout (nxos-switch.md, "show
// running-config ipqos"): the `!Command:`/`!Time:` header, the version line, class-maps,
// policy-maps qos, queuing, network-qos (each by name), system qos when it differs from the
// defaults, then each interface after a blank line; 2 spaces of indent per level.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
)

// lines collects indented configuration lines.
type lines []string

func (l *lines) add(depth int, format string, args ...any) {
	*l = append(*l, strings.Repeat("  ", depth)+fmt.Sprintf(format, args...))
}

// ipqosLines are the global QoS blocks of the configuration.
func ipqosLines(c *nxosConfig) lines {
	var l lines
	for _, name := range slices.Sorted(maps.Keys(c.classMaps)) {
		cm := c.classMaps[name]
		match := "match-any"
		if cm.matchAll {
			match = "match-all"
		}
		l.add(0, "class-map type qos %s %s", match, name)
		if cm.dscp != 0 {
			l.add(1, "match dscp %s", compactList(cm.dscp))
		}
		if cm.cos != 0 {
			l.add(1, "match cos %s", compactList(uint64(cm.cos)))
		}
	}
	for _, typ := range []string{nxQoS, nxQueuing, nxNetwork} {
		byName := c.policies[typ]
		for _, name := range slices.Sorted(maps.Keys(byName)) {
			l.add(0, "policy-map type %s %s", typ, name)
			for _, cl := range classOrder(typ, byName[name]) {
				classLines(&l, typ, cl)
			}
		}
	}
	systemLines(&l, c.system)
	return l
}

// classOrder is the order NX-OS prints a policy's classes in: qos in configuration order with
// class-default last, network-qos in configuration order, queuing q7..q1, q-default (out)
// then c-in-q7..c-in-q-default (in).
func classOrder(typ string, p *nxosPolicy) []*nxosClass {
	out := slices.Clone(p.classes)
	switch typ {
	case nxQoS:
		slices.SortStableFunc(out, func(a, b *nxosClass) int {
			return boolInt(a.name == "class-default") - boolInt(b.name == "class-default")
		})
	case nxQueuing:
		order := nxosSystemClasses[nxQueuing]
		slices.SortFunc(out, func(a, b *nxosClass) int {
			return slices.Index(order, a.name) - slices.Index(order, b.name)
		})
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// classLines prints a class and its body, in the order of nxos-switch.md's command lists.
func classLines(l *lines, typ string, cl *nxosClass) {
	switch typ {
	case nxQoS:
		l.add(1, "class %s", cl.name)
		if cl.qosGroup != cliswitch.NoValue {
			l.add(2, "set qos-group %d", cl.qosGroup)
		}
	case nxNetwork:
		l.add(1, "class type network-qos %s", cl.name)
		if cl.pfcCos != 0 {
			l.add(2, "pause pfc-cos %s", compactList(uint64(cl.pfcCos)))
		}
		if cl.mtu != 0 {
			l.add(2, "mtu %d", cl.mtu)
		}
	default:
		l.add(1, "class type queuing %s", cl.name)
		queuingLines(l, cl)
	}
}

func queuingLines(l *lines, cl *nxosClass) {
	switch {
	case cl.bw != cliswitch.NoValue && cl.bwRemain:
		l.add(2, "bandwidth remaining percent %d", cl.bw)
	case cl.bw != cliswitch.NoValue:
		l.add(2, "bandwidth percent %d", cl.bw)
	}
	if cl.priority != 0 {
		l.add(2, "priority level %d", cl.priority)
	}
	if w := cl.wred; w != nil {
		ecn := ""
		if w.ecn {
			ecn = " ecn"
		}
		l.add(2, "random-detect minimum-threshold %d %s maximum-threshold %d %s drop-probability %d weight %d%s",
			w.min, w.minUnit, w.max, w.maxUnit, w.prob, w.weight, ecn)
	}
	if p := cl.pause; p != nil {
		l.add(2, "pause buffer-size %d pause-threshold %d resume-threshold %d", p.buffer, p.pause, p.resume)
	}
}

// systemLines prints `system qos` with the bindings that differ from the defaults (the order
// of the shared sample: qos, queuing, then network-qos).
func systemLines(l *lines, system map[string]string) {
	var body lines
	for _, b := range []string{bindQoSIn, bindQueueOut, bindNetwork} {
		if name := system[b]; name != "" && name != nxosSystemDefaults[b] {
			body.add(1, "service-policy %s %s", b, name)
		}
	}
	if len(body) > 0 {
		l.add(0, "system qos")
		*l = append(*l, body...)
	}
}

// ifaceLines is an interface block: only its QoS settings (ipqos), or all of it. NX-OS prints
// the PFC mode only when it is not auto and flowcontrol only when on.
func ifaceLines(port int, f *nxosIface, ipqos bool) lines {
	var l lines
	l.add(0, "interface Ethernet1/%d", port)
	if f.description != "" && !ipqos {
		l.add(1, "description %s", f.description)
	}
	if f.pfcMode != "auto" || f.pfcTLV {
		tlv := ""
		if f.pfcTLV {
			tlv = " send-tlv"
		}
		l.add(1, "priority-flow-control mode %s%s", f.pfcMode, tlv)
	}
	if f.pfcWatchdog {
		l.add(1, "priority-flow-control watch-dog-interval on")
	}
	if f.mtu != 0 && f.mtu != 1500 && !ipqos {
		l.add(1, "mtu %d", f.mtu)
	}
	if f.fcRecv {
		l.add(1, "flowcontrol receive on")
	}
	if f.fcSend {
		l.add(1, "flowcontrol send on")
	}
	for _, b := range []string{bindQoSIn, bindQueueOut, bindQueuingIn} {
		if name := f.servicePolicy[b]; name != "" {
			l.add(1, "service-policy %s %s", b, name)
		}
	}
	if f.up && !ipqos {
		l.add(1, "no shutdown")
	}
	return l
}

// header is the banner of a `show running-config ...`; times false leaves out the two lines
// that change with the clock (RunningConfig's deterministic form).
func (sw *Switch) header(command string, times bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n!Command: %s\n", command)
	if times {
		fmt.Fprintf(&b, "!Running configuration last done at: %s\n!Time: %s\n", nxosTime(sw.lastChange), nxosTime(time.Now()))
	}
	fmt.Fprintf(&b, "\nversion %s Bios:version %s\n", nxosVersion, nxosBIOS)
	return b.String()
}

// body writes the global blocks after a blank line, then each interface (all of them, or those
// with an ipqos setting) after a blank line.
func body(b *strings.Builder, c *nxosConfig, ipqos bool) {
	b.WriteString("\n")
	for _, s := range ipqosLines(c) {
		b.WriteString(s + "\n")
	}
	for i, f := range c.ifaces {
		l := ifaceLines(i+1, f, ipqos)
		if ipqos && len(l) == 1 {
			continue
		}
		b.WriteString("\n" + strings.Join(l, "\n") + "\n")
	}
}

// renderIPQoS is `show running-config ipqos`.
func (sw *Switch) renderIPQoS(c *nxosConfig, times bool) string {
	var b strings.Builder
	b.WriteString(sw.header("show running-config ipqos", times))
	body(&b, c, true)
	return b.String()
}

// renderFull is `show running-config`: the hostname, the ipqos blocks and every interface
// whole (the lab simulates nothing else).
func (sw *Switch) renderFull(c *nxosConfig) string {
	var b strings.Builder
	b.WriteString(sw.header("show running-config", true))
	b.WriteString("hostname " + c.hostname + "\n")
	body(&b, c, false)
	return b.String()
}

// renderInterfaces is `show running-config interface [Ethernet1/N]` (port 0: every one).
func (sw *Switch) renderInterfaces(c *nxosConfig, port int) string {
	var b strings.Builder
	command := "show running-config interface"
	if port > 0 {
		command += fmt.Sprintf(" Ethernet1/%d", port)
	}
	b.WriteString(sw.header(command, true))
	for i, f := range c.ifaces {
		if port == 0 || port == i+1 {
			b.WriteString("\n" + strings.Join(ifaceLines(i+1, f, false), "\n") + "\n")
		}
	}
	return b.String()
}

// renderStartup is `show startup-config`: the saved configuration, whole.
func (sw *Switch) renderStartup() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n!Command: show startup-config\n!Time: %s\n!Startup config saved at: %s\n",
		nxosTime(time.Now()), nxosTime(sw.startupTime))
	fmt.Fprintf(&b, "\nversion %s Bios:version %s\n", nxosVersion, nxosBIOS)
	b.WriteString("hostname " + sw.startup.hostname + "\n")
	body(&b, sw.startup, false)
	return b.String()
}
