package lab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/eos"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/nxos"
)

// labDevice is what the lab needs from every simulated device, whatever its
// protocol. Each platform adds one constructor to platforms below.
type labDevice = device.Device

type platformDef struct {
	role cabling.Role
	// models are the models (SKUs) a platform simulates, the first the default; nil when the
	// platform has one kind of device.
	models []string
	// start is nil for platforms the contract names but the lab does not
	// simulate yet, so the error can say "not yet" rather than "unknown".
	start func(device.Spec) (labDevice, error)
}

var platforms = map[string]platformDef{
	"openconfig": {role: cabling.Switch, start: startGNMISwitch},
	"sonic":      {role: cabling.Switch, start: startSONiCSwitch, models: sonicSKUNames()},
	"eos":        {role: cabling.Switch, start: eos.Start, models: eos.ModelNames()},
	"nxos":       {role: cabling.Switch, start: nxos.Start, models: nxos.ModelNames()},
	"cumulus":    {role: cabling.Switch, start: startCumulusSwitch},
	"mlx5":       {role: cabling.Host, start: startMLX5Host, models: []string{MLX5OFED, MLX5Inbox}},
}

// lookupPlatform resolves a platform requested in the given role (the
// Switches or Hosts option) to its constructor.
func lookupPlatform(name string, role cabling.Role) (func(device.Spec) (labDevice, error), error) {
	def, ok := platforms[name]
	switch {
	case !ok:
		known := make([]string, 0, len(platforms))
		for p := range platforms {
			known = append(known, p)
		}
		slices.Sort(known)
		return nil, fmt.Errorf("unknown platform %q (known: %s)", name, strings.Join(known, ", "))
	case def.role != role:
		return nil, fmt.Errorf("platform %s is a %s platform, not a %s one", name, def.role, role)
	case def.start == nil:
		return nil, fmt.Errorf("platform %s is not in the lab yet", name)
	}
	return def.start, nil
}

// Models lists, per platform with several, the models the lab simulates, the default first.
func Models() map[string][]string {
	out := map[string][]string{}
	for name, def := range platforms {
		if len(def.models) > 0 {
			out[name] = slices.Clone(def.models)
		}
	}
	return out
}

// lookupModel resolves the model asked for a platform ("": the platform's default).
func lookupModel(platform, model string) (string, error) {
	def := platforms[platform]
	switch {
	case len(def.models) == 0 && model != "":
		return "", fmt.Errorf("platform %s simulates one kind of device: no model can be chosen (asked %q)", platform, model)
	case len(def.models) == 0:
		return "", nil
	case model == "":
		return def.models[0], nil
	case !slices.Contains(def.models, model):
		return "", fmt.Errorf("platform %s has no model %q (models: %s)", platform, model, strings.Join(def.models, ", "))
	}
	return model, nil
}
