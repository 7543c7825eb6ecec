package driver

import (
	"context"
	"encoding/json"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/cli"
)

// cliSession is a switch's shared CLI session as the EOS and NX-OS drivers use it: writes
// are one transaction each (an EOS configuration session, an NX-OS checkpoint), after which
// the device's snapshots are dropped.
type cliSession struct {
	c *cli.Client
	reads
}

// apply runs lines as one transaction and drops the snapshot; a change committed but not
// saved, or answered with warnings, comes back as warn.
func (s cliSession) apply(ctx context.Context, lines []string) (warn, err error) {
	defer s.wrote()
	return apply(ctx, s.c, lines)
}

// configure is apply for a delete: a save failure is returned as the (warning) error.
func (s cliSession) configure(ctx context.Context, lines []string) error {
	defer s.wrote()
	return s.c.Configure(ctx, lines)
}

func (s cliSession) device() string { return s.c.Config().Device }

// applied runs lines as one transaction and returns record as the private state to keep,
// with the transaction's warning (Applied) if any.
func applied(ctx context.Context, apply func(context.Context, []string) (warn, err error), lines []string, record any) (Prior, error) {
	warn, err := apply(ctx, lines)
	if err != nil {
		return nil, err
	}
	return withWarning(json.Marshal(record))(warn)
}

// cliPolicyPlatform is one CLI platform's part of roce_qos_policy, over its configuration C
// (parsed from the running-config) and the private state P a policy records of what it
// replaced. cliQoS holds the rest, the same on every CLI platform: read before each write,
// the prior recorded at create and kept per port, one transaction per operation.
type cliPolicyPlatform[C, P any] interface {
	device() string
	apply(ctx context.Context, lines []string) (warn, err error)
	configure(ctx context.Context, lines []string) error
	// refresh is the configuration for Read (the process's snapshot, or a read of its own
	// with per_resource_reads).
	refresh(ctx context.Context) (*C, error)
	// readFor reads the configuration a write to ports is built on.
	readFor(ctx context.Context, ports []string) (*C, error)
	// policy rebuilds the policy named name from cfg, in the platform's canonical form.
	policy(cfg *C, name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, bool)
	canonical(p fabric.QoSPolicy) fabric.QoSPolicy
	// checkWrite refuses what cannot be written to this switch (a missing port, a family the
	// policy does not fit); on create it also reports ErrExists.
	checkWrite(cfg *C, p fabric.QoSPolicy, create bool) error
	// priorOf records what the policy replaces on ports (and system-wide), as cfg has it.
	priorOf(cfg *C, ports []string) P
	// decode reads the private state; empty (an import) means the platform's defaults.
	decode(raw Prior, ports []string) (P, error)
	// adopt adds to prior, from now (priorOf the switch as it is), what the update takes
	// over for the first time: ports next binds that prior has no record of.
	adopt(prior *P, now P, old, next fabric.QoSPolicy)
	// keep is prior without the ports the policy no longer binds.
	keep(prior P, ports []string) P
	// lines are the configuration lines from old to next (either nil: create, delete).
	lines(cfg *C, old, next *fabric.QoSPolicy, prior P) ([]string, error)
}

// cliQoS is roce_qos_policy on a CLI switch.
type cliQoS[C, P any] struct{ p cliPolicyPlatform[C, P] }

func (d cliQoS[C, P]) Read(ctx context.Context, name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, error) {
	cfg, err := d.p.refresh(ctx)
	if err != nil {
		return nil, err
	}
	got, ok := d.p.policy(cfg, name, known)
	if !ok {
		return nil, nil
	}
	if known == nil {
		return got, nil
	}
	if d.p.canonical(*known).Equal(*got) {
		return known, nil
	}
	return keepKnownForm(*known, *got), nil
}

func (d cliQoS[C, P]) Create(ctx context.Context, p fabric.QoSPolicy) (Prior, error) {
	cfg, err := d.p.readFor(ctx, p.Interfaces)
	if err != nil {
		return nil, err
	}
	if err := d.p.checkWrite(cfg, p, true); err != nil {
		return nil, err
	}
	prior := d.p.priorOf(cfg, p.Interfaces)
	lines, err := d.p.lines(cfg, nil, &p, prior)
	if err != nil {
		return nil, err
	}
	return applied(ctx, d.p.apply, lines, prior)
}

func (d cliQoS[C, P]) Update(ctx context.Context, old, next fabric.QoSPolicy, raw Prior) (Prior, error) {
	prior, err := d.p.decode(raw, old.Interfaces)
	if err != nil {
		return nil, err
	}
	cfg, err := d.p.readFor(ctx, next.Interfaces)
	if err != nil {
		return nil, err
	}
	if err := d.p.checkWrite(cfg, next, false); err != nil {
		return nil, err
	}
	d.p.adopt(&prior, d.p.priorOf(cfg, next.Interfaces), old, next)
	lines, err := d.p.lines(cfg, &old, &next, prior)
	if err != nil {
		return nil, err
	}
	return applied(ctx, d.p.apply, lines, d.p.keep(prior, next.Interfaces))
}

func (d cliQoS[C, P]) Delete(ctx context.Context, old fabric.QoSPolicy, raw Prior) error {
	prior, err := d.p.decode(raw, old.Interfaces)
	if err != nil {
		return err
	}
	cfg, err := d.p.readFor(ctx, nil)
	if err != nil {
		return err
	}
	lines, err := d.p.lines(cfg, &old, nil, prior)
	if err != nil {
		return err
	}
	return d.p.configure(ctx, lines)
}
