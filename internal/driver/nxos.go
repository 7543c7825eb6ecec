package driver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/nxos"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
)

// nxosDialect is the NX-OS part of the CLI driver (cliDialect): show running-config ipqos with
// the written ports' own configuration, nxos.PolicyPrior (system qos's policies and each
// port's service-policies) and nxos.PFCPrior; PFC lines are built on the ipqos section and
// the port's configuration, on delete too.
type nxosDialect struct{}

// nxosCLI is the NX-OS dialect as the CLI driver takes it.
func nxosCLI() cliDialect[*nxos.Config, nxos.PolicyPrior, nxos.PFCPrior] { return nxosDialect{} }

func (nxosDialect) platform() string { return "nxos" }

// readAll is the whole `show running-config` in one command (it holds the ipqos section and
// every port, flowcontrol included).
func (nxosDialect) readAll(ctx context.Context, c cliConn, device string) (*nxos.Config, error) {
	out, err := c.Show(ctx, "show running-config")
	if err != nil {
		return nil, err
	}
	cfg, err := nxos.ParseRunningConfig(strings.Join(out, "\n"))
	if err != nil {
		return nil, fmt.Errorf("device %q: reading the running-config: %w", device, err)
	}
	return cfg, nil
}

// read returns `show running-config ipqos`, and with ports also each port's own running-config
// (NX-OS prints a port in the ipqos section only when it has a QoS line, and flowcontrol is not
// QoS), all in one command batch. A port the switch does not have fails with an error naming
// it and the command the switch refused.
func (nxosDialect) read(ctx context.Context, c cliConn, device string, ports []string) (*nxos.Config, error) {
	cmds := []string{"show version", "show running-config ipqos"}
	for _, p := range ports {
		cmds = append(cmds, "show running-config interface "+p)
	}
	out, err := c.Show(ctx, cmds...)
	var ce *cli.Error
	if errors.As(err, &ce) && ce.Rejected && strings.HasPrefix(ce.Line, "show running-config interface ") {
		port := strings.TrimPrefix(ce.Line, "show running-config interface ")
		return nil, &missingPortError{device: device, port: port, output: ce.Output}
	}
	if err != nil {
		return nil, err
	}
	cfg, err := nxos.ParseRunningConfig(strings.Join(out[1:], "\n"))
	if err != nil {
		return nil, fmt.Errorf("device %q: reading the running-config: %w", device, err)
	}
	cfg.Chassis = nxos.Chassis(out[0])
	return cfg, nil
}

// checkChassis refuses, before a write, a switch of a family the provider does not render
// (nxos chassis.go), by what show version said or the device's configured model.
func checkChassis(cfg *nxos.Config, dev devices.Device) error {
	if err := nxos.CheckChassis(cfg.Chassis, dev.Model); err != nil {
		return fmt.Errorf("device %q: %w; nothing was changed", dev.Name, err)
	}
	return nil
}

func (nxosDialect) canonical(p fabric.QoSPolicy) fabric.QoSPolicy { return nxos.Canonical(p) }

func (nxosDialect) checkPolicy(cfg *nxos.Config, dev devices.Device, p fabric.QoSPolicy, create bool) error {
	if err := checkChassis(cfg, dev); err != nil {
		return err
	}
	if !create {
		return nil
	}
	if _, ok := cfg.QoSPolicies[p.Name]; ok {
		return ErrExists
	}
	return cfg.CheckCreate(dev.Name, p.Name)
}

func (nxosDialect) decodePolicyPrior(raw Prior, _ []string) (nxos.PolicyPrior, error) {
	p := nxos.PolicyPrior{Ports: map[string]nxos.PortPolicies{}}
	// Nothing recorded (import) keeps p: the platform defaults are restored.
	if err := decodeInto(raw, &p); err != nil {
		return p, err
	}
	if p.Ports == nil {
		p.Ports = map[string]nxos.PortPolicies{}
	}
	return p, nil
}

func (nxosDialect) adoptPolicy(prior *nxos.PolicyPrior, now nxos.PolicyPrior, old, next fabric.QoSPolicy) {
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

func (nxosDialect) keepPolicy(prior nxos.PolicyPrior, ports []string) nxos.PolicyPrior {
	return nxos.PolicyPrior{NetworkQoS: prior.NetworkQoS, QueuingOutput: prior.QueuingOutput, Ports: keptFor(ports, prior.Ports)}
}

func (nxosDialect) policyLines(cfg *nxos.Config, old, next *fabric.QoSPolicy, prior nxos.PolicyPrior) ([]string, error) {
	return nxos.PolicyLines(cfg, old, next, prior)
}

func (nxosDialect) checkPFC(cfg *nxos.Config, dev devices.Device, next fabric.PFCInterface) error {
	if err := checkChassis(cfg, dev); err != nil {
		return err
	}
	return cfg.CheckPFCAgainst(next)
}

// adoptPFC: the prior recorded at create covers every line the interface manages.
func (nxosDialect) adoptPFC(*nxos.PFCPrior, *nxos.Config, *fabric.PFCInterface, fabric.PFCInterface) {
}

// importedPFCPrior: nothing recorded, the NX-OS defaults come back.
func (nxosDialect) importedPFCPrior(string) (nxos.PFCPrior, error) { return nxos.PFCPrior{}, nil }

// pfcDeleteReads: delete detaches the port's ingress queuing policy as the port has it, and
// removes the policy only where no other port uses it.
func (nxosDialect) pfcDeleteReads() bool { return true }

func (nxosDialect) pfcLines(cfg *nxos.Config, port string, old, next *fabric.PFCInterface, prior nxos.PFCPrior) ([]string, error) {
	return nxos.PFCLines(cfg, port, old, next, prior)
}
