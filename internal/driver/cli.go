package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// cliConn is a switch's CLI session as the drivers use it (*cli.Client): a batch of show
// commands, and configuration lines written as one transaction. Tests put a fake switch
// behind it.
type cliConn interface {
	Show(ctx context.Context, commands ...string) ([]string, error)
	Configure(ctx context.Context, lines []string) error
}

// cliConfig is a CLI platform's parsed running-config (*eos.Config, *nxos.Config). Both
// platform packages read the same things from it, so the driver calls them directly; QP is the
// prior a policy records of what it replaced, FP the one a PFC interface records.
type cliConfig[QP, FP any] interface {
	Policy(name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, bool)
	PolicyPrior(ports []string) QP
	PFC(port string) (*fabric.PFCInterface, bool)
	PFCPrior(port string) FP
	Effective(ports []string) ([]fabric.QoSPolicy, []fabric.PFCInterface)
}

// cliDialect is what one CLI platform does its own way: the show commands it reads and their
// parsing, the refusals its switches need before a write, the import defaults, and the
// renderers of its lines. The transaction itself (an EOS configuration session, an NX-OS
// checkpoint) is the transport's: cliSwitch writes every change with one Configure.
type cliDialect[C cliConfig[QP, FP], QP, FP any] interface {
	// platform names the platform (devices.Platforms).
	platform() string
	// readAll is the whole running-config, as the process's snapshot holds it (refreshes,
	// audits).
	readAll(ctx context.Context, c cliConn, device string) (C, error)
	// read is the configuration a write to ports is built on, always fresh; it also serves
	// refreshes with per_resource_reads. A port the switch lacks may fail as *missingPortError.
	read(ctx context.Context, c cliConn, device string, ports []string) (C, error)

	// canonical is p in the form policy reads it back.
	canonical(p fabric.QoSPolicy) fabric.QoSPolicy
	// checkPolicy refuses what cannot be written to this switch (a missing port, a family or
	// chassis the policy does not fit); on create it also reports ErrExists.
	checkPolicy(cfg C, dev devices.Device, p fabric.QoSPolicy, create bool) error
	// decodePolicyPrior reads the private state; empty (an import) means the platform's
	// defaults for ports.
	decodePolicyPrior(raw Prior, ports []string) (QP, error)
	// adoptPolicy adds to prior, from now (PolicyPrior of the switch as it is), what the
	// update takes over for the first time: ports next binds that prior has no record of.
	adoptPolicy(prior *QP, now QP, old, next fabric.QoSPolicy)
	// keepPolicy is prior without the ports the policy no longer binds.
	keepPolicy(prior QP, ports []string) QP
	// policyLines are the configuration lines from old to next (either nil: create, delete).
	policyLines(cfg C, old, next *fabric.QoSPolicy, prior QP) ([]string, error)

	// checkPFC refuses what the switch cannot take on next.
	checkPFC(cfg C, dev devices.Device, next fabric.PFCInterface) error
	// adoptPFC records, from cfg, what next manages for the first time.
	adoptPFC(prior *FP, cfg C, old *fabric.PFCInterface, next fabric.PFCInterface)
	// importedPFCPrior is what delete restores when nothing was recorded (an import).
	importedPFCPrior(port string) (FP, error)
	// pfcDeleteReads says whether pfcLines needs the configuration on delete.
	pfcDeleteReads() bool
	pfcLines(cfg C, port string, old, next *fabric.PFCInterface, prior FP) ([]string, error)
}

// cliSwitch is a CLI switch as every resource on it sees it: reads through the shared session
// (the process's snapshot, or fresh), writes as one transaction each, after which the
// device's snapshots are dropped.
type cliSwitch[C cliConfig[QP, FP], QP, FP any] struct {
	c cliConn
	reads
	d cliDialect[C, QP, FP]
}

func newCLISwitch[C cliConfig[QP, FP], QP, FP any](reg *devices.Registry, device string, d cliDialect[C, QP, FP]) (cliSwitch[C, QP, FP], error) {
	c, err := reg.CLI(device)
	if err != nil {
		return cliSwitch[C, QP, FP]{}, err
	}
	return cliSwitch[C, QP, FP]{c, newReads(reg, device), d}, nil
}

