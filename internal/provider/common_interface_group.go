package provider

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// The group resources (roce_pfc_interface_group, roce_nic_qos_group, roce_dcqcn_group) give
// many interfaces of one device the same settings: a set of interface names and the
// per-interface resource's settings once. A GPU leaf's 64 server ports, or a host's 8 NICs,
// usually share one configuration, and a map resource repeats it per entry: at 4,096 GPUs
// that is 12,288 entries of up to 20 values that Terraform and the framework walk in every
// plan (DESIGN.md, Performance), where a group carries one copy.
//
// A group means exactly the map resource whose entries are its members, each with the
// group's settings, and writes through the same entry machinery (applyEntries: concurrent,
// rolled back on a refusal). Drift differs only in how it shows: a member whose interface no
// longer holds the group's settings leaves `interfaces` in the refreshed state (its prior
// stays in private state), so the plan shows it joining again and the apply writes it; a
// member whose interface is gone from the device leaves for good, as the per-interface
// resource leaves the state.

// interfaceGroupResource is the group form of a per-interface resource, over its map form's
// entry machinery (each).
type interfaceGroupResource[M interfaceModel[I], I validatable] struct {
	each          *interfaceMapResource[M, I]
	groupTypeName string
	groupType     types.ObjectType // the group's object: each.entryType plus id, device, interfaces
}

func newInterfaceGroup[M interfaceModel[I], I validatable](typeName string, one resource.Resource) *interfaceGroupResource[M, I] {
	each := newInterfaceMap[M, I](typeName, one)
	t := types.ObjectType{AttrTypes: map[string]attr.Type{
		"id": types.StringType, "device": types.StringType, "interfaces": types.SetType{ElemType: types.StringType}}}
	for name, at := range each.entryType.AttrTypes {
		t.AttrTypes[name] = at
	}
	return &interfaceGroupResource[M, I]{each: each, groupTypeName: typeName, groupType: t}
}

func (r *interfaceGroupResource[M, I]) Configure(ctx context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.each.Configure(ctx, req, resp)
}

func (r *interfaceGroupResource[M, I]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(r.groupTypeName, "roce")
}

func (r *interfaceGroupResource[M, I]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	one := r.each.oneSchema
	attrs := make(map[string]schema.Attribute, len(one.Attributes)+1)
	for name, a := range one.Attributes {
		if !slices.Contains(identityNames, name) {
			attrs[name] = a
		}
	}
	attrs["device"] = one.Attributes["device"]
	ifname, _ := one.Attributes["interface"].(schema.StringAttribute)
	attrs["id"] = schema.StringAttribute{Computed: true, MarkdownDescription: "The device's name.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	attrs["interfaces"] = schema.SetAttribute{Required: true, ElementType: types.StringType,
		// each name is what the per-interface resource's interface is, checked as it is
		Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(ifname.Validators...)},
		MarkdownDescription: fmt.Sprintf("The interfaces this resource gives its settings (what `%s` calls `interface`). "+
			"Interfaces not listed are left alone. A member whose interface no longer holds these settings on the device "+
			"leaves this set in the refreshed state, so the plan shows it being added back. A member that drifted and is removed "+
			"from this set in the same change is given back as it was at the group's next apply or its destroy "+
			"(the refresh had already dropped it, so that plan shows no change for it).", r.each.oneTypeName)}
	resp.Schema = schema.Schema{
		MarkdownDescription: fmt.Sprintf("The same `%[1]s` settings on many interfaces of one device, in one resource: "+
			"the interfaces as a set of names, the settings once. Each member means exactly what a `%[1]s` of that interface "+
			"with these settings means (same attributes, defaults and checks). An apply writes only the members it adds or whose settings change; "+
			"a removed member, and destroy, restore what the device had before the member was managed. When the device refuses "+
			"one member, the members already written in that apply are restored and the resource's state stays as it was. "+
			"Drift on a member shows as the member leaving `interfaces`; the next apply writes it again. "+
			"An interface must not be managed by this resource and by a `%[1]s` or another resource of the same settings at once.",
			r.each.oneTypeName) + "\n\nThe settings, as `" + r.each.oneTypeName + "`: " + one.MarkdownDescription,
		Attributes: attrs,
	}
}

// groupValue is a group's configuration, plan or state.
type groupValue struct {
	id, device types.String
	members    types.Set
	settings   map[string]attr.Value // by name, the attributes of each.entryType
}

