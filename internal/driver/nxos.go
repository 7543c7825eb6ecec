package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/nxos"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
)

func checkNXOSQoS(p fabric.QoSPolicy) fabric.Problems {
	var probs fabric.Problems
	for _, u := range nxos.CheckSupported(p) {
		probs.Add(attrPath(u.Attr), "Not supported on platform nxos", u.Reason+".")
	}
	probs = append(probs, fabric.ECNWholeKilobytes(p)...)
	return probs
}

// nxosCLI reads a Nexus switch's QoS configuration over its shared CLI session.
type nxosCLI struct {
	c *cli.Client
	reads
}

// snap is the switch as this process first read it, for refreshes: the whole `show
// running-config` in one command (it holds the ipqos section and every port, flowcontrol
// included).
func (n nxosCLI) snap(ctx context.Context) (*nxos.Config, error) {
	return devices.Snapshot(ctx, n.reg, n.device(), "nxos running-config", func(ctx context.Context) (*nxos.Config, error) {
		out, err := n.c.Show(ctx, "show running-config")
		if err != nil {
			return nil, err
		}
		cfg, err := nxos.ParseRunningConfig(strings.Join(out, "\n"))
		if err != nil {
			return nil, fmt.Errorf("device %q: reading the running-config: %w", n.device(), err)
		}
		return cfg, nil
	})
}

// perResource reports whether this device reads per resource (no snapshot).
func (n nxosCLI) perResource() bool {
	d, _ := n.reg.Device(n.device())
	return d.PerResourceReads
}

// apply runs lines as one checkpoint transaction and drops the snapshot.
func (n nxosCLI) apply(ctx context.Context, lines []string) (warn, err error) {
	defer n.wrote()
	return apply(ctx, n.c, lines)
}

// configure is apply for a delete: a save failure is returned as the (warning) error.
func (n nxosCLI) configure(ctx context.Context, lines []string) error {
	defer n.wrote()
	return n.c.Configure(ctx, lines)
}

func (n nxosCLI) device() string { return n.c.Config().Device }

// read returns `show running-config ipqos`, and with ports also each port's own running-config
// (NX-OS prints a port in the ipqos section only when it has a QoS line, and flowcontrol is not
// QoS), all in one command batch. A port the switch does not have fails with an error naming
// it and the command the switch refused.
func (n nxosCLI) read(ctx context.Context, ports ...string) (*nxos.Config, error) {
	cmds := []string{"show version", "show running-config ipqos"}
	for _, p := range ports {
		cmds = append(cmds, "show running-config interface "+p)
	}
	out, err := n.c.Show(ctx, cmds...)
	var ce *cli.Error
	if errors.As(err, &ce) && ce.Rejected && strings.HasPrefix(ce.Line, "show running-config interface ") {
		port := strings.TrimPrefix(ce.Line, "show running-config interface ")
		return nil, &missingPortError{device: n.device(), port: port, output: ce.Output}
	}
	if err != nil {
		return nil, err
	}
	cfg, err := nxos.ParseRunningConfig(strings.Join(out[1:], "\n"))
	if err != nil {
		return nil, fmt.Errorf("device %q: reading the running-config: %w", n.device(), err)
	}
	cfg.Chassis = nxos.Chassis(out[0])
	return cfg, nil
}

// checkChassis refuses, before a write, a switch of a family the provider does not render
// (nxos chassis.go), by what show version said or the device's configured model.
func (n nxosCLI) checkChassis(cfg *nxos.Config) error {
	dev, _ := n.reg.Device(n.device())
	if err := nxos.CheckChassis(cfg.Chassis, dev.Model); err != nil {
		return fmt.Errorf("device %q: %w; nothing was changed", n.device(), err)
	}
	return nil
}

// missingPortError is a port the switch refused to show: it does not have it.
type missingPortError struct{ device, port, output string }

func (e *missingPortError) Error() string {
	return fmt.Sprintf("device %q has no interface %s (the switch answered %q); nothing was changed",
		e.device, e.port, strings.TrimSpace(e.output))
}

type nxosQoS struct{ nxosCLI }

func openNXOSQoS(reg *devices.Registry, device string) (QoSPolicy, error) {
	c, err := reg.CLI(device)
	if err != nil {
		return nil, err
	}
	return &nxosQoS{nxosCLI{c, newReads(reg, device)}}, nil
}

func decodeNXOSPrior(raw Prior) (nxos.PolicyPrior, error) {
	p := nxos.PolicyPrior{Ports: map[string]nxos.PortPolicies{}}
	if len(raw) == 0 {
		return p, nil // nothing recorded (import): the platform defaults are restored
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, fmt.Errorf("private state is unreadable: %w", err)
	}
	if p.Ports == nil {
		p.Ports = map[string]nxos.PortPolicies{}
	}
	return p, nil
}

func (d *nxosQoS) Read(ctx context.Context, name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, error) {
	read := d.snap
	if d.perResource() {
		read = func(ctx context.Context) (*nxos.Config, error) { return d.read(ctx) }
	}
	cfg, err := read(ctx)
	if err != nil {
		return nil, err
	}
	got, ok := cfg.Policy(name, known)
	if !ok {
		return nil, nil
	}
	if known == nil {
		return got, nil
	}
	if nxos.Canonical(*known).Equal(*got) {
		return known, nil
	}
	return keepKnownForm(*known, *got), nil
}

