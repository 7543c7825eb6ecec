package nxos

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext"
)

// PolicyPrior is what a policy changes outside its own objects, as the device had it before:
// the network-qos policy `system qos` bound ("" for the platform default) and each bound
// port's qos input and queuing output service-policies ("" none). It is JSON-encodable for
// private state. The zero value (no recorded prior, as after import) restores
// DefaultNetworkQoS and removes the port bindings.
type PolicyPrior struct {
	NetworkQoS string `json:"network_qos"`
	// QueuingOutput is the queuing policy `system qos` bound ("" for the platform default,
	// default-8q-out-policy).
	QueuingOutput string                  `json:"queuing_output,omitempty"`
	Ports         map[string]PortPolicies `json:"ports"`
}

// PortPolicies are a port's service-policies a policy replaces.
type PortPolicies struct {
	QoSInput      string `json:"qos_input"`
	QueuingOutput string `json:"queuing_output"`
}

// PolicyPrior records the system network-qos binding now and each port's service-policies now.
func (c *Config) PolicyPrior(ports []string) PolicyPrior {
	p := PolicyPrior{NetworkQoS: c.System.NetworkQoS, QueuingOutput: c.System.QueuingOutput, Ports: map[string]PortPolicies{}}
	for _, port := range ports {
		var pp PortPolicies
		if i, ok := c.Interfaces[port]; ok {
			pp = PortPolicies{QoSInput: i.QoSInput, QueuingOutput: i.QueuingOutput}
		}
		p.Ports[port] = pp
	}
	return p
}

// PolicyLines returns the configuration lines, in order, that take the device from old to next
// in one transaction: create when old is nil, delete when next is nil, update (a rename
// included) otherwise. Lines start and end in global configuration mode; sub-modes are entered
// with their command and left with "exit". NX-OS checks references as each line applies, so
// the order is:
//
//  1. next's class-maps, then its policy-maps type qos, queuing and network-qos, each rewritten
//     in place (policy_objects.go);
//  2. bindings: `system qos` `service-policy type network-qos <next>-nq`, and on each port of
//     next `service-policy type qos input <next>` and `type queuing output <next>-out` (an
//     attached policy of another name is removed first: NX-OS attaches one per direction);
//  3. ports old bound and next does not get prior's service-policies back (`no` forms where
//     prior had none); on delete `system qos` gets prior's network-qos policy (DefaultNetworkQoS
//     when none was recorded); on delete and rename every other attachment of old's policy-maps
//     is removed, since NX-OS refuses to delete a policy-map in use;
//  4. on delete and rename, old's policy-maps; then the class-maps old's policy-map used that
//     no policy-map uses any more.
//
// c is the device as read just before (required): it decides which objects exist, which lines
// conflict and what is attached. Bindings already as wanted, and class-maps already as wanted,
// get no lines; policy-maps are always written whole. A device value that would reach a line
// with a control character or one of ; | ! # ? is refused with an error (clitext.Writable).
func PolicyLines(c *Config, old, next *fabric.QoSPolicy, prior PolicyPrior) ([]string, error) {
	switch {
	case old == nil && next == nil:
		return nil, errors.New("nxos: PolicyLines needs an old or a next policy")
	case old != nil && old.Name == "":
		return nil, errors.New("nxos: the old policy has no name")
	case c == nil:
		return nil, errors.New("nxos: PolicyLines needs the device's running-config")
	}
	if next != nil {
		if err := checkWritable(*next); err != nil {
			return nil, err
		}
	}
	var out []string
	if next != nil {
		out = append(out, objectLines(c, *next)...)
		out = append(out, bindLines(c, *next)...)
		out = append(out, followIngress(c, *next)...)
	}
	if old != nil {
		out = append(out, unbindLines(c, *old, next, prior)...)
		out = append(out, deleteLines(c, *old, next)...)
	}
	// Lines hold values read from the device verbatim (prior service-policies, the port, class
	// and match lines they remove). Regression seeds: testdata/fuzz/FuzzParseRunningConfig/*-unsafe.
	if err := clitext.Writable("nxos", out); err != nil {
		return nil, err
	}
	return out, nil
}

