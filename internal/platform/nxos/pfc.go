package nxos

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/clitext"
)

// Interface lines of roce_pfc_interface.
const (
	linePFCMode     = "priority-flow-control mode"
	lineWatchdog    = "priority-flow-control watch-dog-interval"
	sendTLV         = "send-tlv"
	flowOn, flowOff = "on", "off"
)

// PFC reads roce_pfc_interface on port; ok is false when there is no `interface port` block
// (`show running-config ipqos` prints only ports with a QoS or PFC line: a driver that reads
// only that section treats a missing port as one with NX-OS's defaults once it knows the port
// exists).
//   - mode is the first word of `priority-flow-control mode`; auto without the line;
//   - link_pause is on when `flowcontrol send` or `flowcontrol receive` is on;
//   - watchdog is {action: drop} with `priority-flow-control watch-dog-interval on`, else nil;
//   - buffer is read when the port's `service-policy type queuing input` is IngressName(port):
//     xoff and xon are the pause-threshold and resume-threshold of the class of the device's
//     first lossless TC; xoff reads Unknown unless every lossless TC's class has the same line
//     with buffer-size = xoff + xon. nil when another (or no) ingress policy is attached.
func (c *Config) PFC(port string) (*fabric.PFCInterface, bool) {
	i, ok := c.Interfaces[port]
	if !ok {
		return nil, false
	}
	p := &fabric.PFCInterface{Interface: port, Mode: fabric.PFCModeAuto,
		LinkPause: i.FlowSend == flowOn || i.FlowReceive == flowOn}
	if f := strings.Fields(i.PFCMode); len(f) > 0 {
		p.Mode = f[0]
	}
	if i.Watchdog == "on" {
		p.Watchdog = &fabric.PFCWatchdog{Action: fabric.WatchdogDrop}
	}
	if i.QueuingInput == IngressName(port) {
		p.Buffer = c.buffer(i.QueuingInput)
	}
	return p, true
}

func (c *Config) buffer(policy string) *fabric.PFCBuffer {
	xoff, xon := int64(Unknown), int64(Unknown)
	tcs := c.LosslessTCs()
	pm := c.Queuing[policy]
	if pm == nil || len(tcs) == 0 {
		return &fabric.PFCBuffer{XoffBytes: &xoff, XonBytes: &xon}
	}
	if q := pm.In[tcs[0]]; q != nil && q.Pause != nil {
		xoff, xon = q.Pause.PauseThreshold, q.Pause.ResumeThreshold
	}
	want := Pause{BufferSize: xoff + xon, PauseThreshold: xoff, ResumeThreshold: xon}
	for _, tc := range tcs {
		if q := pm.In[tc]; q == nil || q.Pause == nil || *q.Pause != want {
			xoff = Unknown
		}
	}
	return &fabric.PFCBuffer{XoffBytes: &xoff, XonBytes: &xon}
}

// PFCPrior is what roce_pfc_interface changes on a port, as the device had it before. It is
// JSON-encodable for private state; the zero value is a port with none of the lines (NX-OS's
// defaults: mode auto, no watchdog, flowcontrol off, no ingress queuing policy).
type PFCPrior struct {
	Mode         string `json:"mode"` // arguments of `priority-flow-control mode`, "on send-tlv"
	FlowSend     string `json:"flow_send"`
	FlowReceive  string `json:"flow_receive"`
	Watchdog     string `json:"watchdog"`      // `priority-flow-control watch-dog-interval` on|off
	QueuingInput string `json:"queuing_input"` // `service-policy type queuing input`
}

// PFCPrior records port's lines as they are now.
func (c *Config) PFCPrior(port string) PFCPrior {
	i, ok := c.Interfaces[port]
	if !ok {
		return PFCPrior{}
	}
	return PFCPrior{Mode: i.PFCMode, FlowSend: i.FlowSend, FlowReceive: i.FlowReceive, Watchdog: i.Watchdog,
		QueuingInput: i.QueuingInput}
}

// CheckPFCAgainst returns why p cannot be applied to the device c describes: CheckPFC's first
// refusal, or a buffer when no traffic class is lossless yet (the ingress policy has a class
// per lossless TC: bind a roce_qos_policy with a lossless class first, with depends_on).
func (c *Config) CheckPFCAgainst(p fabric.PFCInterface) error {
	if u := CheckPFC(p); len(u) > 0 {
		return fmt.Errorf("nxos: %s: %s", fabric.AttrString(u[0].Attr), u[0].Reason)
	}
	if buffered(&p) && len(c.LosslessTCs()) == 0 {
		nq := c.System.NetworkQoS
		if nq == "" {
			nq = DefaultNetworkQoS
		}
		return fabric.NeedsLossless{Reason: fmt.Sprintf("nxos: buffer on %s needs a lossless traffic class, but the network-qos "+
			"policy system qos binds (%s) pauses none: bind a roce_qos_policy with a lossless class first (depends_on)", p.Interface, nq)}
	}
	return nil
}

// buffered reports whether p manages the port's headroom (xoff and xon; CheckPFC refuses one
// without the other).
func buffered(p *fabric.PFCInterface) bool {
	return p != nil && p.Buffer != nil && p.Buffer.XoffBytes != nil && p.Buffer.XonBytes != nil
}

