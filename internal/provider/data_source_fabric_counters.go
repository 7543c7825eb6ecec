package provider

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
	"github.com/rocefabric/terraform-provider-roce/internal/watch"
)

var _ datasource.DataSourceWithConfigure = (*fabricCountersDataSource)(nil)

func newFabricCountersDataSource() datasource.DataSource {
	return &fabricCountersDataSource{configuredData{dataSourceName: "roce_fabric_counters"}}
}

// fabricCountersDataSource reads the counters of many devices' ports, one read per device (two
// with a sample window), and judges them against the golden metrics (package watch), so one
// check block can watch a whole fabric.
type fabricCountersDataSource struct{ configuredData }

type fabricCountersModel struct {
	Devices       types.Map     `tfsdk:"devices"`
	SampleSeconds types.Int64   `tfsdk:"sample_seconds"`
	MaxPause      types.Float64 `tfsdk:"max_pause_frames_per_second"`
	MaxRetransmit types.Float64 `tfsdk:"max_retransmit_percent"`
	MaxBuffer     types.Float64 `tfsdk:"max_buffer_utilization_percent"`
	Ports         types.Map     `tfsdk:"ports"`
	Findings      types.List    `tfsdk:"findings"`
	Healthy       types.Bool    `tfsdk:"healthy"`
}

type deviceSelection struct {
	Interfaces types.List `tfsdk:"interfaces"`
}

type fabricPort struct {
	deviceInterface
	counterValues
}

type findingModel struct {
	Device    types.String  `tfsdk:"device"`
	Interface types.String  `tfsdk:"interface"`
	Metric    types.String  `tfsdk:"metric"`
	Value     types.Float64 `tfsdk:"value"`
	Threshold types.Float64 `tfsdk:"threshold"`
	Message   types.String  `tfsdk:"message"`
}

// portAttributes are one port's in ports: its device and name, and the counters
// roce_interface_counters reads.
func portAttributes() map[string]schema.Attribute {
	attrs := counterAttributes()
	attrs["device"] = computedString("Device name.")
	attrs["interface"] = computedString("Switch port or host netdev.")
	return attrs
}

func findingAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"device":    computedString("Device name."),
		"interface": computedString("Switch port or host netdev."),
		"metric":    computedString("`pause_storm`, `retransmit`, `buffer_utilization` or `ecn_outside_lossless`."),
		"value":     schema.Float64Attribute{Computed: true, MarkdownDescription: "The figure over the threshold: pause frames per second, percent, queues in a watchdog storm, or ECN marks (per second with `sample_seconds`)."},
		"threshold": schema.Float64Attribute{Computed: true, MarkdownDescription: "The limit it crossed (0 for a watchdog storm and for ECN marks on a port without PFC)."},
		"message":   computedString("One line naming the device, the port, the figure and the limit."),
	}
}

// objectType is the type of an object with these attributes.
func objectType(attrs map[string]schema.Attribute) types.ObjectType {
	types_ := make(map[string]attr.Type, len(attrs))
	for name, a := range attrs {
		types_[name] = a.GetType()
	}
	return types.ObjectType{AttrTypes: types_}
}

func (d *fabricCountersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	limit := func(desc string, upper float64) schema.Float64Attribute {
		return schema.Float64Attribute{Optional: true, Computed: true, MarkdownDescription: desc,
			Validators: []validator.Float64{float64validator.Between(0, upper)}}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The RoCE counters of every port and NIC of a fabric, read with one request per device (two with `sample_seconds`), judged against the golden metrics of a RoCE fabric: ports in a PFC pause storm, hosts retransmitting more than `max_retransmit_percent` of what they send, switch buffers fuller than `max_buffer_utilization_percent`, and ECN marks on ports that keep nothing lossless. `findings` lists each port over a limit with a message naming it, so one `check` block watches the whole fabric. The counters of each port are those of `roce_interface_counters` (the same names, null where the platform has none).",
		Attributes: map[string]schema.Attribute{
			"devices": schema.MapNestedAttribute{Required: true,
				MarkdownDescription: "The devices to read, by name in the provider's `devices` map.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"interfaces": schema.ListAttribute{Optional: true, ElementType: types.StringType,
						MarkdownDescription: "Switch ports or host netdevs to read; omitted, every port the device has: a switch's front-panel ports, a host's RDMA netdevs (not VFs, representors or IPoIB).",
						Validators:          []validator.List{listvalidator.SizeAtLeast(1), listvalidator.UniqueValues(), listvalidator.ValueStringsAre(interfaceName())}},
				}}},
			"sample_seconds": schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.Between(1, 300)},
				MarkdownDescription: "Read every device twice this many seconds apart (1-300): the counters are per-second rates over the window, pause storms are also judged by pause frames per second, and retransmit rates and ECN marks are the window's."},
			"max_pause_frames_per_second":    limit(fmt.Sprintf("PFC pause frames a port may send or receive per second on one priority, judged with `sample_seconds` only. Default %g: a full pause quantum lasts 335 us at 100 Gb/s, so 1,000 frames a second hold a sender paused about a third of the time.", watch.Defaults.MaxPauseFramesPerSecond), 1e9),
			"max_retransmit_percent":         limit(fmt.Sprintf("A host port's retransmissions per RDMA packet sent, in percent. Default %g (the golden metric's figure).", watch.Defaults.MaxRetransmitPercent), 100),
			"max_buffer_utilization_percent": limit(fmt.Sprintf("A switch port's highest lossless queue watermark as a percentage of its buffer pool. Default %g (the golden metric's alarm).", watch.Defaults.MaxBufferUtilizationPercent), 100),
			"ports": schema.MapNestedAttribute{Computed: true,
				MarkdownDescription: "Every port read, keyed `\"<device>/<interface>\"`.",
				NestedObject:        schema.NestedAttributeObject{Attributes: portAttributes()}},
			"findings": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "Each port over a limit, by device and port: a PFC watchdog that holds a queue in a storm now or (with `sample_seconds`) pause frames above `max_pause_frames_per_second` (`pause_storm`), `retransmit`, `buffer_utilization`, and ECN marks on a port that keeps no priority lossless (`ecn_outside_lossless`, where the platform tells which are: SONiC).",
				NestedObject:        schema.NestedAttributeObject{Attributes: findingAttributes()}},
			"healthy": computedBool("True when there are no findings."),
		},
	}
}

