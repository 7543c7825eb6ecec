package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

var (
	_ datasource.DataSourceWithConfigure      = (*perftestDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*perftestDataSource)(nil)
)

func newPerftestDataSource() datasource.DataSource {
	return &perftestDataSource{configuredData{dataSourceName: "roce_perftest"}}
}

// perftestDataSource measures a path between two hosts with perftest (DESIGN.md,
// "roce_perftest"): the figures a latency or bandwidth check asserts on.
type perftestDataSource struct{ configuredData }

type perftestModel struct {
	Server       types.Object `tfsdk:"server"`
	Client       types.Object `tfsdk:"client"`
	Test         types.String `tfsdk:"test"`
	Size         types.Int64  `tfsdk:"size"`
	Duration     types.Int64  `tfsdk:"duration"`
	Iterations   types.Int64  `tfsdk:"iterations"`
	GIDIndex     types.Int64  `tfsdk:"gid_index"`
	TrafficClass types.Int64  `tfsdk:"traffic_class"`
	Port         types.Int64  `tfsdk:"port"`
	ReportGbits  types.Bool   `tfsdk:"report_gbits"`

	ServerRDMA    types.String  `tfsdk:"server_rdma_device"`
	ClientRDMA    types.String  `tfsdk:"client_rdma_device"`
	Bytes         types.Int64   `tfsdk:"bytes"`
	Iters         types.Int64   `tfsdk:"iterations_run"`
	BWPeakGbps    types.Float64 `tfsdk:"bw_peak_gbps"`
	BWAverageGbps types.Float64 `tfsdk:"bw_average_gbps"`
	MsgRateMpps   types.Float64 `tfsdk:"msg_rate_mpps"`
	TMin          types.Float64 `tfsdk:"t_min_us"`
	TMax          types.Float64 `tfsdk:"t_max_us"`
	TTypical      types.Float64 `tfsdk:"t_typical_us"`
	TAvg          types.Float64 `tfsdk:"t_avg_us"`
	TStdev        types.Float64 `tfsdk:"t_stdev_us"`
	P99           types.Float64 `tfsdk:"p99_us"`
	P999          types.Float64 `tfsdk:"p99_9_us"`
}

func perftestTestNames() []string {
	names := make([]string, len(driver.PerftestTests))
	for i, t := range driver.PerftestTests {
		names[i] = string(t)
	}
	return names
}