func (r *interfaceGroupResource[M, I]) decode(ctx context.Context, raw tftypes.Value) (g groupValue, diags diag.Diagnostics) {
	v, err := r.groupType.ValueFromTerraform(ctx, raw)
	obj, ok := v.(types.Object)
	if err != nil || !ok || obj.IsNull() || obj.IsUnknown() {
		diags.AddError("Provider bug", fmt.Sprintf("reading a %s: %v", r.groupTypeName, err))
		return g, diags
	}
	all := obj.Attributes()
	g.id, _ = all["id"].(types.String)
	g.device, _ = all["device"].(types.String)
	g.members, _ = all["interfaces"].(types.Set)
	g.settings = make(map[string]attr.Value, len(r.each.entryType.AttrTypes))
	for name := range r.each.entryType.AttrTypes {
		g.settings[name] = all[name]
	}
	return g, diags
}

// set writes g as the whole of a response's state.
func (r *interfaceGroupResource[M, I]) set(ctx context.Context, state *tfsdk.State, g groupValue, diags *diag.Diagnostics) {
	vals := make(map[string]attr.Value, len(r.groupType.AttrTypes))
	for name, v := range g.settings {
		vals[name] = v
	}
	vals["id"], vals["device"], vals["interfaces"] = g.id, g.device, g.members
	obj, d := types.ObjectValue(r.groupType.AttrTypes, vals)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	raw, err := obj.ToTerraformValue(ctx)
	if err != nil {
		diags.AddError("Provider bug", err.Error())
		return
	}
	state.Raw = raw
}

// names are the members in order; known is false while the set or a name is unknown.
func (g groupValue) names() (names []string, known bool) {
	if g.members.IsNull() || g.members.IsUnknown() {
		return nil, false
	}
	for _, v := range g.members.Elements() {
		s, ok := v.(types.String)
		if !ok || s.IsUnknown() || s.IsNull() {
			return nil, false
		}
		names = append(names, s.ValueString())
	}
	slices.Sort(names)
	return names, true
}

func memberSet(names []string) types.Set {
	vals := make([]attr.Value, len(names))
	for i, n := range names {
		vals[i] = types.StringValue(n)
	}
	return types.SetValueMust(types.StringType, vals)
}

// entry is g's settings as one map entry, the form each member takes.
func (r *interfaceGroupResource[M, I]) entry(g groupValue) types.Object {
	obj, _ := types.ObjectValue(r.each.entryType.AttrTypes, g.settings) // the attributes are entryType's (decode)
	return obj
}

// member is the per-interface model of member key of g; ok is false while g's settings are
// not all known.
func (r *interfaceGroupResource[M, I]) member(ctx context.Context, g groupValue, key string) (m M, in I, ok bool, diags diag.Diagnostics) {
	m, ok, diags = r.each.entry(ctx, g.device, key, r.entry(g))
	if !ok || !m.known() {
		return m, in, false, diags
	}
	in, d := m.intent(ctx)
	diags.Append(groupDiags(d)...)
	return m, in, !diags.HasError(), diags
}

// groupDiags moves diagnostics of the per-interface resource onto the group: the settings are
// the group's own attributes, the interface is its interfaces.
func groupDiags(in diag.Diagnostics) diag.Diagnostics {
	return moveDiags(in, func(p path.Path, detail string) (path.Path, string) {
		if steps := p.Steps(); len(steps) > 0 {
			if first, ok := steps[0].(path.PathStepAttributeName); ok && (first == "interface" || first == "id") {
				return path.Root("interfaces"), detail
			}
		}
		return p, detail
	})
}

func groupProblems(probs fabric.Problems) diag.Diagnostics {
	var d diag.Diagnostics
	addProblems(&d, probs)
	return groupDiags(d)
}

func membersAt(string) path.Path { return path.Root("interfaces") }

func (r *interfaceGroupResource[M, I]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	g, diags := r.decode(ctx, req.Config.Raw)
	resp.Diagnostics.Append(diags...)
	names, known := g.names()
	if diags.HasError() || !known || len(names) == 0 {
		return // the set's own validators report an empty set
	}
	// the schema validators check each field; what relates fields is the same for every
	// member, so the first stands for all
	_, in, ok, diags := r.member(ctx, g, names[0])
	resp.Diagnostics.Append(diags...)
	if ok {
		resp.Diagnostics.Append(groupProblems(fabric.Relations(in))...)
	}
}

