package eos

// The running-config of the `eos` switch in EOS's layout: the header, `no aaa root`, the
// users, the hostname, qos profiles by name, every interface by port number, then the global
// qos map lines; 3 spaces of indent per level and `!` between blocks. The text, the section
// filters and `| json` are all printed from one tree.

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cliswitch"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
)

const eosVersion = "4.31.2F"

// The internal build of 4.31.2F's x86_64 image as a real switch prints it (show version of a
// DCS-7050SX3-48YC12-F, Architecture: x86_64, krikoon73/cc_eantc_2025
// eantc2024/testbeds/evpn-vxlan/tests/init/test_results/PE15-T3-206_merged.md; eos-switch.md,
// "Exec commands"). vEOS-lab's own build ID is not known: it prints this one too.
const (
	eosInternalVersion = "4.31.2F-35442176.4312F"
	eosInternalBuildID = "500c58e3-5beb-4481-afe9-8ad77245cc44"
)

// eosModel is a switch model the lab simulates: its name as `show version` prints it
// (modelName) and its chip family, which decides the queue commands (eos-switch.md, "Models").
type eosModel struct {
	name              string
	strata            bool   // uc-tx-queue (Broadcom Trident/Tomahawk, vEOS); else tx-queue (Sand)
	pfc               bool   // the hardware has PFC (vEOS does not)
	hardwareRevision  string // show version's Hardware version
	imageFormat       string // show version's Image format version: 3.0 on hardware, 1.0 on vEOS-lab
	imageOptimization string
}

// eosModels are the models, the default first.
var eosModels = []eosModel{
	{name: "DCS-7280SR3-48YC8", pfc: true, hardwareRevision: "11.02", imageFormat: "3.0", imageOptimization: "Sand-4GB"},
	{name: "DCS-7060CX-32S", strata: true, pfc: true, hardwareRevision: "12.00", imageFormat: "3.0", imageOptimization: "Strata-4GB"},
	{name: "vEOS-lab", strata: true, imageFormat: "1.0", imageOptimization: "None"},
}

func ModelNames() []string { return device.ModelNames(eosModels, eosModel.modelName) }

func (m eosModel) modelName() string { return m.name }

// eosModelOf is the model named name ("": the default); lookupModel has checked it.
func eosModelOf(name string) eosModel { return device.ModelOf(eosModels, eosModel.modelName, name) }

// eosNode is one configuration line and the lines under it.
type eosNode struct {
	line string
	sep  bool // a `!` line (at this node's indent) goes before it
	// block marks a line that enters a mode: `| json` shows it as an object even when empty.
	block bool
	kids  []*eosNode
}

func (n *eosNode) add(line string) *eosNode {
	k := &eosNode{line: line}
	n.kids = append(n.kids, k)
	return k
}

// runningGroups is the configuration as top-level groups; `!` follows each group.
func (sw *Switch) runningGroups(c *eosConfig) [][]*eosNode {
	users := make([]*eosNode, len(sw.userLine))
	for i, u := range sw.userLine {
		users[i] = &eosNode{line: u}
	}
	groups := [][]*eosNode{{{line: "no aaa root"}}, users, {{line: "hostname " + c.hostname}}}
	for _, name := range slices.Sorted(maps.Keys(c.profiles)) {
		groups = append(groups, []*eosNode{profileNode(name, c.profiles[name])})
	}
	for i, f := range c.ifaces {
		groups = append(groups, []*eosNode{ifaceNode(i+1, f)})
	}
	if m := qosMapNodes(c); len(m) > 0 {
		groups = append(groups, m)
	}
	return groups
}

func profileNode(name string, p *eosProfile) *eosNode {
	n := &eosNode{line: "qos profile " + name, block: true}
	if p.trust != "" {
		n.add("qos trust " + p.trust)
	}
	for _, k := range p.sortedQueues() {
		q := n.add(fmt.Sprintf("%s %d", k.keyword(), k.n))
		q.sep, q.block = true, true
		txQueueBody(q, p.queues[k])
	}
	if pfc := pfcNodes(p.pfc); len(pfc) > 0 {
		pfc[0].sep = true
		n.kids = append(n.kids, pfc...)
	}
	return n
}

func txQueueBody(n *eosNode, q *eosTxQueue) {
	if q.bandwidth > 0 {
		n.add(fmt.Sprintf("bandwidth percent %d", q.bandwidth))
	}
	switch q.priority {
	case "strict":
		n.add("priority strict")
	case "no":
		n.add("no priority")
	}
	if e := q.ecn; e != nil {
		line := fmt.Sprintf("random-detect ecn minimum-threshold %d %s maximum-threshold %d %s", e.min, e.minUnit, e.max, e.maxUnit)
		if e.prob != cliswitch.NoValue {
			line += fmt.Sprintf(" max-mark-probability %d", e.prob)
		}
		if e.weight != cliswitch.NoValue {
			line += fmt.Sprintf(" weight %d", e.weight)
		}
		n.add(line)
	}
	if q.ecnCount {
		n.add("random-detect ecn count") // after the marking line, as AMD's 7388 configuration has it (EOS's own order: assumed)
	}
}

