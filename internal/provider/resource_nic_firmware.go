package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

func newNICFirmwareResource() resource.Resource { return &nicFirmwareResource{} }

// nicFirmwareResource is roce_nic_firmware: glue over driver.Firmware.
type nicFirmwareResource struct{ deviceResource }

type nicFirmwareModel struct {
	ID types.String `tfsdk:"id"`
	deviceInterface
	Parameters    types.Map    `tfsdk:"parameters"`
	Current       types.Map    `tfsdk:"current"`
	PendingReboot types.Bool   `tfsdk:"pending_reboot"`
	Tool          types.String `tfsdk:"tool"`
}

func (r *nicFirmwareResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_nic_firmware"
}

func (r *nicFirmwareResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := hostIdentity("adapter's firmware configuration (found through the netdev's RDMA device)")
	attrs["parameters"] = schema.MapAttribute{Required: true, ElementType: types.StringType,
		MarkdownDescription: "Non-volatile configuration parameters (`mlxconfig`/`mstconfig` names) to their Next Boot values, e.g. " +
			"`LINK_TYPE_P1 = \"ETH(2)\"` (or `\"2\"`, `\"ETH\"`), `ROCE_CC_PRIO_MASK_P1 = \"8\"`, `CNP_DSCP_P1 = \"48\"`, `CNP_802P_PRIO_P1 = \"6\"`. " +
			"Names must be ones the device's query lists (a plan-time error otherwise). Values are compared by number (or enum name).",
		Validators: []validator.Map{
			mapvalidator.SizeAtLeast(1),
			mapvalidator.KeysAre(stringvalidator.RegexMatches(driver.FirmwareName, "must be an mlxconfig parameter name: upper-case letters, digits and _")),
			mapvalidator.ValueStringsAre(stringvalidator.RegexMatches(driver.FirmwareValue,
				"must be a value as mlxconfig prints or takes it: a number (decimal or 0x hex), an enum name, or NAME(n)")),
		}}
	attrs["current"] = schema.MapAttribute{Computed: true, ElementType: types.StringType,
		MarkdownDescription: "The managed parameters' values in the running firmware, as the tool prints them (`ETH(2)`, `255`). They change only when the firmware reloads."}
	attrs["pending_reboot"] = schema.BoolAttribute{Computed: true,
		MarkdownDescription: "A managed Next Boot value differs from the running firmware's: the host needs a cold reboot (or `mlxfwreset`) to load it. The provider never reboots a host."}
	attrs["tool"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "The tool the host has and the provider uses: `mlxconfig` (NVIDIA MFT) or `mstconfig` (mstflint).",
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Non-volatile firmware configuration of an NVIDIA ConnectX adapter (the NV parameters `mlxconfig` sets), through one of its netdevs on an mlx5 host: link type, the firmware's DCQCN defaults (`ROCE_CC_PRIO_MASK_P1`, `CNP_DSCP_P1`, `CNP_802P_PRIO_P1`, `RPG_*_P1`, `DCE_TCP_*_P1`, `MIN_TIME_BETWEEN_CNPS_P1`), `LLDP_NB_DCBX_P1` and the like. A change takes effect at the next cold reboot or firmware reset, which the provider never does: `pending_reboot` and a plan warning say one is due. Destroy sets the managed parameters back to the values read before create.",
		Attributes:          attrs,
	}
}

