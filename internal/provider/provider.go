// Package provider is the Terraform glue: schemas, models and CRUD that translate between
// Terraform values and the plain packages (fabric intent, platforms, device sessions).
package provider

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

var _ provider.Provider = (*roceProvider)(nil)

// New returns the provider factory used by main and by acceptance tests.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &roceProvider{version: version, getenv: os.Getenv} }
}

type roceProvider struct {
	version string
	getenv  func(string) string
}

// providerData is handed to every resource and data source.
type providerData struct {
	// known is false while the provider configuration holds unknown values (first plan of a
	// configuration whose devices come from other resources): plan-time device checks wait.
	known    bool
	registry *devices.Registry
	// claims are the interfaces the resources of this run plan to manage (portClaims).
	claims portClaims
}

func (p *roceProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "roce"
	resp.Version = p.version
}

func (p *roceProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Declarative RoCEv2 lossless QoS for switches (OpenConfig and SONiC over gNMI, Arista EOS and Cisco NX-OS over SSH CLI) and NVIDIA mlx5 NIC hosts (over SSH).",
		Attributes:          settingsSchema(),
	}
	resp.Schema.Attributes["devices"] = schema.MapNestedAttribute{Optional: true,
		MarkdownDescription: "The devices this provider manages, keyed by device name (letters, digits, `_`, `.`, `:`, `-`; no `/`).",
		Validators: []validator.Map{mapvalidator.KeysAre(stringvalidator.RegexMatches(devices.NamePattern,
			"must start with a letter or digit and hold only letters, digits, '_', '.', ':' and '-' (no '/')"))},
		NestedObject: schema.NestedAttributeObject{Attributes: deviceSchema()},
	}
}

// settingsSchema are the provider's settings of every device; a device overrides some of them
// (deviceSchema).
func settingsSchema() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"username":          optionalString("Default username for every device. Falls back to the `ROCE_USERNAME` environment variable."),
		"password":          sensitiveString("Default password for every device. Falls back to `ROCE_PASSWORD`."),
		"private_key":       sensitiveString("Default SSH private key (PEM/OpenSSH) for SSH devices. Falls back to `ROCE_PRIVATE_KEY`."),
		"known_hosts_file":  optionalString("known_hosts file against which SSH host keys are verified (default `~/.ssh/known_hosts`). A device's `host_key` pins its key instead."),
		"ca_certificate":    optionalString("PEM trust roots for TLS devices (gNMI, and NVUE on `cumulus`). The system roots are used when unset."),
		"insecure":          optionalBool("Skip TLS certificate verification of TLS devices (gNMI: `openconfig`, `sonic`; NVUE: `cumulus`). Default `false`; `true` produces a warning on every run. SSH devices have `insecure_host_key`."),
		"insecure_host_key": optionalBool("Skip SSH host-key verification of SSH devices (`eos`, `nxos`, `mlx5`). Default `false`; `true` produces a warning on every run. A separate flag from `insecure`, so turning off one check never turns off the other."),
		"timeout":           optionalString("Timeout of one device operation, as a Go duration. Default `30s`."),
		"retries": schema.Int64Attribute{Optional: true,
			MarkdownDescription: "Retries, with exponential backoff, of transient transport errors (gNMI: Unavailable, DeadlineExceeded, ResourceExhausted, Aborted; NVUE: a read that timed out, could not connect or got 502/503/504, and an apply whose answer was lost, sent again only once NVUE shows the revision still pending). A change the device rejects is never retried. Default `3`."},
		"per_resource_reads": optionalBool("Read each device once per Terraform run and serve every resource on it from that one read (`false`, the default), or make every resource read the device itself (`true`), for devices that cannot answer large reads. Either way one connection per device is shared. Can be set per device."),
	}
}