// snapshot is the running-config as this process first read it, for refreshes and audits.
func (s cliSwitch[C, QP, FP]) snapshot(ctx context.Context) (C, error) {
	return devices.Snapshot(ctx, s.reg, s.device, s.d.platform()+" running-config", func(ctx context.Context) (C, error) {
		return s.d.readAll(ctx, s.c, s.device)
	})
}

// refresh is the configuration a Read is answered from: the snapshot, or with
// per_resource_reads the resource's own read of ports.
func (s cliSwitch[C, QP, FP]) refresh(ctx context.Context, ports []string) (C, error) {
	if s.dev().PerResourceReads {
		return s.d.read(ctx, s.c, s.device, ports)
	}
	return s.snapshot(ctx)
}

func (s cliSwitch[C, QP, FP]) read(ctx context.Context, ports []string) (C, error) {
	return s.d.read(ctx, s.c, s.device, ports)
}

// dev is the device's configuration, named as the resources name it.
func (s cliSwitch[C, QP, FP]) dev() devices.Device {
	d, _ := s.reg.Device(s.device)
	d.Name = s.device
	return d
}

// apply runs lines as one transaction and returns record as the private state to keep, with
// the transaction's warning (Applied) if any.
func (s cliSwitch[C, QP, FP]) apply(ctx context.Context, lines []string, record any) (Prior, error) {
	defer s.wrote()
	warn, err := apply(ctx, s.c, lines)
	if err != nil {
		return nil, err
	}
	return withWarning(json.Marshal(record))(warn)
}

// configure is apply for a delete: a save failure is returned as the (warning) error.
func (s cliSwitch[C, QP, FP]) configure(ctx context.Context, lines []string) error {
	defer s.wrote()
	return s.c.Configure(ctx, lines)
}

// audit is the switch's effective QoS from the snapshot.
func (s cliSwitch[C, QP, FP]) audit(ctx context.Context, ports []string) (fabric.Fabric, error) {
	cfg, err := s.snapshot(ctx)
	if err != nil {
		return fabric.Fabric{}, err
	}
	policies, pfcs := cfg.Effective(ports)
	return switchFabric(s.device, policies, pfcs), nil
}

// cliQoS is roce_qos_policy on a CLI switch: read before each write, the prior recorded at
// create and kept per port, one transaction per operation.
type cliQoS[C cliConfig[QP, FP], QP, FP any] struct{ cliSwitch[C, QP, FP] }

func (d cliQoS[C, QP, FP]) Read(ctx context.Context, name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, error) {
	refresh := func(ctx context.Context) (C, error) { return d.refresh(ctx, nil) }
	return readInKnownForm(ctx, refresh, func(cfg C) (*fabric.QoSPolicy, bool) { return cfg.Policy(name, known) },
		known, d.d.canonical)
}

func (d cliQoS[C, QP, FP]) Create(ctx context.Context, p fabric.QoSPolicy) (Prior, error) {
	cfg, err := d.read(ctx, p.Interfaces)
	if err != nil {
		return nil, err
	}
	if err := d.d.checkPolicy(cfg, d.dev(), p, true); err != nil {
		return nil, err
	}
	prior := cfg.PolicyPrior(p.Interfaces)
	lines, err := d.d.policyLines(cfg, nil, &p, prior)
	if err != nil {
		return nil, err
	}
	return d.apply(ctx, lines, prior)
}

func (d cliQoS[C, QP, FP]) Update(ctx context.Context, old, next fabric.QoSPolicy, raw Prior) (Prior, error) {
	prior, err := d.d.decodePolicyPrior(raw, old.Interfaces)
	if err != nil {
		return nil, err
	}
	cfg, err := d.read(ctx, next.Interfaces)
	if err != nil {
		return nil, err
	}
	if err := d.d.checkPolicy(cfg, d.dev(), next, false); err != nil {
		return nil, err
	}
	d.d.adoptPolicy(&prior, cfg.PolicyPrior(next.Interfaces), old, next)
	lines, err := d.d.policyLines(cfg, &old, &next, prior)
	if err != nil {
		return nil, err
	}
	return d.apply(ctx, lines, d.d.keepPolicy(prior, next.Interfaces))
}

func (d cliQoS[C, QP, FP]) Delete(ctx context.Context, old fabric.QoSPolicy, raw Prior) error {
	prior, err := d.d.decodePolicyPrior(raw, old.Interfaces)
	if err != nil {
		return err
	}
	cfg, err := d.read(ctx, nil)
	if err != nil {
		return err
	}
	lines, err := d.d.policyLines(cfg, &old, nil, prior)
	if err != nil {
		return err
	}
	return d.configure(ctx, lines)
}