// PFCLines returns the lines that take port from old to next: create when old is nil, delete
// when next is nil, update otherwise. c is the device as read just before (required).
//   - create and update write the mode (mode on keeps a `send-tlv` the line has; NX-OS takes
//     the keyword after on only) and both
//     flowcontrol directions (always managed), and `watch-dog-interval on` when next manages
//     the watchdog; a watchdog old managed and next does not goes back to prior;
//   - a buffer writes `policy-map type queuing roce-in-<port>` (a class per lossless TC of the
//     device; classes of TCs no longer lossless lose their pause line) before the interface
//     block attaches it as `service-policy type queuing input`;
//   - delete puts mode, flowcontrol and (when old managed it) the watchdog back to prior: an
//     absent mode line is removed, absent flowcontrol is off, an absent watchdog line removed;
//   - a buffer old managed and next does not (and delete) gives the port prior's ingress
//     policy back and deletes roce-in-<port> after the interface block.
//
// next must pass CheckPFCAgainst(c). Both nil: no lines. As PolicyLines, refuses a device value
// no CLI line may carry.
func PFCLines(c *Config, port string, old, next *fabric.PFCInterface, prior PFCPrior) ([]string, error) {
	if old == nil && next == nil {
		return nil, nil
	}
	if c == nil {
		return nil, errors.New("nxos: PFCLines needs the device's running-config")
	}
	if next != nil {
		if err := c.CheckPFCAgainst(*next); err != nil {
			return nil, err
		}
	}
	have := &Interface{}
	if i, ok := c.Interfaces[port]; ok {
		have = i
	}
	ingress := IngressName(port)
	var pre, body, post []string
	if next != nil {
		flow := flowOff
		if next.LinkPause {
			flow = flowOn
		}
		mode := next.Mode
		if next.Mode == fabric.PFCModeOn && strings.HasSuffix(have.PFCMode, " "+sendTLV) {
			mode += " " + sendTLV
		}
		body = append(body, linePFCMode+" "+mode, "flowcontrol send "+flow, "flowcontrol receive "+flow)
		if next.Watchdog != nil {
			body = append(body, lineWatchdog+" on")
		} else if old != nil && old.Watchdog != nil {
			body = append(body, restoreWatchdog(prior.Watchdog))
		}
	} else {
		body = append(body, restoreMode(prior.Mode), "flowcontrol send "+orOff(prior.FlowSend),
			"flowcontrol receive "+orOff(prior.FlowReceive))
		if old.Watchdog != nil {
			body = append(body, restoreWatchdog(prior.Watchdog))
		}
	}
	switch {
	case buffered(next):
		pre = c.ingressLines(ingress, *next.Buffer.XoffBytes, *next.Buffer.XonBytes)
		body = append(body, attach("queuing input", have.QueuingInput, ingress)...)
	case buffered(old):
		if have.QueuingInput == ingress {
			target := prior.QueuingInput
			if target == ingress {
				target = ""
			}
			body = append(body, attach("queuing input", ingress, target)...)
		}
		if c.Queuing[ingress] != nil && !c.attachedElsewhere(ingress, port) {
			post = append(post, "no policy-map type queuing "+ingress)
		}
	}
	out := append(pre, block("interface "+port, body...)...)
	out = append(out, post...)
	if err := clitext.Writable("nxos", out); err != nil {
		return nil, err
	}
	return out, nil
}

// ingressLines writes the port's ingress queuing policy: for each lossless TC the pause line,
// descending as NX-OS prints c-in-q7 .. c-in-q-default.
func (c *Config) ingressLines(name string, xoff, xon int64) []string {
	return c.ingressLinesFor(name, xoff, xon, c.LosslessTCs())
}

// ingressLinesFor writes the ingress queuing policy name for the lossless traffic classes tcs.
func (c *Config) ingressLinesFor(name string, xoff, xon int64, tcs []int) []string {
	lossless := map[int]bool{}
	for _, tc := range tcs {
		lossless[tc] = true
	}
	var have *QueuingPolicy
	if have = c.Queuing[name]; have == nil {
		have = &QueuingPolicy{}
	}
	var body []string
	for _, tc := range []int{7, 6, 5, 4, 3, 2, 1, 0} {
		cls := "class type queuing " + sysClass(inPrefix, tc)
		switch {
		case lossless[tc]:
			body = append(body, block(cls, fmt.Sprintf("pause buffer-size %d pause-threshold %d resume-threshold %d",
				xoff+xon, xoff, xon))...)
		case have.In[tc] != nil && have.In[tc].Pause != nil:
			body = append(body, block(cls, "no pause buffer-size")...)
		}
	}
	return block("policy-map type queuing "+name, body...)
}

// attachedElsewhere reports whether a queuing policy is attached anywhere but on port.
func (c *Config) attachedElsewhere(policy, port string) bool {
	if c.System.QueuingInput == policy || c.System.QueuingOutput == policy {
		return true
	}
	for name, i := range c.Interfaces {
		if name != port && (i.QueuingInput == policy || i.QueuingOutput == policy) {
			return true
		}
	}
	return false
}

func restoreMode(v string) string {
	if v == "" {
		return "no " + linePFCMode
	}
	return linePFCMode + " " + v
}

func restoreWatchdog(v string) string {
	if v == "" {
		return "no " + lineWatchdog
	}
	return lineWatchdog + " " + v
}

// orOff restores a flowcontrol direction: no line before is NX-OS's default, off.
func orOff(v string) string {
	if v == "" {
		return flowOff
	}
	return v
}