func (d *nxosQoS) Create(ctx context.Context, p fabric.QoSPolicy) (Prior, error) {
	cfg, err := d.read(ctx, p.Interfaces...)
	if err != nil {
		return nil, err
	}
	if err := d.checkChassis(cfg); err != nil {
		return nil, err
	}
	if _, ok := cfg.QoSPolicies[p.Name]; ok {
		return nil, ErrExists
	}
	if err := cfg.CheckCreate(d.device(), p.Name); err != nil {
		return nil, err
	}
	prior := cfg.PolicyPrior(p.Interfaces)
	lines, err := nxos.PolicyLines(cfg, nil, &p, prior)
	if err != nil {
		return nil, err
	}
	warn, err := d.apply(ctx, lines)
	if err != nil {
		return nil, err
	}
	return withWarning(json.Marshal(prior))(warn)
}

func (d *nxosQoS) Update(ctx context.Context, old, next fabric.QoSPolicy, raw Prior) (Prior, error) {
	prior, err := decodeNXOSPrior(raw)
	if err != nil {
		return nil, err
	}
	cfg, err := d.read(ctx, next.Interfaces...)
	if err != nil {
		return nil, err
	}
	if err := d.checkChassis(cfg); err != nil {
		return nil, err
	}
	now := cfg.PolicyPrior(next.Interfaces)
	if prior.QueuingOutput == "" && now.QueuingOutput != nxos.QueuingName(old.Name) && now.QueuingOutput != nxos.QueuingName(next.Name) {
		// system qos's queuing policy, taken over now (after an import nothing was recorded).
		prior.QueuingOutput = now.QueuingOutput
	}
	for _, port := range next.Interfaces {
		if _, ok := prior.Ports[port]; !ok {
			prior.Ports[port] = now.Ports[port]
		}
	}
	lines, err := nxos.PolicyLines(cfg, &old, &next, prior)
	if err != nil {
		return nil, err
	}
	warn, err := d.apply(ctx, lines)
	if err != nil {
		return nil, err
	}
	kept := nxos.PolicyPrior{NetworkQoS: prior.NetworkQoS, QueuingOutput: prior.QueuingOutput, Ports: map[string]nxos.PortPolicies{}}
	for _, port := range next.Interfaces {
		kept.Ports[port] = prior.Ports[port]
	}
	return withWarning(json.Marshal(kept))(warn)
}

func (d *nxosQoS) Delete(ctx context.Context, old fabric.QoSPolicy, raw Prior) error {
	prior, err := decodeNXOSPrior(raw)
	if err != nil {
		return err
	}
	cfg, err := d.read(ctx)
	if err != nil {
		return err
	}
	lines, err := nxos.PolicyLines(cfg, &old, nil, prior)
	if err != nil {
		return err
	}
	return d.configure(ctx, lines)
}

// nxosPFC is roce_pfc_interface on a Nexus port.
type nxosPFC struct{ nxosCLI }

func decodeNXOSPFCPrior(raw Prior) (*nxos.PFCPrior, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var p nxos.PFCPrior
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("private state is unreadable: %w", err)
	}
	return &p, nil
}

// Check needs nothing from the device at plan time.
func (d nxosPFC) Check(context.Context, string) error { return nil }

func (d nxosPFC) Read(ctx context.Context, port string, _ *fabric.PFCInterface) (*fabric.PFCInterface, error) {
	var cfg *nxos.Config
	var err error
	if d.perResource() {
		cfg, err = d.read(ctx, port)
	} else {
		cfg, err = d.snap(ctx)
	}
	var missing *missingPortError
	if errors.As(err, &missing) {
		return nil, nil // the port is gone: so is the resource
	}
	if err != nil {
		return nil, err
	}
	p, ok := cfg.PFC(port)
	if !ok {
		return nil, nil
	}
	return p, nil
}

func (d nxosPFC) write(ctx context.Context, old *fabric.PFCInterface, next fabric.PFCInterface, raw Prior) (Prior, error) {
	cfg, err := d.read(ctx, next.Interface)
	if err != nil {
		return nil, err
	}
	if err := d.checkChassis(cfg); err != nil {
		return nil, err
	}
	if err := cfg.CheckPFCAgainst(next); err != nil {
		return nil, err
	}
	prior, err := decodeNXOSPFCPrior(raw)
	if err != nil {
		return nil, err
	}
	if prior == nil {
		p := cfg.PFCPrior(next.Interface)
		prior = &p
	}
	lines, err := nxos.PFCLines(cfg, next.Interface, old, &next, *prior)
	if err != nil {
		return nil, err
	}
	warn, err := d.apply(ctx, lines)
	if err != nil {
		return nil, err
	}
	return withWarning(json.Marshal(prior))(warn)
}

func (d nxosPFC) Create(ctx context.Context, p fabric.PFCInterface) (Prior, error) {
	return d.write(ctx, nil, p, nil)
}

func (d nxosPFC) Update(ctx context.Context, old, next fabric.PFCInterface, prior Prior) (Prior, error) {
	return d.write(ctx, &old, next, prior)
}

func (d nxosPFC) Delete(ctx context.Context, old fabric.PFCInterface, raw Prior) error {
	prior, err := decodeNXOSPFCPrior(raw)
	if err != nil {
		return err
	}
	if prior == nil {
		prior = &nxos.PFCPrior{} // imported: nothing recorded, the NX-OS defaults come back
	}
	cfg, err := d.read(ctx, old.Interface)
	if err != nil {
		return err
	}
	lines, err := nxos.PFCLines(cfg, old.Interface, &old, nil, *prior)
	if err != nil {
		return err
	}
	return d.configure(ctx, lines)
}