// deviceSchema is one device of `devices`: its own attributes, and the provider settings it
// overrides, which keep the setting's kind and sensitivity.
func deviceSchema() map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{
		"address": schema.StringAttribute{Required: true,
			MarkdownDescription: "`host:port` of the device's gNMI, NVUE (HTTPS, port 8765 on Cumulus Linux) or SSH endpoint."},
		"platform": schema.StringAttribute{Required: true,
			MarkdownDescription: "One of `" + strings.Join(devices.Platforms, "`, `") + "`. It chooses the transport: gNMI for `openconfig` and `sonic`, SSH CLI for `eos` and `nxos`, the NVUE REST API over HTTPS for `cumulus`, SSH for `mlx5` hosts.",
			Validators:          []validator.String{stringvalidator.OneOf(devices.Platforms...)}},
		"host_key":    optionalString("Pinned SSH host key in authorized_keys form (`ssh-ed25519 AAAA...`), checked instead of `known_hosts_file`."),
		"gnmi_target": optionalString("gNMI path target sent with every request (gNMI devices)."),
		"sudo":        optionalBool("mlx5 hosts: run privileged reads and writes through `sudo -n`."),
		"model": optionalString("The device's hardware model or SKU as the device names it (SONiC `hwsku`, such as `ACS-MSN2700` or `Arista-7060CX-32S-C32`; EOS `modelName`, such as `DCS-7060CX-32S`; NX-OS product ID, such as `N9K-C93180YC-FX`). The provider reads what it needs from the device itself (SONiC's buffer model, the EOS chip family that decides `tx-queue` or `uc-tx-queue`, the Nexus chassis); a model set here is checked at plan time (a Nexus 3000 is refused), stands in for an EOS model the provider does not know, and an EOS model of another family than the switch reports is an error before anything is written.",
			stringvalidator.LengthBetween(1, 128)),
		"hostname": optionalString("The name this device's LLDP neighbours see as its system name, for `roce_fabric_links`. Unset, the provider uses the name the device reports (SONiC `DEVICE_METADATA` hostname, `show hostname` on EOS and NX-OS, lldpd's chassis name on hosts, OpenConfig `/system/config/hostname`, else `/system/state/hostname`); set it where the device advertises another name.",
			stringvalidator.LengthBetween(1, 255)),
		"save_config": optionalBool("CLI switches (`eos`, `nxos`): after each committed change, save the running configuration to startup (`write memory`, `copy running-config startup-config`), so it survives a reload. Default `false`: changes are committed to the running configuration only."),
	}
	settings := settingsSchema()
	for _, o := range []struct{ name, scope string }{
		{"username", ""}, {"password", ""}, {"private_key", ""}, {"ca_certificate", ""},
		{"insecure", " (TLS devices only: an SSH device with it is a configuration error)"},
		{"insecure_host_key", " (SSH devices only: a TLS device with it is a configuration error)"},
		{"per_resource_reads", " for this device"},
	} {
		attrs[o.name] = override(settings[o.name], "Overrides the provider's `"+o.name+"`"+o.scope+".")
	}
	return attrs
}

// optionalString and optionalBool are optional settings of those kinds, most of the
// provider's and the devices'.
func optionalString(desc string, vs ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: desc, Validators: vs}
}

// sensitiveString is an optional setting Terraform hides (a credential).
func sensitiveString(desc string) schema.StringAttribute {
	a := optionalString(desc)
	a.Sensitive = true
	return a
}

func optionalBool(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{Optional: true, MarkdownDescription: desc}
}

// override is a device's attribute that overrides the provider setting a.
func override(a schema.Attribute, desc string) schema.Attribute {
	switch a := a.(type) {
	case schema.StringAttribute:
		o := optionalString(desc)
		o.Sensitive = a.Sensitive
		return o
	case schema.BoolAttribute:
		o := optionalBool(desc)
		o.Sensitive = a.Sensitive
		return o
	}
	panic(fmt.Sprintf("provider setting of kind %T has no device override", a))
}

