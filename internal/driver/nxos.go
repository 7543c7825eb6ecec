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
type nxosCLI struct{ cliSession }

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

// nxosQoS is roce_qos_policy's NX-OS part (cliPolicyPlatform): show running-config ipqos
// with the bound ports' own configuration, nxos.PolicyPrior (system qos's policies and each
// port's service-policies).
type nxosQoS struct{ nxosCLI }

func openNXOSQoS(reg *devices.Registry, device string) (QoSPolicy, error) {
	c, err := reg.CLI(device)
	if err != nil {
		return nil, err
	}
	return cliQoS[nxos.Config, nxos.PolicyPrior]{nxosQoS{nxosCLI{cliSession{c, newReads(reg, device)}}}}, nil
}

func (d nxosQoS) decode(raw Prior, _ []string) (nxos.PolicyPrior, error) {
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

func (d nxosQoS) refresh(ctx context.Context) (*nxos.Config, error) {
	if d.perResource() {
		return d.read(ctx)
	}
	return d.snap(ctx)
}

func (d nxosQoS) readFor(ctx context.Context, ports []string) (*nxos.Config, error) {
	return d.read(ctx, ports...)
}

func (d nxosQoS) policy(cfg *nxos.Config, name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, bool) {
	return cfg.Policy(name, known)
}

func (d nxosQoS) canonical(p fabric.QoSPolicy) fabric.QoSPolicy { return nxos.Canonical(p) }

func (d nxosQoS) checkWrite(cfg *nxos.Config, p fabric.QoSPolicy, create bool) error {
	if err := d.checkChassis(cfg); err != nil {
		return err
	}
	if !create {
		return nil
	}
	if _, ok := cfg.QoSPolicies[p.Name]; ok {
		return ErrExists
	}
	return cfg.CheckCreate(d.device(), p.Name)
}

func (d nxosQoS) priorOf(cfg *nxos.Config, ports []string) nxos.PolicyPrior {
	return cfg.PolicyPrior(ports)
}

func (d nxosQoS) adopt(prior *nxos.PolicyPrior, now nxos.PolicyPrior, old, next fabric.QoSPolicy) {
	if prior.QueuingOutput == "" && now.QueuingOutput != nxos.QueuingName(old.Name) && now.QueuingOutput != nxos.QueuingName(next.Name) {
		// system qos's queuing policy, taken over now (after an import nothing was recorded).
		prior.QueuingOutput = now.QueuingOutput
	}
	for _, port := range next.Interfaces {
		if _, ok := prior.Ports[port]; !ok {
			prior.Ports[port] = now.Ports[port]
		}
	}
}

func (d nxosQoS) keep(prior nxos.PolicyPrior, ports []string) nxos.PolicyPrior {
	kept := nxos.PolicyPrior{NetworkQoS: prior.NetworkQoS, QueuingOutput: prior.QueuingOutput, Ports: map[string]nxos.PortPolicies{}}
	for _, port := range ports {
		kept.Ports[port] = prior.Ports[port]
	}
	return kept
}

func (d nxosQoS) lines(cfg *nxos.Config, old, next *fabric.QoSPolicy, prior nxos.PolicyPrior) ([]string, error) {
	return nxos.PolicyLines(cfg, old, next, prior)
}

// nxosPFC is roce_pfc_interface's NX-OS part (cliPFCPlatform): interface lines and the
// port's ingress queuing policy, built on the ipqos section and the port's configuration.
type nxosPFC struct{ nxosCLI }

func (d nxosPFC) refresh(ctx context.Context, port string) (*nxos.Config, error) {
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
	return cfg, err
}

func (d nxosPFC) readFor(ctx context.Context, port string) (*nxos.Config, error) {
	return d.read(ctx, port)
}

func (d nxosPFC) readForDelete(ctx context.Context, port string) (*nxos.Config, error) {
	return d.read(ctx, port)
}

func (d nxosPFC) pfc(cfg *nxos.Config, port string) (*fabric.PFCInterface, bool) {
	return cfg.PFC(port)
}

func (d nxosPFC) checkWrite(cfg *nxos.Config, next fabric.PFCInterface) error {
	if err := d.checkChassis(cfg); err != nil {
		return err
	}
	return cfg.CheckPFCAgainst(next)
}

func (d nxosPFC) priorOf(cfg *nxos.Config, port string) nxos.PFCPrior { return cfg.PFCPrior(port) }

// adopt: the prior recorded at create covers every line the interface manages.
func (d nxosPFC) adopt(*nxos.PFCPrior, *nxos.Config, *fabric.PFCInterface, fabric.PFCInterface) {}

// importedPrior: nothing recorded, the NX-OS defaults come back.
func (d nxosPFC) importedPrior(string) (nxos.PFCPrior, error) { return nxos.PFCPrior{}, nil }

func (d nxosPFC) lines(cfg *nxos.Config, port string, old, next *fabric.PFCInterface, prior nxos.PFCPrior) ([]string, error) {
	return nxos.PFCLines(cfg, port, old, next, prior)
}