// deviceRead is one device's ports read once or twice.
type deviceRead struct {
	drv   driver.Counters
	ports []string
	first map[string]driver.InterfaceCounters
	last  map[string]driver.InterfaceCounters
	err   error
}

func (d *fabricCountersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m fabricCountersModel
	ctx, ok := d.begin(ctx, req.Config, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	t := watch.Defaults
	for _, l := range []struct {
		v   *types.Float64
		dst *float64
	}{{&m.MaxPause, &t.MaxPauseFramesPerSecond}, {&m.MaxRetransmit, &t.MaxRetransmitPercent}, {&m.MaxBuffer, &t.MaxBufferUtilizationPercent}} {
		if l.v.IsNull() || l.v.IsUnknown() {
			*l.v = types.Float64Value(*l.dst)
		} else {
			*l.dst = l.v.ValueFloat64()
		}
	}
	var sel map[string]deviceSelection
	resp.Diagnostics.Append(m.Devices.ElementsAs(ctx, &sel, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	reads := make(map[string]*deviceRead, len(sel))
	for name, s := range sel {
		r := &deviceRead{}
		if !s.Interfaces.IsNull() {
			resp.Diagnostics.Append(s.Interfaces.ElementsAs(ctx, &r.ports, false)...)
		}
		drv, err := driver.ForCounters(d.pd.registry, name)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("devices").AtMapKey(name), "Cannot read counters", err.Error())
			continue
		}
		r.drv, reads[name] = drv, r
	}
	if resp.Diagnostics.HasError() {
		return
	}
	// Every device at once, each read once; then, with a window, once more after it.
	readAll := func(into func(*deviceRead) *map[string]driver.InterfaceCounters) {
		var wg sync.WaitGroup
		for _, r := range reads {
			if r.err != nil {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				*into(r), r.err = r.drv.Counters(ctx, r.ports)
			}()
		}
		wg.Wait()
	}
	readAll(func(r *deviceRead) *map[string]driver.InterfaceCounters { return &r.first })
	window := time.Duration(0)
	if !m.SampleSeconds.IsNull() {
		window = time.Duration(m.SampleSeconds.ValueInt64()) * time.Second
		select {
		case <-ctx.Done():
			resp.Diagnostics.AddError("Counters not read", "Cancelled during the sample window: "+ctx.Err().Error())
			return
		case <-time.After(window):
		}
		readAll(func(r *deviceRead) *map[string]driver.InterfaceCounters { return &r.last })
	}
	names := make([]string, 0, len(reads))
	for name := range reads {
		names = append(names, name)
	}
	sort.Strings(names)
	ports := map[string]fabricPort{}
	var findings []watch.Finding
	for _, name := range names {
		r := reads[name]
		if r.err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("devices").AtMapKey(name), fmt.Sprintf("Cannot read the counters of device %q", name), r.err.Error())
			continue
		}
		for port, first := range r.first {
			now, rates := first, (*driver.InterfaceCounters)(nil)
			if window > 0 {
				last, ok := r.last[port]
				if !ok {
					resp.Diagnostics.AddAttributeError(path.Root("devices").AtMapKey(name), fmt.Sprintf("Cannot read the counters of device %q", name),
						fmt.Sprintf("port %q was gone at the end of the sample window", port))
					continue
				}
				rate := last.RatesSince(first, window)
				now, rates = last, &rate
			}
			shown := now
			if rates != nil {
				shown = *rates
			}
			ports[name+"/"+port] = fabricPort{deviceInterfaceOf(name, port), counterValuesOf(shown)}
			findings = append(findings, watch.Port(name, port, now, rates, t)...)
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	watch.Sort(findings)
	fs := make([]findingModel, len(findings))
	for i, f := range findings {
		fs[i] = findingModel{Device: types.StringValue(f.Device), Interface: types.StringValue(f.Interface), Metric: types.StringValue(string(f.Metric)),
			Value: types.Float64Value(f.Value), Threshold: types.Float64Value(f.Threshold), Message: types.StringValue(f.Message)}
	}
	var diags diag.Diagnostics
	m.Ports, diags = types.MapValueFrom(ctx, objectType(portAttributes()), ports)
	resp.Diagnostics.Append(diags...)
	m.Findings, diags = types.ListValueFrom(ctx, objectType(findingAttributes()), fs)
	resp.Diagnostics.Append(diags...)
	m.Healthy = types.BoolValue(len(findings) == 0)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, m)...)
}