func pfcNodes(p eosPFC) []*eosNode {
	var out []*eosNode
	add := func(format string, args ...any) {
		out = append(out, &eosNode{line: fmt.Sprintf(format, args...)})
	}
	if p.on {
		add("priority-flow-control on")
	}
	for _, prio := range slices.Sorted(maps.Keys(p.prio)) {
		add("priority-flow-control priority %d %s", prio, p.prio[prio])
	}
	if p.wd.enabled {
		add("priority-flow-control pause watchdog")
	}
	if p.wd.action != "" {
		add("priority-flow-control pause watchdog port action %s", p.wd.action)
	}
	if t := p.wd.timer; t != nil {
		polling := "auto"
		if t.polling > 0 {
			polling = centiString(t.polling)
		}
		line := fmt.Sprintf("priority-flow-control pause watchdog port timer timeout %s polling-interval %s recovery-time %s",
			centiString(t.timeout), polling, centiString(t.recovery))
		if t.forced {
			line += " forced"
		}
		add("%s", line)
	}
	return out
}

func ifaceNode(port int, f *eosIface) *eosNode {
	n := &eosNode{line: fmt.Sprintf("interface Ethernet%d", port), block: true}
	if f.description != "" {
		n.add("description " + f.description)
	}
	if f.mtu > 0 {
		n.add(fmt.Sprintf("mtu %d", f.mtu))
	}
	if f.fcSend != "" {
		n.add("flowcontrol send " + f.fcSend)
	}
	if f.fcRecv != "" {
		n.add("flowcontrol receive " + f.fcRecv)
	}
	n.kids = append(n.kids, pfcNodes(f.pfc)...)
	if f.serviceProfile != "" {
		n.add("service-profile " + f.serviceProfile)
	}
	return n
}

// mapLine is one `qos map` line: a target value and its sources.
type mapLine struct {
	tc, dp  int // target (dp only for DSCP)
	sources []int
}

// qosMapNodes are the `qos map` lines for entries that differ from the defaults: cos, dscp,
// then traffic-class to tx-queue; one line per target, sources ascending, ordered by target.
func qosMapNodes(c *eosConfig) []*eosNode {
	var out []*eosNode
	emit := func(prefix string, lines []mapLine, suffix func(mapLine) string) {
		slices.SortFunc(lines, func(a, b mapLine) int { return cmp.Or(cmp.Compare(a.tc, b.tc), cmp.Compare(a.dp, b.dp)) })
		for _, l := range lines {
			src := make([]string, len(l.sources))
			for i, s := range l.sources {
				src[i] = strconv.Itoa(s)
			}
			out = append(out, &eosNode{line: prefix + strings.Join(src, " ") + suffix(l)})
		}
	}
	toTC := func(l mapLine) string {
		s := fmt.Sprintf(" to traffic-class %d", l.tc)
		if l.dp != cliswitch.NoValue {
			s += fmt.Sprintf(" drop-precedence %d", l.dp)
		}
		return s
	}
	var cos, dscp, tcq []mapLine
	for v, tc := range c.cosTC {
		if tc != eosDefaultCoS[v] {
			cos = addSource(cos, tc, cliswitch.NoValue, v)
		}
	}
	for d, tc := range c.dscpTC {
		if tc != eosDefaultCoS[d>>3] || c.dscpDP[d] != cliswitch.NoValue {
			dscp = addSource(dscp, tc, c.dscpDP[d], d)
		}
	}
	for tc, q := range c.tcQueue {
		if q != tc {
			tcq = addSource(tcq, q, cliswitch.NoValue, tc)
		}
	}
	emit("qos map cos ", cos, toTC)
	emit("qos map dscp ", dscp, toTC)
	emit("qos map traffic-class ", tcq, func(l mapLine) string { return fmt.Sprintf(" to tx-queue %d", l.tc) })
	return out
}

// addSource adds a source to the line of its target; sources arrive ascending.
func addSource(lines []mapLine, tc, dp, source int) []mapLine {
	for i := range lines {
		if lines[i].tc == tc && lines[i].dp == dp {
			lines[i].sources = append(lines[i].sources, source)
			return lines
		}
	}
	return append(lines, mapLine{tc: tc, dp: dp, sources: []int{source}})
}

// eosHeader is the configuration's header comment (without `! Command:`). A switch boots the
// EOS image, vEOS its own (the header of every vEOS-lab capture).
func (sw *Switch) eosHeader(c *eosConfig) []string {
	image := "EOS-" + eosVersion
	if sw.model.name == "vEOS-lab" {
		image = "vEOS-lab"
	}
	return []string{
		fmt.Sprintf("! device: %s (%s, EOS-%s)", c.hostname, sw.model.name, eosVersion),
		"! boot system flash:/" + image + ".swi",
	}
}

// renderRunning is `show running-config`.
func (sw *Switch) renderRunning(c *eosConfig) string {
	var b strings.Builder
	h := sw.eosHeader(c)
	fmt.Fprintf(&b, "! Command: show running-config\n%s\n!\n%s\n!\n", h[0], h[1])
	for _, g := range sw.runningGroups(c) {
		for _, n := range g {
			writeNode(&b, n, 0)
		}
		b.WriteString("!\n")
	}
	b.WriteString("end\n")
	return b.String()
}

func writeNode(b *strings.Builder, n *eosNode, depth int) {
	indent := strings.Repeat("   ", depth)
	if n.sep {
		b.WriteString(indent + "!\n")
	}
	b.WriteString(indent + n.line + "\n")
	for _, k := range n.kids {
		writeNode(b, k, depth+1)
	}
}

// renderInterface is `show running-config interfaces EthernetN`: the block alone.
func renderInterface(c *eosConfig, port int) string {
	var b strings.Builder
	writeNode(&b, ifaceNode(port, c.ifaces[port-1]), 0)
	return b.String()
}
