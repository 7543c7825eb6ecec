package provider

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

var (
	_ datasource.DataSourceWithConfigure = (*countersDataSource)(nil)
)

func newCountersDataSource() datasource.DataSource {
	return &countersDataSource{configuredData{dataSourceName: "roce_interface_counters"}}
}

// countersDataSource reads a port's or NIC's RoCE counters: the golden metrics a drift check
// can assert on (PFC pause storms, ECN marks, drops, CNPs).
type countersDataSource struct{ configuredData }

type countersModel struct {
	deviceInterface
	SampleSeconds types.Int64 `tfsdk:"sample_seconds"`
	counterValues
}

// counterValues are the counters of one port or netdev: roce_interface_counters' outputs and
// each port of roce_fabric_counters (counterAttributes declares them once for both).
type counterValues struct {
	PFCRxPause    types.Map     `tfsdk:"pfc_rx_pause"`
	PFCTxPause    types.Map     `tfsdk:"pfc_tx_pause"`
	ECNMarked     types.Float64 `tfsdk:"ecn_marked_packets"`
	Dropped       types.Float64 `tfsdk:"dropped_packets"`
	CNPSent       types.Float64 `tfsdk:"cnp_sent"`
	CNPHandled    types.Float64 `tfsdk:"cnp_handled"`
	OutOfSequence types.Float64 `tfsdk:"out_of_sequence"`

	PacketSeqErr       types.Float64 `tfsdk:"packet_seq_err"`
	ImpliedNakSeqErr   types.Float64 `tfsdk:"implied_nak_seq_err"`
	LocalAckTimeoutErr types.Float64 `tfsdk:"local_ack_timeout_err"`
	DuplicateRequest   types.Float64 `tfsdk:"duplicate_request"`
	RoCEAdpRetrans     types.Float64 `tfsdk:"roce_adp_retrans"`
	RoCETxPackets      types.Float64 `tfsdk:"roce_tx_packets"`
	RetransmitPercent  types.Float64 `tfsdk:"retransmit_percent"`

	QueueECNMarked           types.Map     `tfsdk:"queue_ecn_marked_packets"`
	QueueDropped             types.Map     `tfsdk:"queue_dropped_packets"`
	QueueWatermarkBytes      types.Map     `tfsdk:"queue_watermark_bytes"`
	PGHeadroomWatermarkBytes types.Map     `tfsdk:"pg_headroom_watermark_bytes"`
	PGSharedWatermarkBytes   types.Map     `tfsdk:"pg_shared_watermark_bytes"`
	PFCWatchdogDetected      types.Float64 `tfsdk:"pfc_watchdog_storms_detected"`
	PFCWatchdogRestored      types.Float64 `tfsdk:"pfc_watchdog_storms_restored"`
	BufferPoolBytes          types.Float64 `tfsdk:"buffer_pool_bytes"`
	BufferUtilization        types.Float64 `tfsdk:"buffer_utilization_percent"`
}

func (d *countersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := counterAttributes()
	attrs["device"] = schema.StringAttribute{Required: true, MarkdownDescription: "Device name in the provider's `devices` map."}
	attrs["interface"] = schema.StringAttribute{Required: true, MarkdownDescription: "Switch port or host netdev.",
		Validators: []validator.String{interfaceName()}}
	attrs["sample_seconds"] = schema.Int64Attribute{Optional: true,
		MarkdownDescription: "Read twice this many seconds apart (1-300) and report per-second rates instead of counts."}
	resp.Schema = schema.Schema{
		MarkdownDescription: "RoCE counters of a switch port or NIC netdev: PFC pause frames per priority, ECN-marked and dropped packets, and on hosts CNPs, out-of-sequence packets and the retransmission counters with the retransmit rate. Counts since the device's counters started, or, with `sample_seconds`, per-second rates over that window. On switches also per-queue ECN marks and drops, queue and priority-group buffer watermarks with the pool size and utilisation, and the PFC watchdog's storm counts. A counter the platform does not have is null (OpenConfig has no per-priority PFC counter, and none is read on EOS; NX-OS's `show queuing interface` has no ECN-marked count; switches have no CNP counters; hosts have no queue watermarks).",
		Attributes:          attrs,
	}
}