func (p *roceProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(tfmodel.Config(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var devModels map[string]deviceModel
	if !m.Devices.IsUnknown() {
		var diags diag.Diagnostics
		devModels, diags = m.devices(ctx)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	if m.Devices.IsUnknown() || !m.known(devModels) {
		// Values from other resources are not known yet: resources plan without device
		// checks and Terraform configures the provider again before applying.
		pd := &providerData{known: false, registry: devices.NewRegistry(nil, nil)}
		resp.ResourceData, resp.DataSourceData = pd, pd
		return
	}
	settings, specs := m.toSettings(devModels)
	devs, probs := devices.Resolve(settings, specs, p.getenv)
	for _, pr := range probs {
		at := path.Root(pr.Attr)
		if pr.Device != "" {
			at = at.AtMapKey(pr.Device)
			if pr.Field != "" {
				at = at.AtName(pr.Field)
			}
		}
		resp.Diagnostics.AddAttributeError(at, pr.Summary, pr.Detail)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if insecure := devices.InsecureDevices(devs); len(insecure) > 0 {
		resp.Diagnostics.AddWarning("Device identity verification is off",
			fmt.Sprintf("insecure (TLS) or insecure_host_key (SSH) = true for %s: the provider does not verify these devices' identity, so anyone on the path can impersonate them and read their credentials. Set ca_certificate (gNMI) or host_key / known_hosts_file (SSH) and remove the flag.",
				strings.Join(insecure, ", ")))
	}
	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, secretFields...)
	tflog.Debug(ctx, "roce provider configured", map[string]any{"devices": len(devs)})
	pd := &providerData{known: true, registry: devices.NewRegistry(devs, tfLogger{subsystem: "gnmi"})}
	resp.ResourceData, resp.DataSourceData = pd, pd
}

func (p *roceProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{newQoSPolicyResource, newPFCInterfaceResource, newNICQoSResource, newDCQCNProfileResource, newNICFirmwareResource,
		newPFCInterfacesResource, newNICQoSInterfacesResource, newDCQCNInterfacesResource,
		newPFCInterfaceGroupResource, newNICQoSGroupResource, newDCQCNGroupResource}
}

func (p *roceProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{newProfileDataSource, newFabricCheckDataSource, newCountersDataSource, newFabricCountersDataSource,
		newLLDPNeighborsDataSource, newFabricLinksDataSource, newFabricAuditDataSource, newPerftestDataSource}
}

// Functions are provider-defined functions (Terraform 1.8+, OpenTofu 1.7+): provider::roce::<name>.
func (p *roceProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{newTOSFunction, newPFCVectorFunction}
}

// secretFields are the log fields whose values are masked wherever the provider logs.
var secretFields = []string{"password", "private_key"}

// transportSubsystems are the tflog subsystems of the device transports, as
// devices.Registry names them (tfLogger.ForTransport).
var transportSubsystems = []string{"gnmi", "nvue", "ssh", "cli"}

// withTransportLogs prepares a request's context for the transports' events: credentials
// masked, and each transport's subsystem created once with the same mask. Every request that
// may reach a device calls it first; tfLogger then only logs (a subsystem created per event
// costs a logger per line, and one tflog creates on demand lacks the mask).
func withTransportLogs(ctx context.Context) context.Context {
	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, secretFields...)
	for _, s := range transportSubsystems {
		ctx = tflog.NewSubsystem(ctx, s)
		ctx = tflog.SubsystemMaskFieldValuesWithFieldKeys(ctx, s, secretFields...)
	}
	return ctx
}

// tfLogger bridges transport events into tflog, under the transport's subsystem of the
// request's context (withTransportLogs).
type tfLogger struct{ subsystem string }

// ForTransport names the subsystem after the transport: gnmi, nvue, ssh or cli.
func (l tfLogger) ForTransport(transport string) devices.Logger {
	return tfLogger{subsystem: transport}
}

func (l tfLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.SubsystemDebug(ctx, l.subsystem, msg, fields)
}
