package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

var (
	_ datasource.DataSourceWithConfigure = (*lldpNeighborsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*fabricLinksDataSource)(nil)
)

// dataSourceName is a data source's type name (roce_...), which its Metadata gives.
type dataSourceName string

func (n dataSourceName) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(string(n), "roce")
}

// configuredData is the name and the Configure of the data sources that read devices.
type configuredData struct {
	dataSourceName
	pd *providerData
}

func (c *configuredData) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	c.pd = providerDataOf(req.ProviderData, &resp.Diagnostics)
}

// begin starts the Read of a data source that reads devices: the configuration into m, and
// the context prepared for the transports' logs. It is false, with the error, when the
// configuration cannot be read or the provider's devices are not known yet.
func (c *configuredData) begin(ctx context.Context, config tfsdk.Config, m any, diags *diag.Diagnostics) (context.Context, bool) {
	diags.Append(config.Get(ctx, m)...)
	if diags.HasError() {
		return ctx, false
	}
	if c.pd == nil || !c.pd.known {
		diags.AddError("Provider not configured", string(c.dataSourceName)+" needs the provider's devices to be known.")
		return ctx, false
	}
	return withTransportLogs(ctx), true
}

// devicesToRead is the devices input of a data source that reads the fabric (readDevices):
// unset, every device whose platform is able (what it is able to).
func devicesToRead(able string) schema.SetAttribute {
	return schema.SetAttribute{Optional: true, ElementType: types.StringType,
		MarkdownDescription: "The devices to read (names in the provider's `devices`); default: every device whose platform " + able + "."}
}

// stringCollection is a list or set of device names.
type stringCollection interface {
	IsNull() bool
	ElementsAs(ctx context.Context, target any, allowUnhandled bool) diag.Diagnostics
}

// readDevices reads the devices a data source names in listed (sorted), else all of the
// registry's that all picks, each with read, in parallel: a fabric's reads cost one device's
// latency, not the sum. Each failure is an error on `devices`, summarised by cannot (a format
// of the device name); false when any read failed.
func readDevices[T any](ctx context.Context, c *configuredData, listed stringCollection, all func(*devices.Registry) []string,
	read func(name string) (T, error), cannot string, diags *diag.Diagnostics) ([]T, bool) {
	var names []string
	if listed.IsNull() {
		names = all(c.pd.registry)
	} else {
		diags.Append(listed.ElementsAs(ctx, &names, false)...)
		slices.Sort(names)
	}
	reads := make([]T, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() { reads[i], errs[i] = read(name) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			diags.AddAttributeError(path.Root("devices"), fmt.Sprintf(cannot, names[i]), err.Error())
		}
	}
	return reads, !diags.HasError()
}

var neighborAttrTypes = map[string]attr.Type{
	"interface": types.StringType, "remote_system_name": types.StringType, "remote_chassis_id": types.StringType,
	"remote_port_id": types.StringType, "remote_port_description": types.StringType,
}

var linkAttrTypes = map[string]attr.Type{
	"a_device": types.StringType, "a_interface": types.StringType, "b_device": types.StringType, "b_interface": types.StringType,
}

func neighborAttrs() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"interface":               computedString("The local interface the neighbour is heard on."),
		"remote_system_name":      computedString("The neighbour's system name (its hostname); empty when it advertises none."),
		"remote_chassis_id":       computedString("The neighbour's chassis ID (usually a MAC address)."),
		"remote_port_id":          computedString("The neighbour's port ID: an interface name on switches, an interface name or MAC address on hosts (lldpd)."),
		"remote_port_description": computedString("The neighbour's port description; empty when it advertises none."),
	}
}

// linkAttrs is a link's schema: computed in roce_fabric_links, an input of roce_fabric_check.
func linkAttrs(computed bool) map[string]schema.Attribute {
	s := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: computed, Required: !computed, MarkdownDescription: desc}
	}
	return map[string]schema.Attribute{
		"a_device":    s("Device name (a key of the provider's `devices`) at one end."),
		"a_interface": s("Its interface."),
		"b_device":    s("Device name at the other end."),
		"b_interface": s("Its interface."),
	}
}

// linkElem is an element of a links input (linkAttrs), as roce_fabric_check and
// roce_fabric_audit take it.
type linkElem struct {
	ADevice    types.String `tfsdk:"a_device"`
	AInterface types.String `tfsdk:"a_interface"`
	BDevice    types.String `tfsdk:"b_device"`
	BInterface types.String `tfsdk:"b_interface"`
}

// linksOf are the cables of a links input.
func linksOf(ctx context.Context, list types.List, diags *diag.Diagnostics) []fabric.Link {
	var elems []linkElem
	diags.Append(list.ElementsAs(ctx, &elems, true)...)
	var links []fabric.Link
	for _, l := range elems {
		links = append(links, fabric.Link{ADevice: l.ADevice.ValueString(), AInterface: l.AInterface.ValueString(),
			BDevice: l.BDevice.ValueString(), BInterface: l.BInterface.ValueString()})
	}
	return links
}

func neighborValue(n fabric.Neighbor) attr.Value {
	return types.ObjectValueMust(neighborAttrTypes, neighborVals(n))
}

func neighborVals(n fabric.Neighbor) map[string]attr.Value {
	return map[string]attr.Value{
		"interface": types.StringValue(n.Interface), "remote_system_name": types.StringValue(n.SystemName),
		"remote_chassis_id": types.StringValue(n.ChassisID), "remote_port_id": types.StringValue(n.PortID),
		"remote_port_description": types.StringValue(n.PortDescription),
	}
}

// lldpNeighborsDataSource reads one device's LLDP neighbours.
type lldpNeighborsDataSource struct{ configuredData }