func (r *nicFirmwareResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	ctx = withTransportLogs(ctx) // it reads devices
	var st nicFirmwareModel
	plan, ok := beginModifyPlan[nicFirmwareModel](ctx, &r.deviceResource, req, resp, &st)
	if !ok {
		return
	}
	if !plan.Device.IsUnknown() && !plan.Interface.IsUnknown() {
		setID(ctx, resp, plan.ID, plan.Device.ValueString()+"/"+plan.Interface.ValueString())
	}
	dev, ok := r.plannedDevice(plan.Device, &resp.Diagnostics)
	if !ok || plan.Interface.IsUnknown() || !fullyKnown(plan.Parameters) {
		return
	}
	if probs := driver.CheckHostDevice(dev, "roce_nic_firmware"); len(probs) > 0 {
		addProblems(&resp.Diagnostics, probs)
		return
	}
	changed := req.State.Raw.IsNull() || !plan.Parameters.Equal(st.Parameters)
	if !changed {
		if st.PendingReboot.ValueBool() {
			resp.Diagnostics.AddWarning(fmt.Sprintf("Reboot pending on device %q", plan.Device.ValueString()),
				fmt.Sprintf("The firmware configuration of %s's adapter has Next Boot values the running firmware has not loaded (current: %s). A cold reboot or `mlxfwreset` of the host loads them; the provider never reboots a host.",
					plan.Interface.ValueString(), st.Current.String()))
		}
		return
	}
	values := stringMap(ctx, plan.Parameters, &resp.Diagnostics)
	fw, err := driver.ForFirmware(r.registry(), plan.Device.ValueString())
	var unknown map[string]string
	if err == nil {
		unknown, err = fw.Check(ctx, plan.Interface.ValueString(), driver.Names(values))
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("interface"), fmt.Sprintf("Cannot read the firmware configuration of %q on device %q", plan.Interface.ValueString(), plan.Device.ValueString()), err.Error())
		return
	}
	for _, name := range driver.Names(unknown) {
		resp.Diagnostics.AddAttributeError(path.Root("parameters").AtMapKey(name), "Unknown firmware parameter "+name, unknown[name])
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("current"), types.MapUnknown(types.StringType))...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("pending_reboot"), types.BoolUnknown())...)
	old := stringMap(ctx, st.Parameters, &resp.Diagnostics)
	writes := false
	for name, v := range values {
		if was, ok := old[name]; !ok || !driver.FirmwareEqual(v, was) {
			writes = true
		}
	}
	if !writes {
		return // only parameters leaving management (e.g. after an import): nothing is written
	}
	resp.Diagnostics.AddWarning(fmt.Sprintf("roce_nic_firmware on device %q needs a reboot to take effect", plan.Device.ValueString()),
		"The new values are written to the adapter's non-volatile configuration (Next Boot); the firmware loads them at the next cold reboot or firmware reset of the host, which the provider never does. pending_reboot says when one is due.")
}

func stringMap(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]string {
	out := map[string]string{}
	if m.IsNull() || m.IsUnknown() {
		return out
	}
	diags.Append(m.ElementsAs(ctx, &out, false)...)
	return out
}

func (r *nicFirmwareResource) state(device string, c *driver.FirmwareConfig) nicFirmwareModel {
	return nicFirmwareModel{
		ID: types.StringValue(device + "/" + c.Interface), deviceInterface: deviceInterfaceOf(device, c.Interface),
		Parameters: stringMapValue(c.Parameters), Current: stringMapValue(c.Current),
		PendingReboot: types.BoolValue(c.PendingReboot), Tool: types.StringValue(c.Tool),
	}
}

func stringMapValue(m map[string]string) types.Map {
	v, _ := types.MapValueFrom(context.Background(), types.StringType, m)
	return v
}

func (r *nicFirmwareResource) write(ctx context.Context, plan nicFirmwareModel, drop []string, prior driver.Prior, diags *diag.Diagnostics, op string) (*driver.FirmwareConfig, driver.Prior) {
	values := stringMap(ctx, plan.Parameters, diags)
	var c *driver.FirmwareConfig
	var next driver.Prior
	if !r.onFirmware(plan.deviceInterface, op, diags, func(fw *driver.Firmware, ifname string) (err error) {
		c, next, err = fw.Write(ctx, ifname, values, drop, prior)
		return err
	}) {
		return nil, nil
	}
	if c.PendingReboot {
		diags.AddWarning(fmt.Sprintf("Reboot pending on device %q", plan.Device.ValueString()),
			fmt.Sprintf("%s's adapter has the new values as Next Boot; a cold reboot or mlxfwreset of the host loads them (pending_reboot = true until then).", plan.Interface.ValueString()))
	}
	return c, next
}