func (d *perftestDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	end := func(desc string) schema.SingleNestedAttribute {
		return schema.SingleNestedAttribute{Required: true, MarkdownDescription: desc,
			Attributes: map[string]schema.Attribute{
				"device": schema.StringAttribute{Required: true, MarkdownDescription: "Host name in the provider's `devices` map (platform `mlx5`)."},
				"interface": schema.StringAttribute{Required: true,
					MarkdownDescription: "The RoCE netdev (`eth0`); its RDMA device (`mlx5_0`) is looked up on the host.",
					Validators: []validator.String{stringvalidator.LengthAtMost(64), stringvalidator.RegexMatches(fabric.InterfacePattern,
						"must be a netdev name: letters, digits, '/', '_', '.', ':' and '-', starting with a letter or digit")}},
			}}
	}
	lat := func(desc string) schema.Float64Attribute {
		return computedFloat(desc + " In microseconds; latency tests only (null for bandwidth tests).")
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Measures the path between two NIC hosts with perftest (linux-rdma/perftest: `ib_write_bw`, `ib_send_bw`, `ib_write_lat`, `ib_send_lat`): starts the server side on `server` in the background over SSH, runs the client on `client` against it (retried while the server is not listening yet), and returns the client's figures. The server is killed and its log removed on every way out (success, failure, timeout). The client reaches the server at the host part of the server's `address`. The run is bounded by the two hosts' `timeout`s plus `duration`. Every read runs the test again: figures change from plan to plan, so use them in `check` blocks or postconditions, not in resources.",
		Attributes: map[string]schema.Attribute{
			"server": end("The side that waits for the client (perftest without a server address)."),
			"client": end("The side that connects to the server and whose figures are returned."),
			"test": schema.StringAttribute{Required: true,
				MarkdownDescription: "One of `" + strings.Join(perftestTestNames(), "`, `") + "`: RDMA write or send, bandwidth or latency.",
				Validators:          []validator.String{stringvalidator.OneOf(perftestTestNames()...)}},
			"size": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Message size in bytes (`-s`); perftest's default is 65536 for bandwidth tests and 2 for latency tests.",
				Validators:          []validator.Int64{int64validator.Between(1, driver.PerftestMaxSize)}},
			"duration": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Run for this many seconds (`-D`) instead of a number of iterations; bandwidth tests only. perftest does not measure the peak bandwidth then (`bw_peak_gbps` is null).",
				Validators:          []validator.Int64{int64validator.Between(1, 3600), int64validator.ConflictsWith(path.MatchRoot("iterations"))}},
			"iterations": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Number of messages (`-n`); perftest's default is 5000 for bandwidth tests and 1000 for latency tests. perftest refuses fewer than 5, and its 4.5-0.17 release (Debian 12) more than 100,000,000.",
				Validators:          []validator.Int64{int64validator.Between(driver.PerftestMinIterations, driver.PerftestMaxIterations)}},
			"gid_index": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "The GID index (`-x`) that selects the RoCE v2 GID of the netdev's address (often 3; `show_gids` lists them). Unset, perftest chooses.",
				Validators:          []validator.Int64{int64validator.Between(0, driver.PerftestMaxGIDIndex)}},
			"traffic_class": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "IP traffic class of the test's packets (`--tclass`): DSCP x 4, so `106` is DSCP 26 with ECN capable and `12` is DSCP 3. Unset, the NIC's default (`roce_nic_qos.roce_tos` where set). It decides the priority the packets take, so it must be the DSCP the path is lossless for.",
				Validators:          []validator.Int64{int64validator.Between(0, 255)}},
			"port": schema.Int64Attribute{Optional: true,
				MarkdownDescription: fmt.Sprintf("perftest's TCP port for exchanging connection data (`-p`, default %d) on the server. One server listens on a port at a time: data sources that can run in parallel (Terraform reads independent data sources concurrently) need distinct ports if they share a server host.", driver.PerftestDefaultPort),
				Validators:          []validator.Int64{int64validator.Between(1, 65535)}},
			"report_gbits": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Run bandwidth tests with `--report_gbits` (default `true`). With `false` perftest prints MiB/s, which the provider converts: the figures are Gb/s either way, but two decimals of MiB/s resolve rates a hundred times smaller. Bandwidth tests only."},
			"server_rdma_device": computedString("The server netdev's RDMA device the test ran on."),
			"client_rdma_device": computedString("The client netdev's RDMA device."),
			"bytes":              computedInt("Message size of the reported row (`#bytes`)."),
			"iterations_run":     computedInt("Iterations of the reported row (`#iterations`)."),
			"bw_peak_gbps":       computedFloat("Peak bandwidth in Gb/s (10^9 bits per second); bandwidth tests only. Null where perftest does not measure it (a run by `duration`, more than 20000 iterations): it prints 0.00."),
			"bw_average_gbps":    computedFloat("Average bandwidth in Gb/s; bandwidth tests only."),
			"msg_rate_mpps":      computedFloat("Message rate in millions of messages per second; bandwidth tests only."),
			"t_min_us":           lat("Lowest latency."),
			"t_max_us":           lat("Highest latency."),
			"t_typical_us":       lat("Typical (median) latency."),
			"t_avg_us":           lat("Average latency."),
			"t_stdev_us":         lat("Standard deviation of the latency."),
			"p99_us":             lat("99th percentile latency: the end-to-end golden metric (keep under 200)."),
			"p99_9_us":           lat("99.9th percentile latency."),
		},
	}
}

// objectAsOptions reads a nested object into its model; unknown fields stay unknown.
var objectAsOptions = basetypes.ObjectAsOptions{}

