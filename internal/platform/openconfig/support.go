package openconfig

import (
	"fmt"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// CheckSupported lists the attributes of p that the openconfig platform cannot express, sorted
// by attribute path. An empty result means BuildSet can write p. It also reports class names
// whose device object names would collide with the names this package generates.
func CheckSupported(p fabric.QoSPolicy) []fabric.Unsupported {
	var out []fabric.Unsupported
	if p.Trust != "" && p.Trust != fabric.TrustDSCP {
		out = append(out, fabric.Unsupported{Attr: []string{"trust"}, Reason: "OpenConfig classifiers here match DSCP only and OpenConfig has no PCP trust model; trust pcp and dscp_pcp are supported on the sonic, eos and nxos platforms"})
	}
	for _, name := range p.ClassNames() {
		c := p.Classes[name]
		if c.Lossless {
			out = append(out, fabric.Unsupported{Attr: []string{"classes", name, "lossless"}, Reason: "OpenConfig has no PFC (no-drop priority) model; lossless classes are supported on the sonic, eos and nxos platforms"})
		}
		if c.MTU != nil {
			out = append(out, fabric.Unsupported{Attr: []string{"classes", name, "mtu"}, Reason: "OpenConfig has no per-class MTU; a per-class mtu is supported on the nxos platform"})
		}
		if c.PCP != nil {
			out = append(out, fabric.Unsupported{Attr: []string{"classes", name, "pcp"}, Reason: "OpenConfig has no 802.1p (PCP) trust model; pcp classification is supported on the sonic, eos and nxos platforms"})
		}
		if reason := nameCollision(p, name); reason != "" {
			out = append(out, fabric.Unsupported{Attr: []string{"classes", name}, Reason: reason})
		}
	}
	return out
}

// nameCollision explains why class name cannot be used on openconfig, or returns "".
func nameCollision(p fabric.QoSPolicy, name string) string {
	if name == "" {
		return "a class name must not be empty on openconfig: it names the class's OpenConfig objects"
	}
	if name == defaultTermID(p.Name) {
		return fmt.Sprintf("on openconfig the class name %q is reserved: classifier term %q carries the unlisted DSCPs", name, name)
	}
	if needsFallback(p) && objName(p.Name, name) == fallbackName(p.Name, p.DefaultTrafficClass) {
		return fmt.Sprintf("on openconfig the class name %q is reserved: no class has traffic_class %d (default_traffic_class), so queue %q is created for it", name, p.DefaultTrafficClass, objName(p.Name, name))
	}
	return ""
}
