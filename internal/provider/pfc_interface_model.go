package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

type pfcInterfaceModel struct {
	ID types.String `tfsdk:"id"`
	pfcInterfaceArgs
}

// pfcInterfaceArgs are the resource's arguments; roce_fabric_check takes the same shape.
type pfcInterfaceArgs struct {
	deviceInterface
	Mode      types.String `tfsdk:"mode"`
	LinkPause types.Bool   `tfsdk:"link_pause"`
	Buffer    types.Object `tfsdk:"buffer"`
	Watchdog  types.Object `tfsdk:"watchdog"`
}

var (
	bufferAttrTypes   = map[string]attr.Type{"xoff_bytes": types.Int64Type, "xon_bytes": types.Int64Type, "cable_length_m": types.Int64Type}
	watchdogAttrTypes = map[string]attr.Type{"action": types.StringType, "detection_time_ms": types.Int64Type, "restoration_time_ms": types.Int64Type}
)

func (m pfcInterfaceModel) id() types.String { return m.ID }
func (m pfcInterfaceModel) imported() bool   { return m.Mode.IsNull() }

func (m pfcInterfaceArgs) known() bool {
	return knownValues(m.Device, m.Interface, m.Mode, m.LinkPause, m.Buffer, m.Watchdog)
}

func optInt64(o types.Object, name string) *int64 {
	v, ok := o.Attributes()[name].(types.Int64)
	if !ok || v.IsNull() || v.IsUnknown() {
		return nil
	}
	x := v.ValueInt64()
	return &x
}

//nolint:unparam // the signature every interface resource model shares (interfaceModel)
func (m pfcInterfaceArgs) intent(_ context.Context) (fabric.PFCInterface, diag.Diagnostics) {
	p := fabric.PFCInterface{Interface: m.Interface.ValueString(), Mode: stringOr(m.Mode, fabric.PFCModeOn), LinkPause: m.LinkPause.ValueBool()}
	if !m.Buffer.IsNull() && !m.Buffer.IsUnknown() {
		b := &fabric.PFCBuffer{XoffBytes: optInt64(m.Buffer, "xoff_bytes"), XonBytes: optInt64(m.Buffer, "xon_bytes")}
		if c := optInt64(m.Buffer, "cable_length_m"); c != nil {
			b.CableLengthM = fabric.Ptr(int(*c))
		}
		p.Buffer = b
	}
	if !m.Watchdog.IsNull() && !m.Watchdog.IsUnknown() {
		w := &fabric.PFCWatchdog{Action: fabric.WatchdogDrop}
		if a, ok := m.Watchdog.Attributes()["action"].(types.String); ok && !a.IsNull() && !a.IsUnknown() {
			w.Action = a.ValueString()
		}
		if v := optInt64(m.Watchdog, "detection_time_ms"); v != nil {
			w.DetectionTimeMs = int(*v)
		}
		if v := optInt64(m.Watchdog, "restoration_time_ms"); v != nil {
			w.RestorationTimeMs = int(*v)
		}
		p.Watchdog = w
	}
	return p, nil
}

// pfcFromIntent renders what the device has; buffer fields and the watchdog stay unmanaged
// (null) where prior leaves them null, except on import.
func pfcFromIntent(device string, p fabric.PFCInterface, prior *pfcInterfaceModel) pfcInterfaceModel {
	m := pfcInterfaceModel{ID: types.StringValue(device + "/" + p.Interface), pfcInterfaceArgs: pfcInterfaceArgs{
		deviceInterface: deviceInterfaceOf(device, p.Interface),
		Mode:            types.StringValue(p.Mode),
		LinkPause:       types.BoolValue(p.LinkPause),
		Buffer:          types.ObjectNull(bufferAttrTypes),
		Watchdog:        types.ObjectNull(watchdogAttrTypes),
	}}
	managed := func(o types.Object, name string) bool {
		if prior == nil {
			return true
		}
		v, ok := o.Attributes()[name]
		return ok && !v.IsNull()
	}
	i64 := func(v *int64) types.Int64 {
		if v == nil {
			return types.Int64Null()
		}
		return types.Int64Value(*v)
	}
	if p.Buffer != nil && (prior == nil || !prior.Buffer.IsNull()) {
		var pb types.Object
		if prior != nil {
			pb = prior.Buffer
		}
		vals := map[string]attr.Value{"xoff_bytes": types.Int64Null(), "xon_bytes": types.Int64Null(), "cable_length_m": types.Int64Null()}
		if managed(pb, "xoff_bytes") {
			vals["xoff_bytes"] = i64(p.Buffer.XoffBytes)
		}
		if managed(pb, "xon_bytes") {
			vals["xon_bytes"] = i64(p.Buffer.XonBytes)
		}
		if managed(pb, "cable_length_m") && p.Buffer.CableLengthM != nil {
			vals["cable_length_m"] = types.Int64Value(int64(*p.Buffer.CableLengthM))
		}
		m.Buffer = types.ObjectValueMust(bufferAttrTypes, vals)
	}
	if p.Watchdog != nil && (prior == nil || !prior.Watchdog.IsNull()) {
		var pw types.Object
		if prior != nil {
			pw = prior.Watchdog
		}
		// A time the configuration leaves unset stays null: unmanaged, like the buffer fields.
		ms := func(name string, v int) types.Int64 {
			if v == 0 || !managed(pw, name) {
				return types.Int64Null()
			}
			return types.Int64Value(int64(v))
		}
		m.Watchdog = types.ObjectValueMust(watchdogAttrTypes, map[string]attr.Value{
			"action":              types.StringValue(p.Watchdog.Action),
			"detection_time_ms":   ms("detection_time_ms", p.Watchdog.DetectionTimeMs),
			"restoration_time_ms": ms("restoration_time_ms", p.Watchdog.RestorationTimeMs),
		})
	}
	return m
}
