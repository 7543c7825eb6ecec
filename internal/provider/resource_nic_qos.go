package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

func newNICQoSResource() resource.Resource {
	r := &nicQoSResource{hostInterface("roce_nic_qos", "NIC QoS", driver.ForNICQoS, nicFromIntent)}
	r.computed = func(ctx context.Context, drv interfaceOps[fabric.NICQoS], ifname string) (map[string]attr.Value, error) {
		t, ok := drv.(interface {
			Tool(context.Context, string) (string, error)
		})
		if !ok {
			return nil, nil
		}
		tool, err := t.Tool(ctx, ifname)
		return map[string]attr.Value{"tool": types.StringValue(tool)}, err
	}
	return r
}

type nicQoSResource struct {
	interfaceResource[nicQoSModel, fabric.NICQoS]
}

func (m nicQoSModel) id() types.String { return m.ID }
func (m nicQoSModel) imported() bool   { return m.Trust.IsNull() }

// hostIdentity are the device and interface attributes every host resource has.
func hostIdentity(what string) map[string]schema.Attribute {
	return identityAttrs("Name of the host (platform `mlx5`) in the provider's `devices` map. Changing it replaces the resource.",
		"The NIC's netdev, e.g. `eth0` or `ens1f0np0`, whose "+what+" this resource owns. Changing it replaces the resource.",
		fabric.NetdevNameRule)
}

// persistAttr is the persist attribute of the host resources (mlx5 persist.go).
func persistAttr(what string) schema.Attribute {
	return schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true),
		MarkdownDescription: "Keep the " + what + " across reboots, driver reloads and firmware resets (default `true`). " +
			"The host's own settings are volatile, so the provider installs and enables a systemd unit, " +
			"`/etc/systemd/system/roce-<kind>-<interface>.service`, that writes exactly these settings again whenever the netdev appears, " +
			"under the same lock as the provider's writes; destroy removes it. A refresh reads the unit back: disabling or editing it " +
			"shows as `persist` drift, which the next apply repairs. Needs systemd 244 or later (a oneshot unit with `Restart=`), " +
			"`flock` (util-linux) on the host, and a netdev name without `-`. `false` removes the unit: the settings are then lost at a reboot " +
			"until the next apply."}
}

// identityAttrs are id, device and interface of a resource that owns one interface's settings;
// ifaceRule is what an interface name may be.
func identityAttrs(deviceDesc, ifaceDesc string, ifaceRule fabric.StringRule) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{Computed: true, MarkdownDescription: "`<device>/<interface>`.",
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"device": schema.StringAttribute{Required: true, MarkdownDescription: deviceDesc,
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
		"interface": ruledString(schema.StringAttribute{Required: true, MarkdownDescription: ifaceDesc,
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}}, ifaceRule),
	}
}

func (r *nicQoSResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := hostIdentity("QoS")
	attrs["trust"] = ruledString(schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("dscp"),
		MarkdownDescription: "The field the NIC classifies received packets on (`mlnx_qos --trust`). Default `dscp`."}, fabric.NICTrustRule)
	attrs["pfc_priorities"] = ruledInts(schema.SetAttribute{Optional: true, Computed: true, ElementType: types.Int64Type,
		Default:             setdefault.StaticValue(types.SetValueMust(types.Int64Type, []attr.Value{})),
		MarkdownDescription: "Priorities with PFC enabled (`mlnx_qos --pfc`); PFC is off on every other priority. Must equal the switches' lossless traffic classes."},
		fabric.PFCPriorityRule)
	attrs["dscp_to_priority"] = ruledIntMap(schema.MapAttribute{Optional: true, Computed: true, ElementType: types.Int64Type,
		Default:             mapdefault.StaticValue(types.MapValueMust(types.Int64Type, map[string]attr.Value{})),
		MarkdownDescription: "DSCP to priority (`mlnx_qos --dscp2prio`). Written whole: unlisted DSCPs go to priority 0, so the NIC's stock map (dscp>>3) never leaks through."},
		fabric.DSCPKeyRule, fabric.DSCPPriorityRule)
	attrs["priority_to_tc"] = ruledIntMap(schema.MapAttribute{Optional: true, ElementType: types.Int64Type,
		MarkdownDescription: "Priority to traffic class (`mlnx_qos -p`); unlisted priorities map to TC 0. Unmanaged while unset."},
		fabric.PriorityKeyRule, fabric.PriorityTCRule)
	attrs["ets"] = ruledKeys(schema.MapNestedAttribute{Optional: true,
		MarkdownDescription: "ETS per traffic class (`mlnx_qos -s/-t`), owned whole: unlisted TCs get 0 % and no strict priority. Non-strict shares sum to 100. Unmanaged while unset.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"bandwidth_percent": ruledInt(schema.Int64Attribute{Optional: true, MarkdownDescription: "Minimum bandwidth share."}, fabric.ETSShareRule),
			"strict_priority": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Strict priority (CNP traffic). Exactly one of this and `bandwidth_percent`."},
		}}}, fabric.TCKeyRule)
	attrs["persist"] = persistAttr("QoS settings")
	attrs["tool"] = schema.StringAttribute{Computed: true,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		MarkdownDescription: "What the provider reads and writes these settings with on the host, chosen by what the host has: " +
			"`mlnx_qos` (NVIDIA's mlnx-tools, with MLNX_OFED / DOCA-OFED) or, where it is absent, `dcb` (iproute2, on stock " +
			"distributions with the inbox mlx5 driver). Both reach the same driver settings; with `dcb`, trust follows the DSCP map " +
			"(the driver trusts DSCP while it has DSCP entries), and the boot unit of `persist` uses the same tool."}
	attrs["roce_tos"] = ruledInt(schema.Int64Attribute{Optional: true,
		MarkdownDescription: "ToS byte of the NIC's RoCE traffic, e.g. 106 = DSCP 26 << 2 | ECT(0), written to the RDMA device's global traffic class (`/sys/class/infiniband/<dev>/tc/1/traffic_class`, MLNX_OFED). It covers RDMA-CM connections and, on MLNX_OFED, the device's other RoCE connections too, whatever an application such as NCCL (`NCCL_IB_TC`) asks for. Unmanaged while unset."}, fabric.RoCEToSRule)
	resp.Schema = schema.Schema{
		MarkdownDescription: "QoS of one NIC netdev on an NVIDIA mlx5 host: trust, DSCP to priority map, PFC priorities, priority to TC map, ETS and the RoCE ToS. Host settings made with `mlnx_qos` and sysfs do not survive a reboot by themselves: with `persist` (the default) a systemd unit on the host writes them again whenever the netdev appears; without it the next refresh shows the drift and the next apply restores them.",
		Attributes:          attrs,
	}
}
