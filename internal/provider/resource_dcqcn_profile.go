package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

func newDCQCNProfileResource() resource.Resource {
	return &dcqcnResource{hostInterface("roce_dcqcn_profile", "DCQCN profile", driver.ForDCQCN, dcqcnFromIntent)}
}

type dcqcnResource struct {
	interfaceResource[dcqcnModel, fabric.DCQCN]
}

func (m dcqcnModel) id() types.String { return m.ID }
func (m dcqcnModel) imported() bool   { return m.CNPDSCP.IsNull() }

// paramDocs describes each DCQCN parameter with the cc_params file it sets.
var paramDocs = map[string]string{
	"time_reset_us":                    "Time between rate increases without a CNP, in microseconds (`rp_time_reset`, default 300).",
	"byte_reset":                       "Bytes sent between rate increases without a CNP (`rp_byte_reset`, default 32767).",
	"threshold":                        "Rate-increase events before hyper increase (`rp_threshold`, default 1).",
	"ai_rate_mbps":                     "Additive increase rate, Mbps (`rp_ai_rate`, default 5).",
	"hai_rate_mbps":                    "Hyper additive increase rate, Mbps (`rp_hai_rate`, default 50).",
	"min_rate_mbps":                    "Lowest rate a flow is cut to, Mbps (`rp_min_rate`, default 1).",
	"max_rate_mbps":                    "Highest rate, Mbps; 0 is line rate (`rp_max_rate`, default 0).",
	"dce_tcp_g":                        "Alpha update gain, in 1/1024 (`rp_dce_tcp_g`, default 1019).",
	"dce_tcp_rtt_us":                   "Alpha update period, microseconds (`rp_dce_tcp_rtt`, default 1).",
	"initial_alpha":                    "Initial alpha, in 1/1024 (`rp_initial_alpha_value`, default 1023).",
	"rate_reduce_monitor_period_us":    "Minimum time between rate cuts, microseconds (`rp_rate_reduce_monitor_period`, default 4).",
	"min_dec_factor_percent":           "Floor of a single rate cut: the rate after one cut is at least this percent of the rate before (`rp_min_dec_fac`, default 50; 100 disables cuts).",
	"gd":                               "Rate-cut granularity as a power of two (`rp_gd`, default 11).",
	"rate_to_set_on_first_cnp_mbps":    "Rate set on the first CNP, Mbps; 0 keeps the current rate (`rp_rate_to_set_on_first_cnp`, default 0).",
	"clamp_target_rate":                "Clamp the target rate on a CNP (`rp_clamp_tgt_rate`, default false).",
	"clamp_target_rate_after_time_inc": "Clamp the target rate after a timer increase (`rp_clamp_tgt_rate_ati`, default true).",
	"min_time_between_cnps_us":         "Minimum time between CNPs the receiver sends for one flow, microseconds (`np_min_time_between_cnps`).",
}

func paramSchema(names []string) map[string]schema.Attribute {
	out := map[string]schema.Attribute{}
	for _, n := range names {
		if fabric.BoolParams[n] {
			out[n] = schema.BoolAttribute{Optional: true, MarkdownDescription: paramDocs[n]}
		} else {
			r, _ := fabric.DCQCNParamRule(n)
			out[n] = ruledInt(schema.Int64Attribute{Optional: true, MarkdownDescription: paramDocs[n]}, r)
		}
	}
	return out
}

func (r *dcqcnResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := hostIdentity("DCQCN congestion control")
	attrs["priorities"] = ruledInts(schema.SetAttribute{Optional: true, Computed: true, ElementType: types.Int64Type,
		Default:             setdefault.StaticValue(types.SetValueMust(types.Int64Type, []attr.Value{})),
		MarkdownDescription: "Priorities on which DCQCN runs: `roce_rp` (reaction point, the sender) and `roce_np` (notification point, the receiver) are enabled on these and disabled on the others. Must include every lossless priority."},
		fabric.DCQCNPriorityRule)
	attrs["cnp_dscp"] = ruledInt(schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(48),
		MarkdownDescription: "DSCP of the CNPs this NIC sends (`np_cnp_dscp`). Default 48. Must be the same on every host and fall in a strict switch class."},
		fabric.CNPDSCPRule)
	attrs["cnp_priority"] = ruledInt(schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(6),
		MarkdownDescription: "802.1p priority of the CNPs this NIC sends (`np_cnp_prio`). Default 6."}, fabric.CNPPriorityRule)
	attrs["reaction_point"] = schema.SingleNestedAttribute{Optional: true, Attributes: paramSchema(fabric.ReactionPointParams),
		MarkdownDescription: "DCQCN reaction-point parameters (`/sys/kernel/debug/mlx5/<pci>/cc_params/rp_*`). Each is unmanaged while unset; a host whose NIC does not expose cc_params gets an error naming the missing path."}
	attrs["notification_point"] = schema.SingleNestedAttribute{Optional: true, Attributes: paramSchema(fabric.NotificationPointParams),
		MarkdownDescription: "DCQCN notification-point parameters (`cc_params/np_*`). Unmanaged while unset."}
	attrs["persist"] = persistAttr("DCQCN settings")
	resp.Schema = schema.Schema{
		MarkdownDescription: "DCQCN congestion control of one NIC netdev on an NVIDIA mlx5 host: per-priority enables, CNP DSCP and priority, and reaction/notification point parameters. These settings do not survive a reboot by themselves: with `persist` (the default) a systemd unit on the host writes them again whenever the netdev appears (after debugfs is mounted); without it the next refresh shows the drift and the next apply restores them.",
		Attributes:          attrs,
	}
}
