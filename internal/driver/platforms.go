package driver

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/cumulus"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/eos"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/nxos"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/openconfig"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/sonic"
)

// platformDriver is one platform's row of the dispatch table: a driver per resource type and
// read (nil where the platform has none) beside the plan-time check that goes with it, so the
// check and the constructor cannot disagree.
type platformDriver struct {
	// roce_qos_policy; whyNoQoS says why a platform has none.
	checkQoS func(fabric.QoSPolicy) fabric.Problems
	qos      func(*devices.Registry, string) (QoSPolicy, error)
	whyNoQoS string
	// roce_pfc_interface; whyNoPFC says why a platform has none.
	checkPFC func(fabric.PFCInterface) []fabric.Unsupported
	pfc      func(*devices.Registry, string) (PFCInterface, error)
	whyNoPFC string
	// checkModel refuses at plan time a configured model the platform does not render.
	checkModel func(devices.Device) fabric.Problems
	// roce_nic_qos, roce_dcqcn_profile and roce_nic_firmware.
	host func(*devices.Registry, string) (*mlx5Host, error)
	// The data sources' reads.
	lldp     func(ctx context.Context, reg *devices.Registry, device string) (fabric.DeviceNeighbors, error)
	audit    func(ctx context.Context, reg *devices.Registry, device string, ports []string) (fabric.Fabric, error)
	counters func(*devices.Registry, string) (Counters, error)
}

// platforms is the dispatch table: every resource type and read finds its platform's driver
// here.
var platforms = map[string]platformDriver{
	"openconfig": {
		checkQoS: notSupported("openconfig", openconfig.CheckSupported),
		qos:      openOpenConfigQoS,
		whyNoPFC: "OpenConfig has no PFC model (no per-priority pause, headroom or watchdog), so PFC cannot be configured over it",
		lldp:     overGNMI(readOpenConfigLLDP),
		audit:    auditOpenConfig,
		counters: openOpenConfigCounters,
	},
	"sonic": {
		checkQoS: notSupported("sonic", sonic.CheckSupported),
		qos:      openSONiCQoS,
		checkPFC: sonic.CheckPFC,
		pfc:      openSONiCPFC,
		lldp:     overGNMI(readSONiCLLDP),
		audit:    auditSONiC,
		counters: openSONiCCounters,
	},
	"eos": cliPlatform(eosCLI(), platformDriver{
		checkQoS: wholeKilobytes(notSupported("eos", eos.CheckSupported)),
		checkPFC: eos.CheckPFC,
		lldp:     overCLI(showLLDP(eos.LLDPCommands, eos.ParseLLDP)),
		counters: overCLICounters(readEOSCounters),
	}),
	"nxos": cliPlatform(nxosCLI(), platformDriver{
		checkQoS:   wholeKilobytes(notSupported("nxos", nxos.CheckSupported)),
		checkPFC:   nxos.CheckPFC,
		checkModel: checkNXOSModel,
		lldp:       overCLI(showLLDP(nxos.LLDPCommands, nxos.ParseLLDP)),
		counters:   overCLICounters(readNXOSCounters),
	}),
	"cumulus": {
		checkQoS: notSupported("cumulus", cumulus.CheckSupported),
		qos:      openCumulusQoS,
		checkPFC: cumulus.CheckPFC,
		pfc:      openCumulusPFC,
		counters: openCumulusCounters,
		lldp:     readCumulusLLDP,
		audit:    auditCumulus,
	},
	"mlx5": {
		whyNoQoS: "is a NIC host (roce_qos_policy configures switches; use roce_nic_qos)",
		whyNoPFC: "it is a NIC host: roce_pfc_interface configures switch ports; set a NIC's PFC priorities with roce_nic_qos",
		host:     openMLX5,
		lldp:     readHostLLDP,
		audit:    auditHost,
		counters: openMLX5Counters,
	},
}

// platformOf returns a configured device and its platform's row; an unknown device is the
// registry's error, which names the devices that are configured.
func platformOf(reg *devices.Registry, device string) (devices.Device, platformDriver, error) {
	dev, ok := reg.Device(device)
	if !ok {
		return dev, platformDriver{}, errors.New(reg.UnknownDeviceDetail(device))
	}
	return dev, platforms[dev.Platform], nil
}

