package driver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/eos"
)

// eosDialect is the EOS part of the CLI driver (cliDialect): the running-config and show
// version in one exchange, eos.PolicyPrior (the global maps and each port's service-profile)
// and eos.PFCPrior; PFC lines need no configuration on delete.
type eosDialect struct{}

// eosCLI is the EOS dialect as the CLI driver takes it.
func eosCLI() cliDialect[*eos.Config, eos.PolicyPrior, eos.PFCPrior] { return eosDialect{} }

func (eosDialect) platform() string { return "eos" }

// readAll is the running-config and, in the same exchange, `show version | json`: the model
// and version decide the queue commands (eos family.go).
func (eosDialect) readAll(ctx context.Context, c cliConn, device string) (*eos.Config, error) {
	out, err := c.Show(ctx, "show running-config", "show version | json")
	if err != nil {
		return nil, err
	}
	cfg, err := eos.ParseRunningConfig(out[0])
	if err != nil {
		return nil, fmt.Errorf("device %q: reading the running-config: %w", device, err)
	}
	v, err := eos.ParseVersion(out[1])
	if err != nil {
		return nil, fmt.Errorf("device %q: %w", device, err)
	}
	cfg.Model, cfg.Version = v.Model, v.Version
	cfg.Family, _ = eos.FamilyOf(v.Model, v.ImageOptimization)
	return cfg, nil
}

// read is readAll: the whole running-config is EOS's only read.
func (d eosDialect) read(ctx context.Context, c cliConn, device string, _ []string) (*eos.Config, error) {
	return d.readAll(ctx, c, device)
}

// pinFamily reconciles, before a write, the family the switch reports with the device's
// configured model: the configured one stands in for a model the provider does not know, and
// one of another family is an error (the configuration names another switch). Reads need no
// family.
func pinFamily(cfg *eos.Config, dev devices.Device) error {
	model := cfg.Model
	pinned, ok := eos.FamilyOf(dev.Model, "")
	switch {
	case dev.Model == "":
	case !ok:
		return fmt.Errorf("device %q: model %q is not an EOS model the provider knows (DCS-7050..., DCS-7060..., DCS-7280..., "+
			"vEOS-lab...)", dev.Name, dev.Model)
	case cfg.Family == "":
		cfg.Family = pinned
	case cfg.Family != pinned:
		return fmt.Errorf("device %q: the configuration says model %q (%s), but the switch reports %q (%s): correct the "+
			"device's model", dev.Name, dev.Model, pinned, model, cfg.Family)
	}
	if cfg.Family == "" {
		return fmt.Errorf("device %q reports model %q, and the provider does not know whether it configures queues as "+
			"tx-queue (Sand: 7280R, 7500R, 7800R) or uc-tx-queue (Strata: 7050X, 7060X, 7260X): set the device's model "+
			"to one of its family", dev.Name, model)
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

func (eosDialect) canonical(p fabric.QoSPolicy) fabric.QoSPolicy { return eos.Canonical(p) }

func (eosDialect) checkPolicy(cfg *eos.Config, dev devices.Device, p fabric.QoSPolicy, create bool) error {
	if _, ok := cfg.Profiles[p.Name]; ok && create {
		return ErrExists
	}
	if err := missingPorts(cfg, dev.Name, p.Interfaces); err != nil {
		return err
	}
	if err := pinFamily(cfg, dev); err != nil {
		return err
	}
	if err := eos.CheckFamily(cfg.Family, cfg.Version, p); err != nil {
		return fmt.Errorf("device %q: %w; nothing was changed", dev.Name, err)
	}
	return nil
}

func (eosDialect) decodePolicyPrior(raw Prior, ports []string) (eos.PolicyPrior, error) {
	if len(raw) == 0 {
		def, err := eosDefaults()
		if err != nil {
			return eos.PolicyPrior{}, err
		}
		return def.PolicyPrior(ports), nil
	}
	var p eos.PolicyPrior
	if err := decodeInto(raw, &p); err != nil {
		return p, err
	}
	if p.ServiceProfiles == nil {
		p.ServiceProfiles = map[string]string{}
	}
	return p, nil
}

func (eosDialect) adoptPolicy(prior *eos.PolicyPrior, now eos.PolicyPrior, _, next fabric.QoSPolicy) {
	for _, port := range next.Interfaces {
		if _, ok := prior.ServiceProfiles[port]; !ok {
			prior.ServiceProfiles[port] = now.ServiceProfiles[port]
		}
	}
}

func (eosDialect) keepPolicy(prior eos.PolicyPrior, ports []string) eos.PolicyPrior {
	prior.ServiceProfiles = keptFor(ports, prior.ServiceProfiles)
	return prior
}

func (eosDialect) policyLines(cfg *eos.Config, old, next *fabric.QoSPolicy, prior eos.PolicyPrior) ([]string, error) {
	return eos.PolicyLines(cfg, old, next, prior)
}

func (eosDialect) checkPFC(cfg *eos.Config, dev devices.Device, next fabric.PFCInterface) error {
	return missingPorts(cfg, dev.Name, []string{next.Interface})
}

func (eosDialect) adoptPFC(prior *eos.PFCPrior, cfg *eos.Config, old *fabric.PFCInterface, next fabric.PFCInterface) {
	if prior.Watchdog == nil && next.Watchdog != nil && (old == nil || old.Watchdog == nil) {
		// The watchdog becomes managed now: what the port had before is what destroy restores.
		prior.Watchdog = cfg.PFCPrior(next.Interface).Watchdog
	}
}

// importedPFCPrior: nothing recorded, so the port goes back to the EOS defaults.
func (eosDialect) importedPFCPrior(port string) (eos.PFCPrior, error) {
	def, err := eosDefaults()
	if err != nil {
		return eos.PFCPrior{}, err
	}
	return def.PFCPrior(port), nil
}

// pfcDeleteReads: EOS's PFC lines are the port's own, built from the prior alone.
func (eosDialect) pfcDeleteReads() bool { return false }

func (eosDialect) pfcLines(_ *eos.Config, port string, old, next *fabric.PFCInterface, prior eos.PFCPrior) ([]string, error) {
	return eos.PFCLines(port, old, next, prior), nil
}
