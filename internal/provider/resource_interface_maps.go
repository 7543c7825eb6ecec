package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// The map-keyed forms of the per-interface resources (common_interface_map.go): each is
// derived from its per-interface resource, schema included.

func newPFCInterfacesResource() resource.Resource {
	return newInterfaceMap[pfcInterfaceModel, fabric.PFCInterface]("roce_pfc_interfaces", newPFCInterfaceResource())
}

func newNICQoSInterfacesResource() resource.Resource {
	return newInterfaceMap[nicQoSModel, fabric.NICQoS]("roce_nic_qos_interfaces", newNICQoSResource())
}

func newDCQCNInterfacesResource() resource.Resource {
	return newInterfaceMap[dcqcnModel, fabric.DCQCN]("roce_dcqcn_interfaces", newDCQCNProfileResource())
}

// The group forms (common_interface_group.go): many interfaces, one set of settings.

func newPFCInterfaceGroupResource() resource.Resource {
	return newInterfaceGroup[pfcInterfaceModel, fabric.PFCInterface]("roce_pfc_interface_group", newPFCInterfaceResource())
}

func newNICQoSGroupResource() resource.Resource {
	return newInterfaceGroup[nicQoSModel, fabric.NICQoS]("roce_nic_qos_group", newNICQoSResource())
}

func newDCQCNGroupResource() resource.Resource {
	return newInterfaceGroup[dcqcnModel, fabric.DCQCN]("roce_dcqcn_group", newDCQCNProfileResource())
}
