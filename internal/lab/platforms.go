package lab

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/cabling"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/pki"
)

// device is what the lab needs from every simulated device, whatever its
// protocol. Each platform adds one constructor to platforms below.
type device interface {
	entry() DeviceEntry
	interfaces() []string
	stop()
}

// deviceSpec is everything a constructor gets: identity, credentials and the
// lab-wide knobs. Constructors listen before returning.
type deviceSpec struct {
	name     string // <platform>-<n>
	platform string
	ports    int    // switch front-panel ports, or a NIC host's netdevs
	model    string // the model (SKU) simulated, for platforms with several
	latency  time.Duration
	username string
	password string
	ca       *pki.Authority
	wires    *cabling.Panel // what each port hears over LLDP
}

type platformDef struct {
	role cabling.Role
	// models are the models (SKUs) a platform simulates, the first the default; nil when the
	// platform has one kind of device.
	models []string
	// start is nil for platforms the contract names but the lab does not
	// simulate yet, so the error can say "not yet" rather than "unknown".
	start func(deviceSpec) (device, error)
}

var platforms = map[string]platformDef{
	"openconfig": {role: cabling.Switch, start: startGNMISwitch},
	"sonic":      {role: cabling.Switch, start: startSONiCSwitch, models: sonicSKUNames()},
	"eos":        {role: cabling.Switch, start: startEOSSwitch, models: eosModelNames()},
	"nxos":       {role: cabling.Switch, start: startNXOSSwitch, models: nxosModelNames()},
	"mlx5":       {role: cabling.Host, start: startMLX5Host, models: []string{MLX5OFED, MLX5Inbox}},
}

// lookupPlatform resolves a platform requested in the given role (the
// Switches or Hosts option) to its constructor.
func lookupPlatform(name string, role cabling.Role) (func(deviceSpec) (device, error), error) {
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

// modelNames lists the names of a platform's model table, the default first.
func modelNames[M any](models []M, name func(M) string) []string {
	out := make([]string, len(models))
	for i, m := range models {
		out[i] = name(m)
	}
	return out
}

// modelOf is the model named name in a platform's table, the default (first) when there is
// none: lookupModel has checked the name.
func modelOf[M any](models []M, name func(M) string, want string) M {
	for _, m := range models {
		if name(m) == want {
			return m
		}
	}
	return models[0]
}

// ethernetNames is the front-panel naming of platforms that call ports
// Ethernet1..EthernetN.
func ethernetNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("Ethernet%d", i+1)
	}
	return names
}

// ethernetSlotNames is the front-panel naming of platforms that number ports within a slot,
// Ethernet1/1..Ethernet1/N (NX-OS).
func ethernetSlotNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("Ethernet1/%d", i+1)
	}
	return names
}