// ValidateConfig refuses what perftest would not run, on the attribute at fault, before any
// host is touched; and, when the provider knows its devices, an end that is not a host.
func (d *perftestDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m perftestModel
	resp.Diagnostics.Append(tfmodel.Config(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !m.Test.IsNull() && !m.Test.IsUnknown() && driver.PerftestTest(m.Test.ValueString()).Latency() {
		for name, v := range map[string]attr.Value{"duration": m.Duration, "report_gbits": m.ReportGbits} {
			if !v.IsNull() {
				resp.Diagnostics.AddAttributeError(path.Root(name), "Invalid "+name,
					fmt.Sprintf("%s applies to the bandwidth tests (write_bw, send_bw), not to %s.", name, m.Test.ValueString()))
			}
		}
	}
	if d.pd == nil || !d.pd.known {
		return
	}
	for side, obj := range map[string]types.Object{"server": m.Server, "client": m.Client} {
		var e deviceInterface // an end: a host and its netdev
		if obj.IsNull() || obj.IsUnknown() {
			continue
		}
		resp.Diagnostics.Append(obj.As(ctx, &e, objectAsOptions)...)
		if e.Device.IsNull() || e.Device.IsUnknown() {
			continue
		}
		at := path.Root(side).AtName("device")
		dev, ok := d.pd.registry.Device(e.Device.ValueString())
		if !ok {
			resp.Diagnostics.AddAttributeError(at, "Unknown device", side+": "+d.pd.registry.UnknownDeviceDetail(e.Device.ValueString()))
			continue
		}
		if err := driver.CheckPerftestHost(dev); err != nil {
			resp.Diagnostics.AddAttributeError(at, "Platform does not run perftest", side+": "+err.Error())
		}
	}
}

func (d *perftestDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m perftestModel
	ctx, ok := d.begin(ctx, req.Config, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	var server, client deviceInterface
	resp.Diagnostics.Append(m.Server.As(ctx, &server, objectAsOptions)...)
	resp.Diagnostics.Append(m.Client.As(ctx, &client, objectAsOptions)...)
	if resp.Diagnostics.HasError() {
		return
	}
	opt := func(v types.Int64) *int {
		if v.IsNull() {
			return nil
		}
		i := int(v.ValueInt64())
		return &i
	}
	zero := func(v types.Int64) int { return int(v.ValueInt64()) } // null is 0: perftest's default
	rq := driver.PerftestRequest{
		Server: driver.PerftestEnd{Device: server.Device.ValueString(), Interface: server.Interface.ValueString()},
		Client: driver.PerftestEnd{Device: client.Device.ValueString(), Interface: client.Interface.ValueString()},
		Options: driver.PerftestOptions{Test: driver.PerftestTest(m.Test.ValueString()), GIDIndex: opt(m.GIDIndex),
			TrafficClass: opt(m.TrafficClass), Size: zero(m.Size), Iterations: zero(m.Iterations), Duration: zero(m.Duration),
			Port: zero(m.Port), MiB: !m.ReportGbits.IsNull() && !m.ReportGbits.ValueBool()},
	}
	res, err := driver.RunPerftest(ctx, d.pd.registry, rq)
	if err != nil {
		resp.Diagnostics.AddError(fmt.Sprintf("perftest %s from %s %s to %s %s failed", rq.Options.Test,
			rq.Client.Device, rq.Client.Interface, rq.Server.Device, rq.Server.Interface), err.Error())
		return
	}
	m.ServerRDMA, m.ClientRDMA = types.StringValue(res.ServerRDMA), types.StringValue(res.ClientRDMA)
	nullF := types.Float64Null()
	m.BWPeakGbps, m.BWAverageGbps, m.MsgRateMpps = nullF, nullF, nullF
	m.TMin, m.TMax, m.TTypical, m.TAvg, m.TStdev, m.P99, m.P999 = nullF, nullF, nullF, nullF, nullF, nullF, nullF
	f := types.Float64Value
	switch {
	case res.BW != nil:
		b := res.BW
		m.Bytes, m.Iters = types.Int64Value(b.Bytes), types.Int64Value(b.Iterations)
		if b.PeakMeasured {
			m.BWPeakGbps = f(b.PeakGbps)
		}
		m.BWAverageGbps, m.MsgRateMpps = f(b.AverageGbps), f(b.MsgRateMpps)
	case res.Latency != nil:
		l := res.Latency
		m.Bytes, m.Iters = types.Int64Value(l.Bytes), types.Int64Value(l.Iterations)
		m.TMin, m.TMax, m.TTypical, m.TAvg, m.TStdev = f(l.Min), f(l.Max), f(l.Typical), f(l.Avg), f(l.Stdev)
		m.P99, m.P999 = f(l.P99), f(l.P999)
	}
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, m)...)
}