// cliPFC is roce_pfc_interface on a CLI switch: the port's own lines, recorded when first
// written and put back on delete.
type cliPFC[C cliConfig[QP, FP], QP, FP any] struct{ cliSwitch[C, QP, FP] }

// Check needs nothing from the device at plan time.
func (d cliPFC[C, QP, FP]) Check(context.Context, string) error { return nil }

func (d cliPFC[C, QP, FP]) Read(ctx context.Context, port string, _ *fabric.PFCInterface) (*fabric.PFCInterface, error) {
	cfg, err := d.refresh(ctx, []string{port})
	var missing *missingPortError
	if errors.As(err, &missing) {
		return nil, nil // the port is gone: so is the resource
	}
	if err != nil {
		return nil, err
	}
	return found(cfg.PFC(port)), nil
}

func (d cliPFC[C, QP, FP]) write(ctx context.Context, old *fabric.PFCInterface, next fabric.PFCInterface, raw Prior) (Prior, error) {
	cfg, err := d.read(ctx, []string{next.Interface})
	if err != nil {
		return nil, err
	}
	if err := d.d.checkPFC(cfg, d.dev(), next); err != nil {
		return nil, err
	}
	prior, err := decodePrior[FP](raw)
	if err != nil {
		return nil, err
	}
	if prior == nil {
		p := cfg.PFCPrior(next.Interface)
		prior = &p
	}
	d.d.adoptPFC(prior, cfg, old, next)
	lines, err := d.d.pfcLines(cfg, next.Interface, old, &next, *prior)
	if err != nil {
		return nil, err
	}
	return d.apply(ctx, lines, prior)
}

func (d cliPFC[C, QP, FP]) Create(ctx context.Context, p fabric.PFCInterface) (Prior, error) {
	return d.write(ctx, nil, p, nil)
}

func (d cliPFC[C, QP, FP]) Update(ctx context.Context, old, next fabric.PFCInterface, prior Prior) (Prior, error) {
	return d.write(ctx, &old, next, prior)
}

func (d cliPFC[C, QP, FP]) Delete(ctx context.Context, old fabric.PFCInterface, raw Prior) error {
	prior, err := decodePrior[FP](raw)
	if err != nil {
		return err
	}
	if prior == nil {
		p, err := d.d.importedPFCPrior(old.Interface)
		if err != nil {
			return err
		}
		prior = &p
	}
	var cfg C
	if d.d.pfcDeleteReads() {
		if cfg, err = d.read(ctx, []string{old.Interface}); err != nil {
			return err
		}
	}
	lines, err := d.d.pfcLines(cfg, old.Interface, &old, nil, *prior)
	if err != nil {
		return err
	}
	return d.configure(ctx, lines)
}

// missingPortError is a port the switch refused to show: it does not have it.
type missingPortError struct{ device, port, output string }

func (e *missingPortError) Error() string {
	return fmt.Sprintf("device %q has no interface %s (the switch answered %q); nothing was changed",
		e.device, e.port, strings.TrimSpace(e.output))
}

// cliPlatform is p with the drivers one CLI dialect gives: roce_qos_policy,
// roce_pfc_interface and the audit read, all over the switch's shared CLI session.
func cliPlatform[C cliConfig[QP, FP], QP, FP any](d cliDialect[C, QP, FP], p platformDriver) platformDriver {
	p.qos = func(reg *devices.Registry, device string) (QoSPolicy, error) {
		s, err := newCLISwitch(reg, device, d)
		if err != nil {
			return nil, err
		}
		return cliQoS[C, QP, FP]{s}, nil
	}
	p.pfc = func(reg *devices.Registry, device string) (PFCInterface, error) {
		s, err := newCLISwitch(reg, device, d)
		if err != nil {
			return nil, err
		}
		return cliPFC[C, QP, FP]{s}, nil
	}
	p.audit = func(ctx context.Context, reg *devices.Registry, device string, ports []string) (fabric.Fabric, error) {
		s, err := newCLISwitch(reg, device, d)
		if err != nil {
			return fabric.Fabric{}, err
		}
		return s.audit(ctx, ports)
	}
	return p
}
