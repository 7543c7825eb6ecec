package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/eos"
)

func checkEOSQoS(p fabric.QoSPolicy) fabric.Problems {
	var probs fabric.Problems
	for _, u := range eos.CheckSupported(p) {
		probs.Add(attrPath(u.Attr), "Not supported on platform eos", u.Reason+".")
	}
	probs = append(probs, fabric.ECNWholeKilobytes(p)...)
	return probs
}

// eosCLI reads an EOS switch's running configuration over its shared CLI session.
type eosCLI struct{ cliSession }

// snap is the running-config as this process first read it, for refreshes.
func (e eosCLI) snap(ctx context.Context) (*eos.Config, error) {
	return devices.Snapshot(ctx, e.reg, e.device(), "eos running-config", e.read)
}

// read is the running-config and, in the same exchange, `show version | json`: the model and
// version decide the queue commands (eos family.go).
func (e eosCLI) read(ctx context.Context) (*eos.Config, error) {
	out, err := e.c.Show(ctx, "show running-config", "show version | json")
	if err != nil {
		return nil, err
	}
	cfg, err := eos.ParseRunningConfig(out[0])
	if err != nil {
		return nil, fmt.Errorf("device %q: reading the running-config: %w", e.device(), err)
	}
	v, err := eos.ParseVersion(out[1])
	if err != nil {
		return nil, fmt.Errorf("device %q: %w", e.device(), err)
	}
	cfg.Model, cfg.Version = v.Model, v.Version
	cfg.Family, _ = eos.FamilyOf(v.Model, v.ImageOptimization)
	return cfg, nil
}

// pinFamily reconciles, before a write, the family the switch reports with the device's
// configured model: the configured one stands in for a model the provider does not know, and
// one of another family is an error (the configuration names another switch). Reads need no
// family.
func (e eosCLI) pinFamily(cfg *eos.Config) error {
	model := cfg.Model
	dev, _ := e.reg.Device(e.device())
	pinned, ok := eos.FamilyOf(dev.Model, "")
	switch {
	case dev.Model == "":
	case !ok:
		return fmt.Errorf("device %q: model %q is not an EOS model the provider knows (DCS-7050..., DCS-7060..., DCS-7280..., "+
			"vEOS-lab...)", e.device(), dev.Model)
	case cfg.Family == "":
		cfg.Family = pinned
	case cfg.Family != pinned:
		return fmt.Errorf("device %q: the configuration says model %q (%s), but the switch reports %q (%s): correct the "+
			"device's model", e.device(), dev.Model, pinned, model, cfg.Family)
	}
	if cfg.Family == "" {
		return fmt.Errorf("device %q reports model %q, and the provider does not know whether it configures queues as "+
			"tx-queue (Sand: 7280R, 7500R, 7800R) or uc-tx-queue (Strata: 7050X, 7060X, 7260X): set the device's model "+
			"to one of its family", e.device(), model)
	}
	return nil
}

// eosDefaults is the configuration of a switch nobody configured: the EOS default maps and no
// service-profile anywhere. An imported policy, which has no recorded prior, is restored to it.
func eosDefaults() (*eos.Config, error) {
	cfg, err := eos.ParseRunningConfig("")
	if err != nil {
		return nil, fmt.Errorf("the EOS defaults: %w", err)
	}
	return cfg, nil
}

// eosQoS is roce_qos_policy's EOS part (cliPolicyPlatform): the running-config and show
// version, eos.PolicyPrior (the global maps and each port's service-profile).
type eosQoS struct{ eosCLI }

func openEOSQoS(reg *devices.Registry, device string) (QoSPolicy, error) {
	c, err := reg.CLI(device)
	if err != nil {
		return nil, err
	}
	return cliQoS[eos.Config, eos.PolicyPrior]{eosQoS{eosCLI{cliSession{c, newReads(reg, device)}}}}, nil
}

func (d eosQoS) decode(raw Prior, ports []string) (eos.PolicyPrior, error) {
	if len(raw) == 0 {
		def, err := eosDefaults()
		if err != nil {
			return eos.PolicyPrior{}, err
		}
		return def.PolicyPrior(ports), nil
	}
	var p eos.PolicyPrior
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, fmt.Errorf("private state is unreadable: %w", err)
	}
	if p.ServiceProfiles == nil {
		p.ServiceProfiles = map[string]string{}
	}
	return p, nil
}

func (d eosQoS) refresh(ctx context.Context) (*eos.Config, error) { return d.snap(ctx) }

func (d eosQoS) readFor(ctx context.Context, _ []string) (*eos.Config, error) { return d.read(ctx) }