// interfaceName validates a port or netdev name before it reaches a device.
func interfaceName() validator.String {
	return stringvalidator.All(stringvalidator.LengthAtMost(64), stringvalidator.RegexMatches(fabric.InterfacePattern,
		"must be a port or netdev name: letters, digits, '/', '_', '.', ':' and '-', starting with a letter or digit"))
}

// counterAttributes are the computed counters of a port or netdev (counterValues).
func counterAttributes() map[string]schema.Attribute {
	byIndex := func(desc string) schema.MapAttribute {
		return schema.MapAttribute{Computed: true, ElementType: types.Float64Type, MarkdownDescription: desc}
	}
	return map[string]schema.Attribute{
		"pfc_rx_pause":                 schema.MapAttribute{Computed: true, ElementType: types.Float64Type, MarkdownDescription: "PFC pause frames received, by priority (`\"0\"`..`\"7\"`); null where the platform has no per-priority counter. On mlx5, only PFC-enabled priorities have one."},
		"pfc_tx_pause":                 schema.MapAttribute{Computed: true, ElementType: types.Float64Type, MarkdownDescription: "PFC pause frames sent, by priority."},
		"ecn_marked_packets":           computedFloat("ECN-marked packets (CE)."),
		"dropped_packets":              computedFloat("Dropped packets."),
		"cnp_sent":                     computedFloat("CNPs sent by this NIC (notification point); hosts only."),
		"cnp_handled":                  computedFloat("CNPs handled by this NIC (reaction point); hosts only."),
		"out_of_sequence":              computedFloat("RoCE packets received out of sequence (a sign of drops); hosts only."),
		"packet_seq_err":               computedFloat("NAK-sequence-error packets received: each makes the sender go back and resend (hw_counters `packet_seq_err`); hosts only, null where the NIC has no such counter."),
		"implied_nak_seq_err":          computedFloat("Implied NAK sequence errors: a read or atomic response showed earlier packets lost, which are resent (`implied_nak_seq_err`); hosts only."),
		"local_ack_timeout_err":        computedFloat("Times the sender's ack timer expired and it resent (`local_ack_timeout_err`); hosts only."),
		"duplicate_request":            computedFloat("Requests this NIC received again: the sender's retransmissions as the responder sees them (`duplicate_request`); hosts only."),
		"roce_adp_retrans":             computedFloat("Adaptive retransmissions (`roce_adp_retrans`, ConnectX-6 and later); hosts only."),
		"roce_tx_packets":              computedFloat("RDMA packets the port sent (ethtool `tx_vport_rdma_unicast_packets`); hosts only."),
		"queue_ecn_marked_packets":     byIndex("ECN-marked packets per egress queue (`\"0\"`..`\"7\"`, the queue index); switches only, null where the platform counts no marks per queue."),
		"queue_dropped_packets":        byIndex("Dropped packets per egress queue; switches only."),
		"queue_watermark_bytes":        byIndex("Each egress queue's shared-buffer watermark in bytes: the peak occupancy of the recent telemetry interval (SONiC: the periodic watermark, cleared every 120 s by default). A gauge: with `sample_seconds`, the later reading."),
		"pg_headroom_watermark_bytes":  byIndex("Headroom watermark in bytes of each lossless ingress priority group (`\"3\"`, `\"4\"`...): how much of its headroom (xoff room) absorbed in-flight traffic after the switch paused its sender. A gauge."),
		"pg_shared_watermark_bytes":    byIndex("Shared-buffer watermark in bytes of each lossless ingress priority group. A gauge."),
		"pfc_watchdog_storms_detected": computedFloat("PFC storms the switch's PFC watchdog detected on the port's queues (summed over its queues); null where the watchdog does not run on the port or the platform reports no such count."),
		"pfc_watchdog_storms_restored": computedFloat("PFC storms the watchdog saw end (queues restored), summed over the port's queues. Detected minus restored is the number of queues in a storm now."),
		"buffer_pool_bytes":            computedFloat("Size in bytes of the buffer pool the port's lossless queues draw from; null where the switch's configuration gives it no size (SONiC's dynamic buffer model computes it)."),
		"buffer_utilization_percent":   computedFloat("The highest lossless queue watermark as a percentage of `buffer_pool_bytes`: the buffer-utilisation golden metric (alarm above 80). Null without a pool size or watermarks."),
		"retransmit_percent":           computedFloat("Retransmissions per RDMA packet sent, in percent: (`packet_seq_err` + `implied_nak_seq_err` + `local_ack_timeout_err`, those the NIC has) / `roce_tx_packets` x 100. With `sample_seconds`, over the window: the golden metric a healthy lossless fabric keeps under 0.001. Null without those counters or with nothing sent."),
	}
}

