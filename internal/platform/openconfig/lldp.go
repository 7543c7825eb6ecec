package openconfig

import (
	"bytes"
	"encoding/json"
	"fmt"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// LLDP on OpenConfig: openconfig-lldp's /lldp/interfaces/interface[name]/neighbors/neighbor[id]/state
// (system-name, chassis-id, port-id, port-description) and openconfig-system's hostname
// (openconfig/public release/models/lldp and system).

// LLDPPath is the neighbours' Get (type STATE); NotFound where no port hears one.
func LLDPPath() *gpb.Path {
	return &gpb.Path{Origin: Origin, Elem: []*gpb.PathElem{el("lldp"), el("interfaces")}}
}

// HostnamePath is the Get (type CONFIG) of the configured hostname, the system name the
// switch's LLDP agent advertises (a Get of one path per type: a path that fails fails the Get).
func HostnamePath() *gpb.Path {
	return &gpb.Path{Origin: Origin, Elem: []*gpb.PathElem{el("system"), el("config"), el("hostname")}}
}

// HostnameStatePath is the Get (type STATE) of the hostname in use, where none is configured.
func HostnameStatePath() *gpb.Path {
	return &gpb.Path{Origin: Origin, Elem: []*gpb.PathElem{el("system"), el("state"), el("hostname")}}
}

// ParseLLDP reads the hostname (/system/config/hostname, else /system/state/hostname) and the
// neighbours from the updates of Gets of LLDPPath and HostnamePath. A target may answer with
// the whole subtree or one update per leaf.
func ParseLLDP(updates []Update) (hostname string, neighbors []fabric.Neighbor, err error) {
	root := obj{}
	for _, u := range updates {
		dec := json.NewDecoder(bytes.NewReader(u.JSON))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return "", nil, fmt.Errorf("openconfig: LLDP: value at %s is not JSON: %w", pathText(u.Path), err)
		}
		graft(root, u.Path.GetElem(), listEntryValue(u.Path, stripPrefixes(v)))
	}
	hostname, _ = walk(root, "system", "config", "hostname").(string)
	if hostname == "" {
		hostname, _ = walk(root, "system", "state", "hostname").(string)
	}
	ifaces, _ := walk(root, "lldp", "interfaces", "interface").([]any)
	for _, ifc := range ifaces {
		name, _ := walk(ifc, "name").(string)
		ns, _ := walk(ifc, "neighbors", "neighbor").([]any)
		for _, n := range ns {
			s := func(leaf string) string {
				v, _ := walk(n, "state", leaf).(string)
				return v
			}
			neighbors = append(neighbors, fabric.Neighbor{Interface: name, SystemName: s("system-name"), ChassisID: s("chassis-id"),
				PortID: s("port-id"), PortDescription: s("port-description")})
		}
	}
	fabric.SortNeighbors(neighbors)
	return hostname, neighbors, nil
}

// listEntryValue unwraps a list entry some targets answer at the entry's own path as a
// one-element list under the list's name ({"interface": [{...}]}: SONiC's translib).
func listEntryValue(p *gpb.Path, v any) any {
	elems := p.GetElem()
	if len(elems) == 0 || len(elems[len(elems)-1].GetKey()) == 0 {
		return v
	}
	o, ok := v.(obj)
	if !ok || len(o) != 1 {
		return v
	}
	if list, ok := o[unqualify(elems[len(elems)-1].GetName())].([]any); ok && len(list) == 1 {
		return list[0]
	}
	return v
}