func (d eosQoS) policy(cfg *eos.Config, name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, bool) {
	return cfg.Policy(name, known)
}

func (d eosQoS) canonical(p fabric.QoSPolicy) fabric.QoSPolicy { return eos.Canonical(p) }

// missingPorts names the ports p binds that the switch does not have, so the error lists the
// ports it does have instead of a bare `% Invalid input` from the CLI.
func missingPorts(cfg *eos.Config, device string, ports []string) error {
	var missing []string
	for _, port := range ports {
		if _, ok := cfg.Interfaces[port]; !ok {
			missing = append(missing, port)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	have := make([]string, 0, len(cfg.Interfaces))
	for n := range cfg.Interfaces {
		have = append(have, n)
	}
	slices.SortFunc(have, fabric.ComparePorts)
	if len(have) > 8 {
		have = append(have[:8], "...")
	}
	return fmt.Errorf("device %q has no interface %s (it has %s); nothing was changed",
		device, strings.Join(missing, ", "), strings.Join(have, ", "))
}

func (d eosQoS) checkWrite(cfg *eos.Config, p fabric.QoSPolicy, create bool) error {
	if _, ok := cfg.Profiles[p.Name]; ok && create {
		return ErrExists
	}
	if err := missingPorts(cfg, d.device(), p.Interfaces); err != nil {
		return err
	}
	if err := d.pinFamily(cfg); err != nil {
		return err
	}
	if err := eos.CheckFamily(cfg.Family, cfg.Version, p); err != nil {
		return fmt.Errorf("device %q: %w; nothing was changed", d.device(), err)
	}
	return nil
}

func (d eosQoS) priorOf(cfg *eos.Config, ports []string) eos.PolicyPrior {
	return cfg.PolicyPrior(ports)
}

func (d eosQoS) adopt(prior *eos.PolicyPrior, now eos.PolicyPrior, _, next fabric.QoSPolicy) {
	for _, port := range next.Interfaces {
		if _, ok := prior.ServiceProfiles[port]; !ok {
			prior.ServiceProfiles[port] = now.ServiceProfiles[port]
		}
	}
}

func (d eosQoS) keep(prior eos.PolicyPrior, ports []string) eos.PolicyPrior {
	kept := prior
	kept.ServiceProfiles = map[string]string{}
	for _, port := range ports {
		kept.ServiceProfiles[port] = prior.ServiceProfiles[port]
	}
	return kept
}

func (d eosQoS) lines(cfg *eos.Config, old, next *fabric.QoSPolicy, prior eos.PolicyPrior) ([]string, error) {
	return eos.PolicyLines(cfg, old, next, prior)
}

// eosPFC is roce_pfc_interface's EOS part (cliPFCPlatform): interface lines only, built
// without the running-config on delete.
type eosPFC struct{ eosCLI }

func (d eosPFC) refresh(ctx context.Context, _ string) (*eos.Config, error) { return d.snap(ctx) }

func (d eosPFC) readFor(ctx context.Context, _ string) (*eos.Config, error) { return d.read(ctx) }

func (d eosPFC) readForDelete(context.Context, string) (*eos.Config, error) { return nil, nil }

func (d eosPFC) pfc(cfg *eos.Config, port string) (*fabric.PFCInterface, bool) { return cfg.PFC(port) }

func (d eosPFC) checkWrite(cfg *eos.Config, next fabric.PFCInterface) error {
	return missingPorts(cfg, d.device(), []string{next.Interface})
}

func (d eosPFC) priorOf(cfg *eos.Config, port string) eos.PFCPrior { return cfg.PFCPrior(port) }

func (d eosPFC) adopt(prior *eos.PFCPrior, cfg *eos.Config, old *fabric.PFCInterface, next fabric.PFCInterface) {
	if prior.Watchdog == nil && next.Watchdog != nil && (old == nil || old.Watchdog == nil) {
		// The watchdog becomes managed now: what the port had before is what destroy restores.
		prior.Watchdog = cfg.PFCPrior(next.Interface).Watchdog
	}
}

// importedPrior: nothing recorded, so the port goes back to the EOS defaults.
func (d eosPFC) importedPrior(port string) (eos.PFCPrior, error) {
	def, err := eosDefaults()
	if err != nil {
		return eos.PFCPrior{}, err
	}
	return def.PFCPrior(port), nil
}

func (d eosPFC) lines(_ *eos.Config, port string, old, next *fabric.PFCInterface, prior eos.PFCPrior) ([]string, error) {
	return eos.PFCLines(port, old, next, prior), nil
}