// followIngress keeps each roce_pfc_interface headroom on the no-drop classes as the policy
// changes them: a port's ingress queuing policy (IngressName) pauses the lossless traffic
// classes of the moment, so when next's lossless set differs from the device's, the policy
// rewrites those policies for next's set with the same pause values (a headroom that does not
// read back whole is left alone: the PFC interface's next apply sets it). Without this, a
// lossless class added or removed after the PFC interface was applied would leave its
// headroom on the old classes and a non-empty plan.
func followIngress(c *Config, next fabric.QoSPolicy) []string {
	var lossless []int
	for tc := range 8 {
		if _, cl, ok := next.ClassByTC(tc); ok && cl.Lossless {
			lossless = append(lossless, tc)
		}
	}
	if len(lossless) == 0 || slices.Equal(lossless, c.LosslessTCs()) {
		return nil
	}
	var out []string
	for _, port := range slices.SortedFunc(maps.Keys(c.Interfaces), fabric.ComparePorts) {
		name := IngressName(port)
		if c.Interfaces[port].QueuingInput != name {
			continue
		}
		b := c.buffer(name)
		if *b.XoffBytes == Unknown || *b.XonBytes == Unknown {
			continue
		}
		out = append(out, c.ingressLinesFor(name, *b.XoffBytes, *b.XonBytes, lossless)...)
	}
	return out
}

// checkWritable refuses a policy PolicyLines cannot write as asked.
func checkWritable(p fabric.QoSPolicy) error {
	return fabric.CheckKilobyteCLI("nxos", p, CheckSupported(p))
}

// bindLines binds next in system qos (network-qos, and the egress queuing policy: system-wide,
// as every reference configuration binds it, so uplinks are scheduled as the host ports are and
// no port is left on default-8q-out-policy, which gives queue 3 no bandwidth) and its qos
// policy on its ports. A port's own queuing output is removed: it would hide the system one.
func bindLines(c *Config, next fabric.QoSPolicy) []string {
	var out []string
	var sys []string
	if nq := NetworkQoSName(next.Name); c.System.NetworkQoS != nq {
		sys = append(sys, "service-policy type network-qos "+nq)
	}
	sys = append(sys, attach("queuing output", c.System.QueuingOutput, QueuingName(next.Name))...)
	if len(sys) > 0 {
		out = append(out, block("system qos", sys...)...)
	}
	for _, port := range fabric.SortedPorts(next.Interfaces) {
		var have Bindings
		if i, ok := c.Interfaces[port]; ok {
			have = i.Bindings
		}
		body := attach("qos input", have.QoSInput, next.Name)
		// A port's own queuing output hides system qos's: removed while the port is bound (the
		// prior records it, and unbinding puts it back).
		body = append(body, attach("queuing output", have.QueuingOutput, "")...)
		if len(body) > 0 {
			out = append(out, block("interface "+port, body...)...)
		}
	}
	return out
}

// attach changes one service-policy from have to want ("" none): the one attached is removed
// first, since NX-OS attaches one policy per type and direction.
func attach(kind, have, want string) []string {
	if have == want {
		return nil
	}
	var out []string
	if have != "" {
		out = append(out, "no service-policy type "+kind+" "+have)
	}
	if want != "" {
		out = append(out, "service-policy type "+kind+" "+want)
	}
	return out
}