func (r *interfaceGroupResource[M, I]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	ctx = withTransportLogs(ctx) // it reads devices
	if req.Plan.Raw.IsNull() {
		st, diags := r.decode(ctx, req.State.Raw)
		resp.Diagnostics.Append(diags...)
		r.each.checkDeviceForDestroy(st.device, &resp.Diagnostics)
		return
	}
	plan, diags := r.decode(ctx, req.Plan.Raw)
	resp.Diagnostics.Append(diags...)
	var st groupValue
	if !req.State.Raw.IsNull() {
		st, diags = r.decode(ctx, req.State.Raw)
		resp.Diagnostics.Append(diags...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.device.IsUnknown() {
		setID(ctx, resp, plan.id, plan.device.ValueString())
	}
	names, known := plan.names()
	if !known {
		return
	}
	keys := make(map[string]attr.Value, len(names))
	for _, n := range names {
		keys[n] = nil
	}
	r.each.claimAs(r.groupTypeName, plan.device, keys, membersAt, &resp.Diagnostics)
	dev, ok := r.each.plannedDevice(plan.device, &resp.Diagnostics)
	if !ok {
		return
	}
	stNames, _ := st.names()
	sameSettings := st.settings != nil && r.entry(st).Equal(r.entry(plan))
	var drv interfaceOps[I]
	computedSet := false
	for _, key := range names {
		_, in, ok, diags := r.member(ctx, plan, key)
		resp.Diagnostics.Append(diags...)
		if !ok {
			return // unknown settings: nothing to check yet
		}
		if probs := r.each.checkPlatform(dev, in); len(probs) > 0 {
			resp.Diagnostics.Append(groupProblems(probs)...) // equal ones count once
			continue
		}
		if !r.each.readAtPlan || len(in.Validate()) > 0 {
			continue // ValidateConfig reports invalid values
		}
		isMember := slices.Contains(stNames, key)
		if sameSettings && isMember {
			continue // nothing to apply to this member: nothing to check on the device
		}
		var computed func(interfaceOps[I]) error
		if !computedSet {
			// what the device decides (NIC QoS: the host's tool) is the device's, not a member's
			computedSet = true
			computed = func(drv interfaceOps[I]) error {
				return r.each.setComputed(ctx, drv, key, path.Empty(), false, resp.Plan.GetAttribute, resp.Plan.SetAttribute)
			}
		}
		probs, err := r.each.checkBeforeChange(ctx, &drv, plan.device.ValueString(), key, in, computed)
		resp.Diagnostics.Append(groupProblems(probs)...)
		r.each.checkFailed(&resp.Diagnostics, path.Root("interfaces"), isMember, plan.device.ValueString(), key, err)
	}
}

// changes lists the members' writes from before (nil on create) to after (nil on destroy),
// in interface order. A member that drifted out of before (priors has it, before does not)
// is read from the device, so its write starts from what the device holds, as the
// per-interface resource's refreshed state does, and keeps the prior it was first written
// with.
func (r *interfaceGroupResource[M, I]) changes(ctx context.Context, drv interfaceOps[I], before, after *groupValue,
	priors map[string]driver.Prior, diags *diag.Diagnostics) []entryChange[I] {
	all := map[string]bool{}
	var inB, inA map[string]bool
	for _, side := range []struct {
		g  *groupValue
		in *map[string]bool
	}{{before, &inB}, {after, &inA}} {
		*side.in = map[string]bool{}
		if side.g == nil {
			continue
		}
		names, _ := side.g.names()
		for _, n := range names {
			(*side.in)[n], all[n] = true, true
		}
	}
	if before != nil {
		for k := range priors {
			all[k] = true
		}
	}
	same := before != nil && after != nil && r.entry(*before).Equal(r.entry(*after))
	var out []entryChange[I]
	for _, key := range sortedKeys(all) {
		if inB[key] && inA[key] && same {
			continue
		}
		c := entryChange[I]{key: key, prior: priors[key]}
		_, drifted := priors[key]
		if inB[key] || (before != nil && drifted) {
			_, in, ok, d := r.member(ctx, *before, key)
			diags.Append(d...)
			if !ok {
				return nil
			}
			switch {
			case inB[key]:
				c.old = &in
			default: // drifted out: what the device holds now
				got, err := drv.Read(ctx, key, &in)
				if err != nil {
					diags.AddAttributeError(path.Root("interfaces"),
						fmt.Sprintf("Cannot read %s of %q on device %q", r.each.what, key, before.device.ValueString()), err.Error())
					return nil
				}
				c.old = got // nil when the interface is gone: a create, or nothing to undo
			}
		}
		if inA[key] {
			_, in, ok, d := r.member(ctx, *after, key)
			diags.Append(d...)
			if !ok {
				return nil
			}
			c.next = &in
		}
		if c.old != nil || c.next != nil {
			out = append(out, c)
		}
	}
	return out
}

// write makes a create, update or delete (op) from before to after and, unless it deletes,
// records it: the members' priors in private state (written ones new, the others kept) and
// after, computed values filled in, as the state. A refused write records nothing: the
// members written before the refusal are restored (applyEntries).
func (r *interfaceGroupResource[M, I]) write(ctx context.Context, op string, before, after *groupValue, priors map[string]driver.Prior,
	priv privateSetter, state *tfsdk.State, diags *diag.Diagnostics) {
	g := after
	if g == nil {
		g = before
	}
	device := g.device.ValueString()
	drv, err := r.each.open(r.each.registry(), device)
	if err != nil {
		diags.AddError(fmt.Sprintf("Cannot %s %s on device %q", op, r.each.what, device), err.Error())
		return
	}
	changes := r.changes(ctx, drv, before, after, priors, diags)
	if diags.HasError() {
		return
	}
	written, warnings, f := applyEntries(ctx, drv, changes)
	if f != nil {
		r.each.report(f, device, membersAt, diags)
		return
	}
	for _, key := range sortedKeys(warnings) {
		what, _ := driver.Applied(warnings[key])
		diags.AddAttributeWarning(path.Root("interfaces"),
			fmt.Sprintf("%s of %q on device %q %s", r.each.what, key, device, what), warnings[key].Error())
	}
	if after == nil {
		return
	}
	names, _ := after.names()
	newPriors := make(map[string]driver.Prior, len(names))
	for _, key := range names {
		newPriors[key] = priors[key]
		if p, ok := written[key]; ok {
			newPriors[key] = p
		}
	}
	out := *after
	out.id = out.device
	if r.each.computed != nil && hasUnknown(r.entry(out)) && len(names) > 0 {
		vals, err := r.each.computed(ctx, drv, names[0])
		if err != nil {
			diags.AddAttributeError(path.Root("interfaces"),
				fmt.Sprintf("Cannot read after %s %s of %q on device %q", op, r.each.what, names[0], device), err.Error())
			return
		}
		out.settings = maps.Clone(out.settings)
		for name, v := range vals {
			if out.settings[name].IsUnknown() {
				out.settings[name] = v
			}
		}
	}
	diags.Append(writePriors(ctx, priv, newPriors)...)
	r.set(ctx, state, out, diags)
}

func (r *interfaceGroupResource[M, I]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, diags := r.decode(ctx, req.Plan.Raw)
	ctx, done := r.each.trace(ctx, "create", r.groupTypeName, plan.device)
	defer done(&resp.Diagnostics)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.write(ctx, "create", nil, &plan, nil, resp.Private, &resp.State, &resp.Diagnostics)
}

func (r *interfaceGroupResource[M, I]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, diags := r.decode(ctx, req.Plan.Raw)
	st, d := r.decode(ctx, req.State.Raw)
	ctx, done := r.each.trace(ctx, "update", r.groupTypeName, plan.device)
	defer done(&resp.Diagnostics)
	priors, d2 := readPriors(ctx, req.Private)
	resp.Diagnostics.Append(append(append(diags, d...), d2...)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.write(ctx, "update", &st, &plan, priors, resp.Private, &resp.State, &resp.Diagnostics)
}

// fromState starts operation op (read, delete) of the group in a request's state: the group,
// its members' priors, the trace (done, deferred, logs the outcome). The device must still be
// configured: without it the group can be neither read nor removed.
func (r *interfaceGroupResource[M, I]) fromState(ctx context.Context, op string, state tfsdk.State, priv privateGetter,
	diags *diag.Diagnostics) (context.Context, groupValue, map[string]driver.Prior, func(*diag.Diagnostics)) {
	st, d := r.decode(ctx, state.Raw)
	ctx, done := r.each.trace(ctx, op, r.groupTypeName, st.device)
	priors, d2 := readPriors(ctx, priv)
	diags.Append(append(d, d2...)...)
	r.each.checkDeviceForDestroy(st.device, diags)
	return ctx, st, priors, done
}

func (r *interfaceGroupResource[M, I]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	ctx, st, priors, done := r.fromState(ctx, "delete", req.State, req.Private, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	r.write(ctx, "delete", &st, nil, priors, nil, nil, &resp.Diagnostics)
}

func (r *interfaceGroupResource[M, I]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	ctx, st, priors, done := r.fromState(ctx, "read", req.State, req.Private, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	device := st.device.ValueString()
	drv, err := r.each.open(r.each.registry(), device)
	if err != nil {
		resp.Diagnostics.AddError(fmt.Sprintf("Cannot read %s on device %q", r.each.what, device), err.Error())
		return
	}
	names, _ := st.names()
	if len(names) > 0 {
		if m, ok, _ := r.each.entry(ctx, st.device, names[0], r.entry(st)); ok && m.imported() {
			r.readImported(ctx, drv, st, names, &resp.State, &resp.Diagnostics)
			return
		}
	}
	// the members, and those that drifted out of the set earlier: they come back when the
	// device holds the settings again
	candidates := map[string]bool{}
	for _, n := range names {
		candidates[n] = true
	}
	for k := range priors {
		candidates[k] = true
	}
	var keep []string
	priorsChanged := false
	settings := r.entry(st)
	for _, key := range sortedKeys(candidates) {
		m, in, ok, diags := r.member(ctx, st, key)
		resp.Diagnostics.Append(diags...)
		if !ok {
			return
		}
		got, err := drv.Read(ctx, key, &in)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("interfaces"),
				fmt.Sprintf("Cannot read %s of %q on device %q", r.each.what, key, device), err.Error())
			return
		}
		switch {
		case got == nil: // the interface is gone: nothing left to restore either
			if _, ok := priors[key]; ok {
				delete(priors, key)
				priorsChanged = true
			}
		case reflect.DeepEqual(in, *got):
			keep = append(keep, key)
		default:
			// what the per-interface resource's refreshed state would hold (its Read renders
			// the reading against its state: a read-only value such as NIC QoS's tool is
			// not in the intent, so the intents differ while the state would not)
			v, d := r.each.entryValue(ctx, r.each.fromIntent(device, *got, &m))
			resp.Diagnostics.Append(d...)
			if v.Equal(settings) {
				keep = append(keep, key)
			}
		}
	}
	if priorsChanged {
		resp.Diagnostics.Append(writePriors(ctx, resp.Private, priors)...)
	}
	if slices.Equal(keep, names) {
		return // the state the framework copied into the response stays as it is
	}
	st.members = memberSet(keep)
	r.set(ctx, &resp.State, st, &resp.Diagnostics)
}

// readImported fills an imported group (its settings null) from the device: the settings of
// its first interface, in name order; an interface whose settings differ is left out with a
// warning, so the plan shows it joining and the apply gives it the group's settings.
func (r *interfaceGroupResource[M, I]) readImported(ctx context.Context, drv interfaceOps[I], st groupValue, names []string,
	state *tfsdk.State, diags *diag.Diagnostics) {
	device := st.device.ValueString()
	var first types.Object
	var keep, differ []string
	for _, key := range names {
		got, err := drv.Read(ctx, key, nil)
		if err != nil {
			diags.AddAttributeError(path.Root("interfaces"), fmt.Sprintf("Cannot read %s of %q on device %q", r.each.what, key, device), err.Error())
			return
		}
		if got == nil {
			diags.AddAttributeError(path.Root("interfaces"), "Cannot import non-existent interface",
				fmt.Sprintf("The import ID names interface %q, which device %q does not have (or has no %s of).", key, device, r.each.what))
			return
		}
		v, d := r.each.entryValue(ctx, r.each.fromIntent(device, *got, nil))
		diags.Append(d...)
		switch {
		case diags.HasError():
			return
		case first.IsNull():
			first = v
			keep = append(keep, key)
		case v.Equal(first):
			keep = append(keep, key)
		default:
			differ = append(differ, key)
		}
	}
	if len(differ) > 0 {
		diags.AddAttributeWarning(path.Root("interfaces"), "Imported interfaces differ",
			fmt.Sprintf("On device %q, %s hold settings other than %q's, which the group takes as its own; they are left out of the imported state, "+
				"so the next plan shows them joining the group and its apply gives them %q's settings. Import them into a group of their own to keep theirs.",
				device, strings.Join(quoted(differ), ", "), keep[0], keep[0]))
	}
	st.settings = first.Attributes()
	st.members = memberSet(keep)
	st.id = st.device
	r.set(ctx, state, st, diags)
}

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// ImportState takes `<device>/<interface>,<interface>...`, as the map resource does; the
// settings all null make an imported group, which Read fills from the device.
func (r *interfaceGroupResource[M, I]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	device, keys, null, ok := r.each.importEntries(ctx, req.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	g := groupValue{id: types.StringValue(device), device: types.StringValue(device), members: memberSet(keys), settings: null}
	r.set(ctx, &resp.State, g, &resp.Diagnostics)
}
