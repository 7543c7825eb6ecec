package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

func newPFCInterfaceResource() resource.Resource {
	return &pfcInterfaceResource{interfaceResource[pfcInterfaceModel, fabric.PFCInterface]{
		typeName: "roce_pfc_interface", what: "PFC settings",
		open: func(reg *devices.Registry, device string) (interfaceOps[fabric.PFCInterface], error) {
			return driver.ForPFCInterface(reg, device)
		},
		checkPlatform: driver.CheckPFCInterface,
		fromIntent:    pfcFromIntent,
		readAtPlan:    true, // SONiC: the buffer model decides what buffer can be (CheckIntent)
	}}
}

type pfcInterfaceResource struct {
	interfaceResource[pfcInterfaceModel, fabric.PFCInterface]
}

func (r *pfcInterfaceResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := identityAttrs("Name of the switch in the provider's `devices` map. Changing it replaces the resource.",
		"Switch port, e.g. `Ethernet0`. Changing it replaces the resource.", fabric.PortNameRule)
	attrs["mode"] = ruledString(schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("on"),
		MarkdownDescription: "PFC on, off, or `auto` (DCBX-negotiated, where supported). Default `on`. The no-drop priorities themselves are the bound policy's lossless classes."},
		fabric.PFCModeRule)
	attrs["link_pause"] = schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
		MarkdownDescription: "802.3x link-level pause. Default `false`; it must be off with PFC."}
	attrs["buffer"] = schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "Headroom of the port's lossless priority groups, where the platform has it per port. Each field is unmanaged while unset.",
		Attributes: map[string]schema.Attribute{
			"xoff_bytes": ruledInt(schema.Int64Attribute{Optional: true, MarkdownDescription: "XOFF threshold (headroom), bytes."}, fabric.XoffRule),
			"xon_bytes":  ruledInt(schema.Int64Attribute{Optional: true, MarkdownDescription: "XON threshold, bytes; below `xoff_bytes`."}, fabric.XonRule),
			"cable_length_m": ruledInt(schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Cable length in metres (SONiC `CABLE_LENGTH`), from which the switch sizes headroom."}, fabric.CableLengthRule),
		}}
	attrs["watchdog"] = schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "PFC watchdog against PFC deadlocks and pause storms. Unmanaged while unset.",
		Attributes: map[string]schema.Attribute{
			"action": ruledString(schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("drop"),
				MarkdownDescription: "`drop` everywhere; `forward` or `alert` on SONiC only. Default `drop`."}, fabric.WatchdogActionRule),
			"detection_time_ms": ruledInt(schema.Int64Attribute{Optional: true,
				MarkdownDescription: "At least the device's poll interval. Required on `sonic`; on `eos` set with `restoration_time_ms`, in 10 ms steps; not supported on `nxos`, whose watchdog timers are system-wide."},
				fabric.DetectionTimeRule),
			"restoration_time_ms": ruledInt(schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Required on `sonic`; on `eos` in 10 ms steps; not supported on `nxos`."}, fabric.RestorationTimeRule),
		}}
	resp.Schema = schema.Schema{
		MarkdownDescription: "PFC on one switch port: on/off, link-level pause, lossless headroom and the PFC watchdog. It writes only its own fields of shared device objects, so it and the port's `roce_qos_policy` can be applied and destroyed in any order.",
		Attributes:          attrs,
	}
}
