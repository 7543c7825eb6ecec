package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
)

type providerModel struct {
	Username         types.String `tfsdk:"username"`
	Password         types.String `tfsdk:"password"`
	PrivateKey       types.String `tfsdk:"private_key"`
	KnownHostsFile   types.String `tfsdk:"known_hosts_file"`
	CACertificate    types.String `tfsdk:"ca_certificate"`
	Insecure         types.Bool   `tfsdk:"insecure"`
	InsecureHostKey  types.Bool   `tfsdk:"insecure_host_key"`
	Timeout          types.String `tfsdk:"timeout"`
	Retries          types.Int64  `tfsdk:"retries"`
	PerResourceReads types.Bool   `tfsdk:"per_resource_reads"`
	Devices          types.Map    `tfsdk:"devices"`
}

type deviceModel struct {
	Address          types.String `tfsdk:"address"`
	Platform         types.String `tfsdk:"platform"`
	Username         types.String `tfsdk:"username"`
	Password         types.String `tfsdk:"password"`
	PrivateKey       types.String `tfsdk:"private_key"`
	CACertificate    types.String `tfsdk:"ca_certificate"`
	HostKey          types.String `tfsdk:"host_key"`
	Insecure         types.Bool   `tfsdk:"insecure"`
	InsecureHostKey  types.Bool   `tfsdk:"insecure_host_key"`
	GNMITarget       types.String `tfsdk:"gnmi_target"`
	Sudo             types.Bool   `tfsdk:"sudo"`
	SaveConfig       types.Bool   `tfsdk:"save_config"`
	PerResourceReads types.Bool   `tfsdk:"per_resource_reads"`
	Model            types.String `tfsdk:"model"`
	Hostname         types.String `tfsdk:"hostname"`
}

type unknowable interface{ IsUnknown() bool }

// devices decodes the devices map; call it only when the map itself is known.
func (m providerModel) devices(ctx context.Context) (map[string]deviceModel, diag.Diagnostics) {
	out := map[string]deviceModel{}
	if m.Devices.IsNull() {
		return out, nil
	}
	diags := m.Devices.ElementsAs(ctx, &out, false)
	return out, diags
}

// known reports whether every value of the configuration is known.
func (m providerModel) known(devs map[string]deviceModel) bool {
	vals := []unknowable{m.Username, m.Password, m.PrivateKey, m.KnownHostsFile, m.CACertificate, m.Insecure, m.InsecureHostKey, m.Timeout, m.Retries, m.PerResourceReads}
	for _, d := range devs {
		vals = append(vals, d.Address, d.Platform, d.Username, d.Password, d.PrivateKey, d.CACertificate, d.HostKey, d.Insecure, d.InsecureHostKey, d.GNMITarget, d.Sudo, d.SaveConfig, d.PerResourceReads, d.Model, d.Hostname)
	}
	for _, v := range vals {
		if v.IsUnknown() {
			return false
		}
	}
	return true
}

func (m providerModel) toSettings(devs map[string]deviceModel) (devices.Settings, map[string]devices.Spec) {
	s := devices.Settings{
		Username: strPtr(m.Username), Password: strPtr(m.Password), PrivateKey: strPtr(m.PrivateKey),
		KnownHostsFile: strPtr(m.KnownHostsFile), CACertificate: strPtr(m.CACertificate),
		Insecure: boolPtr(m.Insecure), InsecureHostKey: boolPtr(m.InsecureHostKey), Timeout: strPtr(m.Timeout), PerResourceReads: boolPtr(m.PerResourceReads),
	}
	if !m.Retries.IsNull() {
		r := m.Retries.ValueInt64()
		s.Retries = &r
	}
	specs := make(map[string]devices.Spec, len(devs))
	for name, d := range devs {
		specs[name] = devices.Spec{
			Address: d.Address.ValueString(), Platform: d.Platform.ValueString(),
			Username: strPtr(d.Username), Password: strPtr(d.Password), PrivateKey: strPtr(d.PrivateKey),
			CACertificate: strPtr(d.CACertificate), HostKey: strPtr(d.HostKey), Insecure: boolPtr(d.Insecure), InsecureHostKey: boolPtr(d.InsecureHostKey),
			GNMITarget: strPtr(d.GNMITarget), Sudo: boolPtr(d.Sudo), SaveConfig: boolPtr(d.SaveConfig), PerResourceReads: boolPtr(d.PerResourceReads),
			Model: strPtr(d.Model), Hostname: strPtr(d.Hostname),
		}
	}
	return s, specs
}

func strPtr(v types.String) *string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	s := v.ValueString()
	return &s
}

func boolPtr(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	b := v.ValueBool()
	return &b
}