// openDriver opens the driver pick takes from device's platform row. A platform whose row has none
// is refused with missing, which says why ("device %q has platform %s, " + missing).
func openDriver[T any](reg *devices.Registry, device string, pick func(platformDriver) func(*devices.Registry, string) (T, error),
	missing func(platformDriver) string) (T, error) {
	var none T
	dev, d, err := platformOf(reg, device)
	if err != nil {
		return none, err
	}
	drv := pick(d)
	if drv == nil {
		return none, fmt.Errorf("device %q has platform %s, %s", device, dev.Platform, missing(d))
	}
	return drv(reg, device)
}

// over is the opener of a driver built on what open opens for the device (an NVUE tree, a
// SONiC database session, a NIC host): wrap makes the driver of it.
func over[S, T any](open func(*devices.Registry, string) (S, error), wrap func(S) T) func(*devices.Registry, string) (T, error) {
	return func(reg *devices.Registry, device string) (T, error) {
		s, err := open(reg, device)
		if err != nil {
			var none T
			return none, err
		}
		return wrap(s), nil
	}
}

// platformsWith names the platforms whose row has has, in devices.Platforms order.
func platformsWith(has func(platformDriver) bool) []string {
	var out []string
	for _, p := range devices.Platforms {
		if d, ok := platforms[p]; ok && has(d) {
			out = append(out, p)
		}
	}
	return out
}

// sortedPlatformsWith is platformsWith sorted by name.
func sortedPlatformsWith(has func(platformDriver) bool) []string {
	out := platformsWith(has)
	slices.Sort(out)
	return out
}

// devicesWith returns the configured devices whose platform's row has has, sorted.
func devicesWith(reg *devices.Registry, has func(platformDriver) bool) []string {
	var out []string
	for _, name := range reg.Names() {
		if dev, _ := reg.Device(name); has(platforms[dev.Platform]) {
			out = append(out, name)
		}
	}
	return out
}

// notSupported turns what a platform package cannot express into problems on the attributes.
func notSupported(platform string, check func(fabric.QoSPolicy) []fabric.Unsupported) func(fabric.QoSPolicy) fabric.Problems {
	return func(p fabric.QoSPolicy) fabric.Problems {
		var probs fabric.Problems
		for _, u := range check(p) {
			probs.Add(attrPath(u.Attr), "Not supported on platform "+platform, u.Reason+".")
		}
		return probs
	}
}

// wholeKilobytes adds to check the ECN thresholds that are not whole kbytes: the CLI
// platforms write kbytes, and the provider never rounds.
func wholeKilobytes(check func(fabric.QoSPolicy) fabric.Problems) func(fabric.QoSPolicy) fabric.Problems {
	return func(p fabric.QoSPolicy) fabric.Problems {
		return append(check(p), fabric.ECNWholeKilobytes(p)...)
	}
}

// attrPath turns ["classes", "roce", "lossless"] into classes["roce"].lossless: the element
// after a map attribute is a key.
func attrPath(elems []string) fabric.Path {
	var p fabric.Path
	prev := ""
	for _, e := range elems {
		if prev == "classes" {
			p = p.Key(e)
		} else {
			p = p.Attr(e)
		}
		prev = e
	}
	return p
}

// checkNXOSModel refuses a configured model of a family the NX-OS renderer does not cover (a
// Nexus 3000) on the device attribute.
func checkNXOSModel(dev devices.Device) fabric.Problems {
	var probs fabric.Problems
	if err := nxos.CheckChassis("", dev.Model); err != nil {
		probs.Add(fabric.Root("device"), "Model not supported", fmt.Sprintf("Device %q (platform nxos, model %s): %s.", dev.Name, dev.Model, err))
	}
	return probs
}

// checkModel is the plan-time check of a device's configured model.
func checkModel(dev devices.Device) fabric.Problems {
	if check := platforms[dev.Platform].checkModel; check != nil {
		return check(dev)
	}
	return nil
}