func (d *countersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m countersModel
	ctx, ok := d.begin(ctx, req.Config, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	window := time.Duration(0)
	if !m.SampleSeconds.IsNull() {
		s := m.SampleSeconds.ValueInt64()
		if s < 1 || s > 300 {
			resp.Diagnostics.AddAttributeError(path.Root("sample_seconds"), "Invalid sample_seconds",
				fmt.Sprintf("sample_seconds is %d; use 1 to 300.", s))
			return
		}
		window = time.Duration(s) * time.Second
	}
	device, ifname := m.Device.ValueString(), m.Interface.ValueString()
	drv, err := driver.ForCounters(d.pd.registry, device)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Cannot read counters", err.Error())
		return
	}
	c, err := driver.CountersOf(ctx, drv, ifname)
	if err == nil && window > 0 {
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-time.After(window):
		}
		if err == nil {
			var later driver.InterfaceCounters
			later, err = driver.CountersOf(ctx, drv, ifname)
			c = later.RatesSince(c, window)
		}
	}
	if err != nil {
		resp.Diagnostics.AddError(fmt.Sprintf("Cannot read the counters of %q on device %q", ifname, device), err.Error())
		return
	}
	m.counterValues = counterValuesOf(c)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, m)...)
}

// counterValuesOf is a reading in the data sources' form.
func counterValuesOf(c driver.InterfaceCounters) counterValues {
	var v counterValues
	v.PFCRxPause, v.PFCTxPause = prioMap(c.PFCRxPause), prioMap(c.PFCTxPause)
	v.ECNMarked, v.Dropped = num(c.ECNMarked), num(c.Dropped)
	v.CNPSent, v.CNPHandled, v.OutOfSequence = num(c.CNPSent), num(c.CNPHandled), num(c.OutOfSequence)
	retrans := func(name string) types.Float64 {
		if x, ok := c.Retransmit[name]; ok {
			return types.Float64Value(x)
		}
		return types.Float64Null()
	}
	v.PacketSeqErr, v.ImpliedNakSeqErr = retrans("packet_seq_err"), retrans("implied_nak_seq_err")
	v.LocalAckTimeoutErr, v.DuplicateRequest = retrans("local_ack_timeout_err"), retrans("duplicate_request")
	v.RoCEAdpRetrans, v.RoCETxPackets = retrans("roce_adp_retrans"), num(c.RoCETxPackets)
	v.RetransmitPercent = num(c.RetransmitPercent())
	v.QueueECNMarked, v.QueueDropped = prioMap(c.QueueECNMarked), prioMap(c.QueueDropped)
	v.QueueWatermarkBytes = prioMap(c.QueueWatermarkBytes)
	v.PGHeadroomWatermarkBytes, v.PGSharedWatermarkBytes = prioMap(c.PGHeadroomWatermarkBytes), prioMap(c.PGSharedWatermarkBytes)
	v.PFCWatchdogDetected, v.PFCWatchdogRestored = num(c.PFCWatchdogDetected), num(c.PFCWatchdogRestored)
	v.BufferPoolBytes, v.BufferUtilization = num(c.BufferPoolBytes), num(c.BufferUtilizationPercent)
	return v
}

func prioMap(m map[int]float64) types.Map {
	if m == nil {
		return types.MapNull(types.Float64Type)
	}
	els := map[string]attr.Value{}
	for p, v := range m {
		els[strconv.Itoa(p)] = types.Float64Value(v)
	}
	return types.MapValueMust(types.Float64Type, els)
}

func num(v *float64) types.Float64 {
	if v == nil {
		return types.Float64Null()
	}
	return types.Float64Value(*v)
}
