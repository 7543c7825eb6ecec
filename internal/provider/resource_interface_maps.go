package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// Each per-interface resource has two forms over many interfaces of one device, derived from
// it, schema included: a map keyed by interface (common_interface_map.go) and a group, many
// interfaces with one set of settings (common_interface_group.go).
var (
	newPFCInterfacesResource, newPFCInterfaceGroupResource = interfaceForms[pfcInterfaceModel, fabric.PFCInterface](
		newPFCInterfaceResource, "roce_pfc_interfaces", "roce_pfc_interface_group")
	newNICQoSInterfacesResource, newNICQoSGroupResource = interfaceForms[nicQoSModel, fabric.NICQoS](
		newNICQoSResource, "roce_nic_qos_interfaces", "roce_nic_qos_group")
	newDCQCNInterfacesResource, newDCQCNGroupResource = interfaceForms[dcqcnModel, fabric.DCQCN](
		newDCQCNProfileResource, "roce_dcqcn_interfaces", "roce_dcqcn_group")
)

// interfaceForms are the constructors of the map form mapName and the group form groupName of
// the per-interface resource that one constructs.
func interfaceForms[M interfaceModel[I], I validatable](one func() resource.Resource, mapName, groupName string) (newMap, newGroup func() resource.Resource) {
	return func() resource.Resource { return newInterfaceMap[M, I](mapName, one()) },
		func() resource.Resource { return newInterfaceGroup[M, I](groupName, one()) }
}
