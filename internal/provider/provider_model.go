package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
)

type providerModel struct {
	Username       types.String           `tfsdk:"username"`
	Password       types.String           `tfsdk:"password"`
	PrivateKey     types.String           `tfsdk:"private_key"`
	KnownHostsFile types.String           `tfsdk:"known_hosts_file"`
	CACertificate  types.String           `tfsdk:"ca_certificate"`
	Insecure       types.Bool             `tfsdk:"insecure"`
	Timeout        types.String           `tfsdk:"timeout"`
	Retries        types.Int64            `tfsdk:"retries"`
	Devices        map[string]deviceModel `tfsdk:"devices"`
}

type deviceModel struct {
	Address       types.String `tfsdk:"address"`
	Platform      types.String `tfsdk:"platform"`
	Username      types.String `tfsdk:"username"`
	Password      types.String `tfsdk:"password"`
	PrivateKey    types.String `tfsdk:"private_key"`
	CACertificate types.String `tfsdk:"ca_certificate"`
	HostKey       types.String `tfsdk:"host_key"`
	Insecure      types.Bool   `tfsdk:"insecure"`
	GNMITarget    types.String `tfsdk:"gnmi_target"`
	Sudo          types.Bool   `tfsdk:"sudo"`
}

type unknowable interface{ IsUnknown() bool }

// known reports whether every value of the configuration is known. A map that is itself
// unknown cannot be decoded into a Go map, so Configure sees that as a decode error first;
// this catches unknown values inside it.
func (m providerModel) known() bool {
	vals := []unknowable{m.Username, m.Password, m.PrivateKey, m.KnownHostsFile, m.CACertificate, m.Insecure, m.Timeout, m.Retries}
	for _, d := range m.Devices {
		vals = append(vals, d.Address, d.Platform, d.Username, d.Password, d.PrivateKey, d.CACertificate, d.HostKey, d.Insecure, d.GNMITarget, d.Sudo)
	}
	for _, v := range vals {
		if v.IsUnknown() {
			return false
		}
	}
	return true
}

func (m providerModel) toSettings() (devices.Settings, map[string]devices.Spec) {
	s := devices.Settings{
		Username: strPtr(m.Username), Password: strPtr(m.Password), PrivateKey: strPtr(m.PrivateKey),
		KnownHostsFile: strPtr(m.KnownHostsFile), CACertificate: strPtr(m.CACertificate),
		Insecure: boolPtr(m.Insecure), Timeout: strPtr(m.Timeout),
	}
	if !m.Retries.IsNull() {
		r := m.Retries.ValueInt64()
		s.Retries = &r
	}
	specs := make(map[string]devices.Spec, len(m.Devices))
	for name, d := range m.Devices {
		specs[name] = devices.Spec{
			Address: d.Address.ValueString(), Platform: d.Platform.ValueString(),
			Username: strPtr(d.Username), Password: strPtr(d.Password), PrivateKey: strPtr(d.PrivateKey),
			CACertificate: strPtr(d.CACertificate), HostKey: strPtr(d.HostKey), Insecure: boolPtr(d.Insecure),
			GNMITarget: strPtr(d.GNMITarget), Sudo: boolPtr(d.Sudo),
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