// unbindLines restores what old changed and next does not keep. A binding that no longer
// names one of our policy-maps (unbound or rebound by hand since) is left alone.
func unbindLines(c *Config, old fabric.QoSPolicy, next *fabric.QoSPolicy, prior PolicyPrior) []string {
	qos, queuing := map[string]bool{old.Name: true}, map[string]bool{QueuingName(old.Name): true}
	var keep []string
	if next != nil {
		qos[next.Name], queuing[QueuingName(next.Name)] = true, true
		keep = next.Interfaces
	}
	deleting := next == nil || next.Name != old.Name
	ports := map[string]bool{}
	for _, port := range old.Interfaces {
		ports[port] = true
	}
	if deleting {
		for port, i := range c.Interfaces {
			if i.QoSInput == old.Name || i.QueuingOutput == QueuingName(old.Name) {
				ports[port] = true
			}
		}
	}
	var out []string
	for _, port := range slices.SortedFunc(maps.Keys(ports), fabric.ComparePorts) {
		i, ok := c.Interfaces[port]
		if !ok || slices.Contains(keep, port) {
			continue
		}
		pp := prior.Ports[port]
		body := restore("qos input", i.QoSInput, pp.QoSInput, qos)
		if i.QueuingOutput == "" && !queuing[pp.QueuingOutput] {
			// The port's own queuing output the binding removed comes back.
			body = append(body, attach("queuing output", "", pp.QueuingOutput)...)
		} else {
			body = append(body, restore("queuing output", i.QueuingOutput, pp.QueuingOutput, queuing)...)
		}
		if len(body) > 0 {
			out = append(out, block("interface "+port, body...)...)
		}
	}
	if !deleting {
		return out
	}
	var body []string
	if next == nil && c.System.NetworkQoS == NetworkQoSName(old.Name) {
		target := prior.NetworkQoS
		if target == "" || target == NetworkQoSName(old.Name) {
			target = DefaultNetworkQoS
		}
		body = append(body, "service-policy type network-qos "+target)
	}
	body = append(body, restore("qos input", c.System.QoSInput, "", qos)...)
	if next == nil {
		body = append(body, restore("queuing output", c.System.QueuingOutput, prior.QueuingOutput, queuing)...)
	}
	if len(body) > 0 {
		out = append(out, block("system qos", body...)...)
	}
	return out
}

// restore puts a binding back to prior when it still names one of ours; a prior naming one of
// ours counts as none.
func restore(kind, have, prior string, ours map[string]bool) []string {
	if !ours[have] {
		return nil
	}
	if ours[prior] {
		prior = ""
	}
	return attach(kind, have, prior)
}

// deleteLines removes old's policy-maps (delete, rename) and the class-maps old's qos
// policy-map used that nothing uses afterwards.
func deleteLines(c *Config, old fabric.QoSPolicy, next *fabric.QoSPolicy) []string {
	var out []string
	deleting := next == nil || next.Name != old.Name
	if deleting {
		for _, pm := range []struct{ kind, name string }{
			{"qos", old.Name}, {"queuing", QueuingName(old.Name)}, {"network-qos", NetworkQoSName(old.Name)},
		} {
			if c.hasPolicyMap(pm.kind, pm.name) {
				out = append(out, fmt.Sprintf("no policy-map type %s %s", pm.kind, pm.name))
			}
		}
	}
	used := map[string]bool{}
	for name, pm := range c.QoSPolicies {
		if name != old.Name && (next == nil || name != next.Name) {
			for _, cl := range pm.Classes {
				used[cl.Name] = true
			}
		}
	}
	if next != nil {
		for _, n := range next.ClassNames() {
			used[ClassMapName(next.Name, n)] = true
		}
	}
	stale := map[string]bool{}
	if pm := c.QoSPolicies[old.Name]; pm != nil {
		for _, cl := range pm.Classes {
			stale[cl.Name] = true
		}
	}
	for _, n := range old.ClassNames() {
		stale[ClassMapName(old.Name, n)] = true
	}
	for _, cm := range slices.Sorted(maps.Keys(stale)) {
		if !used[cm] && c.ClassMaps[cm] != nil {
			out = append(out, "no class-map type qos "+cm)
		}
	}
	return out
}

func (c *Config) hasPolicyMap(kind, name string) bool {
	switch kind {
	case "qos":
		return c.QoSPolicies[name] != nil
	case "queuing":
		return c.Queuing[name] != nil
	}
	return c.NetworkQoS[name] != nil
}