func newLLDPNeighborsDataSource() datasource.DataSource {
	return &lldpNeighborsDataSource{configuredData{dataSourceName: "roce_lldp_neighbors"}}
}

type lldpNeighborsModel struct {
	Device     types.String `tfsdk:"device"`
	Interfaces types.Set    `tfsdk:"interfaces"`
	Hostname   types.String `tfsdk:"hostname"`
	Neighbors  types.List   `tfsdk:"neighbors"`
}

func (d *lldpNeighborsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The LLDP neighbours a device hears, from the platform's own LLDP table: `show lldp neighbors detail` on EOS (JSON) and NX-OS, APPL_DB `LLDP_ENTRY_TABLE` on SONiC, openconfig-lldp state on OpenConfig switches, NVUE's operational interface object on Cumulus, lldpd (`lldpcli -f json0`) on hosts. One read per device per Terraform run, shared with `roce_fabric_links`.",
		Attributes: map[string]schema.Attribute{
			"device": schema.StringAttribute{Required: true, MarkdownDescription: "Device name in the provider's `devices` map."},
			"interfaces": schema.SetAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Only the neighbours heard on these interfaces (default: all)."},
			"hostname": computedString("The name the device gives itself (what its neighbours see as system name), or the device's configured `hostname`."),
			"neighbors": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "One element per neighbour, sorted by local interface.",
				NestedObject:        schema.NestedAttributeObject{Attributes: neighborAttrs()}},
		},
	}
}

func (d *lldpNeighborsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m lldpNeighborsModel
	ctx, ok := d.begin(ctx, req.Config, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	var only []string
	if !m.Interfaces.IsNull() {
		resp.Diagnostics.Append(m.Interfaces.ElementsAs(ctx, &only, false)...)
	}
	device := m.Device.ValueString()
	got, err := driver.LLDPNeighbors(ctx, d.pd.registry, device)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), fmt.Sprintf("Cannot read the LLDP neighbours of %q", device), err.Error())
		return
	}
	vals := []attr.Value{}
	for _, n := range got.Neighbors {
		if only == nil || slices.Contains(only, n.Interface) {
			vals = append(vals, neighborValue(n))
		}
	}
	m.Hostname = types.StringValue(got.Hostname)
	m.Neighbors = types.ListValueMust(types.ObjectType{AttrTypes: neighborAttrTypes}, vals)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, m)...)
}

// fabricLinksDataSource reads the neighbours of many devices and resolves them into links.
type fabricLinksDataSource struct{ configuredData }

func newFabricLinksDataSource() datasource.DataSource {
	return &fabricLinksDataSource{configuredData{dataSourceName: "roce_fabric_links"}}
}

type fabricLinksModel struct {
	Devices    types.Set  `tfsdk:"devices"`
	Links      types.List `tfsdk:"links"`
	Unresolved types.List `tfsdk:"unresolved"`
}

var unresolvedAttrTypes = func() map[string]attr.Type {
	m := map[string]attr.Type{"device": types.StringType, "reason": types.StringType}
	for k, v := range neighborAttrTypes {
		m[k] = v
	}
	return m
}()

func (d *fabricLinksDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	unresolved := neighborAttrs()
	unresolved["device"] = computedString("The device that hears the neighbour.")
	unresolved["reason"] = computedString("Why it is not a link.")
	resp.Schema = schema.Schema{
		MarkdownDescription: "The cabling between the provider's devices, from their LLDP neighbours: a neighbour whose system name is the hostname of a device read (its configured `hostname`, else what it reports) is a link. Pass `links` to `roce_fabric_check` to check every cable's two ends against each other.",
		Attributes: map[string]schema.Attribute{
			"devices": devicesToRead("has an LLDP read"),
			"links": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "One element per cable between two devices read, each once, ends ordered by device then interface.",
				NestedObject:        schema.NestedAttributeObject{Attributes: linkAttrs(true)}},
			"unresolved": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "Neighbours that are not a device read (another system, a device left out of `devices`, or a port that is not one of its interfaces), with the reason.",
				NestedObject:        schema.NestedAttributeObject{Attributes: unresolved}},
		},
	}
}

func (d *fabricLinksDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m fabricLinksModel
	ctx, ok := d.begin(ctx, req.Config, &m, &resp.Diagnostics)
	if !ok {
		return
	}
	reads, ok := readDevices(ctx, &d.configuredData, m.Devices, driver.LLDPDevices, func(name string) (fabric.DeviceNeighbors, error) {
		return driver.LLDPNeighbors(ctx, d.pd.registry, name)
	}, "Cannot read the LLDP neighbours of %q", &resp.Diagnostics)
	if !ok {
		return
	}
	links, unresolved := fabric.ResolveLinks(reads)
	lv := make([]attr.Value, 0, len(links))
	for _, l := range links {
		lv = append(lv, types.ObjectValueMust(linkAttrTypes, map[string]attr.Value{
			"a_device": types.StringValue(l.ADevice), "a_interface": types.StringValue(l.AInterface),
			"b_device": types.StringValue(l.BDevice), "b_interface": types.StringValue(l.BInterface),
		}))
	}
	uv := make([]attr.Value, 0, len(unresolved))
	for _, u := range unresolved {
		vals := neighborVals(u.Neighbor)
		vals["device"], vals["reason"] = types.StringValue(u.Device), types.StringValue(u.Reason)
		uv = append(uv, types.ObjectValueMust(unresolvedAttrTypes, vals))
	}
	m.Links = types.ListValueMust(types.ObjectType{AttrTypes: linkAttrTypes}, lv)
	m.Unresolved = types.ListValueMust(types.ObjectType{AttrTypes: unresolvedAttrTypes}, uv)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, m)...)
}