func (r *nicFirmwareResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	ctx, plan, done := start[nicFirmwareModel](ctx, &r.deviceResource, "create", "roce_nic_firmware", planOf(req.Plan), &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	if !resp.Diagnostics.HasError() {
		r.apply(ctx, plan, nil, nil, "create", resp.Private, &resp.State, &resp.Diagnostics)
	}
}

// apply writes plan and records the new prior and state.
func (r *nicFirmwareResource) apply(ctx context.Context, plan nicFirmwareModel, drop []string, prior driver.Prior, op string,
	private privateSetter, state *tfsdk.State, diags *diag.Diagnostics) {
	c, next := r.write(ctx, plan, drop, prior, diags, op)
	if c == nil {
		return
	}
	recordWrite(ctx, private, next, state, r.state(plan.Device.ValueString(), c), diags)
}

func (r *nicFirmwareResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	ctx, st, done := startOnState[nicFirmwareModel](ctx, &r.deviceResource, "read", "roce_nic_firmware", req.State, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var managed map[string]string // nil on import: every parameter the device lists
	if !st.Parameters.IsNull() {
		managed = stringMap(ctx, st.Parameters, &resp.Diagnostics)
	}
	var c *driver.FirmwareConfig
	if r.onFirmware(st.deviceInterface, "read", &resp.Diagnostics, func(fw *driver.Firmware, ifname string) (err error) {
		c, err = fw.Read(ctx, ifname, managed)
		return err
	}) {
		resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, r.state(st.Device.ValueString(), c))...)
	}
}

func (r *nicFirmwareResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	ctx, plan, st, done := startUpdate[nicFirmwareModel](ctx, &r.deviceResource, "roce_nic_firmware", req, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	prior := priorOf(ctx, req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	want := stringMap(ctx, plan.Parameters, &resp.Diagnostics)
	var drop []string
	for name := range stringMap(ctx, st.Parameters, &resp.Diagnostics) {
		if _, ok := want[name]; !ok {
			drop = append(drop, name) // managed no more: back to its value from before create
		}
	}
	r.apply(ctx, plan, drop, prior, "update", resp.Private, &resp.State, &resp.Diagnostics)
}

func (r *nicFirmwareResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	ctx, st, done := startOnState[nicFirmwareModel](ctx, &r.deviceResource, "delete", "roce_nic_firmware", req.State, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	prior := priorOf(ctx, req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	r.onFirmware(st.deviceInterface, "restore", &resp.Diagnostics, func(fw *driver.Firmware, ifname string) error {
		return fw.Restore(ctx, ifname, prior)
	})
}

// onFirmware runs do on the firmware driver of the device of at, for its interface; a failure
// of either is the error "Cannot <op> the firmware configuration of <interface> on device
// <device>". It reports whether do ran and succeeded.
func (r *nicFirmwareResource) onFirmware(at deviceInterface, op string, diags *diag.Diagnostics, do func(fw *driver.Firmware, ifname string) error) bool {
	device, ifname := at.Device.ValueString(), at.Interface.ValueString()
	fw, err := driver.ForFirmware(r.registry(), device)
	if err == nil {
		err = do(fw, ifname)
	}
	if err != nil {
		diags.AddError(fmt.Sprintf("Cannot %s the firmware configuration of %q on device %q", op, ifname, device), err.Error())
	}
	return err == nil
}

// ImportState takes `<device>/<interface>`; the read then lists every parameter the device has
// with its Next Boot value. Parameters the configuration leaves out show as removals from state
// (they become unmanaged), which changes nothing on the adapter: an imported resource has no
// values from before to restore.
func (r *nicFirmwareResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	r.importDeviceID(ctx, req, resp, "interface", "gpu-1/eth0")
}
