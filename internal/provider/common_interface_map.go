package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
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
	"github.com/rocefabric/terraform-provider-roce/internal/tfmodel"
)

// The map-keyed interface resources (roce_pfc_interfaces, roce_nic_qos_interfaces,
// roce_dcqcn_interfaces) own many interfaces of one device in one resource: Terraform core
// spends about 10 ms per resource in a plan, so a 4,096-GPU fabric's ~12,000 per-interface
// resources cannot plan in under a minute, while ~600 map resources can. Each map entry means
// exactly what the per-interface resource of the same interface means: the entry is converted
// to that resource's model (M) and goes through its intent, checks, driver and rendering.

// identityNames are the per-interface attributes a map entry does not carry: the map resource
// has the device, the entry's key is the interface, and there is no per-entry id.
var identityNames = []string{"id", "device", "interface"}

// interfaceMapModel is the Terraform model of every map-keyed interface resource.
type interfaceMapModel struct {
	ID         types.String `tfsdk:"id"`
	Device     types.String `tfsdk:"device"`
	Interfaces types.Map    `tfsdk:"interfaces"`
}

func (m interfaceMapModel) deviceName() types.String { return m.Device }

// interfaceMapResource is the map-keyed form of the per-interface resource it embeds: the same
// driver, checks and model code, entry by entry.
type interfaceMapResource[M interfaceModel[I], I validatable] struct {
	interfaceResource[M, I]
	mapTypeName, oneTypeName string
	// oneSchema is the per-interface resource's schema, from which the entries' schema and
	// types derive.
	oneSchema schema.Schema
	oneType   types.ObjectType // the per-interface resource's object (M's)
	entryType types.ObjectType // one map entry: oneType less identityNames
}

// baser gives the interfaceResource behind a per-interface resource.
type baser[M interfaceModel[I], I validatable] interface {
	base() *interfaceResource[M, I]
}

func (r *interfaceResource[M, I]) base() *interfaceResource[M, I] { return r }

// newInterfaceMap is the map-keyed resource typeName over the per-interface resource one.
func newInterfaceMap[M interfaceModel[I], I validatable](typeName string, one resource.Resource) *interfaceMapResource[M, I] {
	b := one.(baser[M, I]).base() //nolint:forcetypeassert // every per-interface resource embeds interfaceResource
	var resp resource.SchemaResponse
	one.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	full, _ := resp.Schema.Type().(types.ObjectType) // a schema's type is always an object
	entry := types.ObjectType{AttrTypes: map[string]attr.Type{}}
	for name, t := range full.AttrTypes {
		if !slices.Contains(identityNames, name) {
			entry.AttrTypes[name] = t
		}
	}
	return &interfaceMapResource[M, I]{interfaceResource: *b, mapTypeName: typeName, oneTypeName: b.typeName,
		oneSchema: resp.Schema, oneType: full, entryType: entry}
}

func (r *interfaceMapResource[M, I]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(r.mapTypeName, "roce")
}

func (r *interfaceMapResource[M, I]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	entry := make(map[string]schema.Attribute, len(r.oneSchema.Attributes))
	for name, a := range r.oneSchema.Attributes {
		if !slices.Contains(identityNames, name) {
			entry[name] = a
		}
	}
	one, _ := r.oneSchema.Attributes["device"].(schema.StringAttribute)
	ifname, _ := r.oneSchema.Attributes["interface"].(schema.StringAttribute)
	resp.Schema = schema.Schema{
		MarkdownDescription: fmt.Sprintf("The `%s` settings of many interfaces of one device in one resource, keyed by interface name. "+
			"Each entry of `interfaces` means exactly what a `%s` of that interface means (same attributes, defaults, checks and drift). "+
			"An apply writes only the entries it adds, changes or removes; a removed entry, and destroy, restore what the device had before "+
			"the entry was managed. When the device refuses one entry, the entries already written in that apply are restored and the "+
			"resource's state stays as it was. An interface must not be managed by this resource and by a `%s` at once.",
			r.oneTypeName, r.oneTypeName, r.oneTypeName) + "\n\nEach entry, as `" + r.oneTypeName + "`: " + r.oneSchema.MarkdownDescription,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The device's name.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"device": schema.StringAttribute{Required: true, MarkdownDescription: one.MarkdownDescription,
				Validators:    one.Validators,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			// the keys are what the per-interface resource's interface is, checked as it is
			"interfaces": schema.MapNestedAttribute{Required: true,
				Validators: []validator.Map{mapvalidator.KeysAre(ifname.Validators...)},
				MarkdownDescription: fmt.Sprintf("The interfaces this resource manages, keyed by interface name (what `%s` calls `interface`); "+
					"each value has the attributes of `%s` other than `id`, `device` and `interface`. Interfaces not listed are left alone.",
					r.oneTypeName, r.oneTypeName),
				NestedObject: schema.NestedAttributeObject{Attributes: entry}},
		},
	}
}

// entryPath is the path of attribute p of the per-interface resource in entry key: device
// stays the map resource's own, interface is the entry's key, the rest lies in the entry.
func entryPath(key string, p path.Path) path.Path {
	steps := p.Steps()
	out := path.Root("interfaces").AtMapKey(key)
	if len(steps) == 0 {
		return out
	}
	if first, ok := steps[0].(path.PathStepAttributeName); ok {
		switch string(first) {
		case "device":
			return p
		case "interface", "id":
			return out
		}
	}
	for _, s := range steps {
		switch s := s.(type) {
		case path.PathStepAttributeName:
			out = out.AtName(string(s))
		case path.PathStepElementKeyString:
			out = out.AtMapKey(string(s))
		case path.PathStepElementKeyInt:
			out = out.AtListIndex(int(s))
		case path.PathStepElementKeyValue:
			out = out.AtSetValue(s.Value)
		}
	}
	return out
}

// entryAt is the path of a map resource's entry key.
func entryAt(key string) path.Path { return path.Root("interfaces").AtMapKey(key) }

// entryDiags moves diagnostics of the per-interface resource onto map entry key.
func entryDiags(key string, in diag.Diagnostics) diag.Diagnostics {
	return moveDiags(in, func(p path.Path, detail string) (path.Path, string) {
		p = entryPath(key, p)
		if !p.Equal(path.Root("device")) {
			// Terraform's CLI points at the resource, not at a map entry's attribute: the
			// detail names the entry.
			detail = fmt.Sprintf("Interface %q: %s", key, detail)
		}
		return p, detail
	})
}

// moveDiags moves the diagnostics of the per-interface resource that have an attribute path
// onto the map or group resource: move gives each one's new path and detail; the severity and
// summary stay, and a diagnostic without a path stays as it is.
func moveDiags(in diag.Diagnostics, move func(p path.Path, detail string) (path.Path, string)) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range in {
		wp, ok := d.(diag.DiagnosticWithPath)
		if !ok {
			out.Append(d)
			continue
		}
		p, detail := move(wp.Path(), d.Detail())
		if d.Severity() == diag.SeverityError {
			out.AddAttributeError(p, d.Summary(), detail)
		} else {
			out.AddAttributeWarning(p, d.Summary(), detail)
		}
	}
	return out
}

// entryProblems are fabric problems of the per-interface resource as diagnostics of entry key.
func entryProblems(key string, probs fabric.Problems) diag.Diagnostics {
	var d diag.Diagnostics
	addProblems(&d, probs)
	return entryDiags(key, d)
}

// entry is one map entry as the per-interface resource's model. ok is false when the entry is
// unknown (or null) and so has no model yet.
func (r *interfaceMapResource[M, I]) entry(ctx context.Context, device types.String, key string, v attr.Value) (m M, ok bool, diags diag.Diagnostics) {
	obj, isObj := v.(types.Object)
	if !isObj || obj.IsNull() || obj.IsUnknown() {
		return m, false, nil
	}
	vals := make(map[string]attr.Value, len(r.oneType.AttrTypes))
	for name, av := range obj.Attributes() {
		vals[name] = av
	}
	vals["device"] = device
	vals["interface"] = types.StringValue(key)
	vals["id"] = types.StringUnknown()
	if !device.IsUnknown() && !device.IsNull() {
		vals["id"] = types.StringValue(device.ValueString() + "/" + key)
	}
	full, d := types.ObjectValue(r.oneType.AttrTypes, vals)
	diags.Append(d...)
	if diags.HasError() {
		return m, false, diags
	}
	raw, err := full.ToTerraformValue(ctx)
	if err != nil {
		diags.AddError("Provider bug", err.Error())
		return m, false, diags
	}
	diags.Append(tfmodel.Decode(ctx, r.oneType, raw, &m)...)
	return m, !diags.HasError(), diags
}

// entryValue renders a per-interface model as a map entry.
func (r *interfaceMapResource[M, I]) entryValue(ctx context.Context, m M) (types.Object, diag.Diagnostics) {
	raw, diags := tfmodel.Encode(ctx, r.oneType, m)
	if diags.HasError() {
		return types.ObjectNull(r.entryType.AttrTypes), diags
	}
	v, err := r.oneType.ValueFromTerraform(ctx, raw)
	full, ok := v.(types.Object)
	if err != nil || !ok {
		diags.AddError("Provider bug", fmt.Sprintf("rendering an entry: %v", err))
		return types.ObjectNull(r.entryType.AttrTypes), diags
	}
	return r.trim(full.Attributes(), nil)
}

// trim is the entry of the per-interface attributes vals, with the values in set replacing
// theirs.
func (r *interfaceMapResource[M, I]) trim(vals, set map[string]attr.Value) (types.Object, diag.Diagnostics) {
	out := make(map[string]attr.Value, len(r.entryType.AttrTypes))
	for name := range r.entryType.AttrTypes {
		out[name] = vals[name]
		if v, ok := set[name]; ok {
			out[name] = v
		}
	}
	return types.ObjectValue(r.entryType.AttrTypes, out)
}

// entries are a map value's entries by key; nil when the map is null or unknown.
func entries(m types.Map) map[string]attr.Value {
	if m.IsNull() || m.IsUnknown() {
		return nil
	}
	return m.Elements()
}

func (r *interfaceMapResource[M, I]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var mm interfaceMapModel
	resp.Diagnostics.Append(tfmodel.Config(ctx, req.Config, &mm)...)
	if resp.Diagnostics.HasError() {
		return
	}
	for key, in := range r.knownEntries(ctx, mm.Device, entries(mm.Interfaces), &resp.Diagnostics) {
		// the schema validators check each field (and the key); what relates fields is left
		resp.Diagnostics.Append(entryProblems(key, fabric.Relations(in))...)
	}
}

func (r *interfaceMapResource[M, I]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	ctx = withTransportLogs(ctx) // it reads devices
	var st interfaceMapModel
	plan, ok := beginModifyPlan[interfaceMapModel](ctx, &r.deviceResource, req, resp, &st)
	if !ok {
		return
	}
	if !plan.Device.IsUnknown() {
		setID(ctx, resp, plan.ID, plan.Device.ValueString())
	}
	r.claim(plan.Device, entries(plan.Interfaces), &resp.Diagnostics)
	dev, ok := r.plannedDevice(plan.Device, &resp.Diagnostics)
	if !ok {
		return
	}
	old := entries(st.Interfaces)
	var drv interfaceOps[I]
	planned := entries(plan.Interfaces) // Elements copies the map: once, not once per entry
	for key, in := range r.knownEntries(ctx, plan.Device, planned, &resp.Diagnostics) {
		if probs := r.checkPlatform(dev, in); len(probs) > 0 {
			resp.Diagnostics.Append(entryProblems(key, probs)...) // equal ones (on device) count once
			continue
		}
		if !r.readAtPlan || len(in.Validate()) > 0 {
			continue // ValidateConfig reports invalid values
		}
		o, had := old[key]
		if had && o.Equal(planned[key]) {
			continue // nothing to apply to this entry: nothing to check on the device
		}
		probs, err := r.checkBeforeChange(ctx, &drv, plan.Device.ValueString(), key, in, func(drv interfaceOps[I]) error {
			return r.setComputed(ctx, drv, key, entryAt(key), false, resp.Plan.GetAttribute, resp.Plan.SetAttribute)
		})
		resp.Diagnostics.Append(entryProblems(key, probs)...)
		r.checkFailed(&resp.Diagnostics, entryAt(key), had, plan.Device.ValueString(), key, err)
	}
}

// knownEntries yields, in key order, the entries of planned whose values are all known, each
// with its settings as the per-interface resource's intent; what reading and converting the
// entries reports goes to diags, on the entry.
func (r *interfaceMapResource[M, I]) knownEntries(ctx context.Context, device types.String, planned map[string]attr.Value,
	diags *diag.Diagnostics) iter.Seq2[string, I] {
	return func(yield func(string, I) bool) {
		for _, key := range sortedKeys(planned) {
			m, ok, d := r.entry(ctx, device, key, planned[key])
			diags.Append(d...)
			if !ok || !m.known() {
				continue
			}
			in, d := m.intent(ctx)
			diags.Append(entryDiags(key, d)...)
			if !yield(key, in) {
				return
			}
		}
	}
}

// entryChange is one map entry's change in an apply: old or next nil where the entry is
// absent before or after it.
type entryChange[I any] struct {
	key       string
	old, next *I
	prior     driver.Prior
}

// entryFailure is what a refused apply reports: the entries whose write failed and what
// undoing the entries written in the same apply left undone.
type entryFailure struct {
	refused    []entryRefusal // in key order
	rollbackOK bool
	rollback   []string // "Ethernet4: <error>"
}

// entryRefusal is one entry's failed write.
type entryRefusal struct {
	key, op string
	err     error
}

// mapWriters bounds the entry writes one apply has in flight. The entries go to the driver
// together, as Terraform sends the per-interface resources at -parallelism: a SONiC switch
// then coalesces them into few SetRequests (devices.Write), a CLI switch queues them in its
// device turn, a host runs them side by side; one at a time, a 64-port map would pay 64
// round trips.
const mapWriters = 16

// entryWrite is one change's outcome.
type entryWrite struct {
	op    string
	prior driver.Prior
	err   error
}

// writeEntry makes one change: create, delete or update.
func writeEntry[I any](ctx context.Context, drv interfaceOps[I], c entryChange[I]) entryWrite {
	switch {
	case c.old == nil:
		p, err := drv.Create(ctx, *c.next)
		return entryWrite{"create", p, err}
	case c.next == nil:
		return entryWrite{"delete", nil, drv.Delete(ctx, *c.old, c.prior)}
	default:
		p, err := drv.Update(ctx, *c.old, *c.next, c.prior)
		return entryWrite{"update", p, err}
	}
}

// eachBounded runs f(i) for i in [0, n), at most mapWriters at a time, and waits for all.
func eachBounded(n int, f func(i int)) {
	sem := make(chan struct{}, mapWriters)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}

// applyEntries makes changes, concurrently (mapWriters). It returns each written entry's new
// prior (removed entries: none) and the warnings of writes the device took with a complaint.
// When any is refused, the ones that were made are undone, so the device is as before the
// apply: a create is deleted with its new prior, an update is written back to its old
// settings, a delete is created again. The state and the priors it recorded then stay those
// of before the apply. Every refused entry is reported, not only the first.
func applyEntries[I any](ctx context.Context, drv interfaceOps[I], changes []entryChange[I]) (map[string]driver.Prior, map[string]error, *entryFailure) {
	done := make([]entryWrite, len(changes))
	eachBounded(len(changes), func(i int) { done[i] = writeEntry(ctx, drv, changes[i]) })

	priors := map[string]driver.Prior{}
	warnings := map[string]error{}
	var refused []entryRefusal
	var undo []entryChange[I] // the inverse of each change made
	for i, c := range changes {
		w := done[i]
		if _, ok := driver.Applied(w.err); ok {
			warnings[c.key] = w.err // on the device: it counts as written
			w.err = nil
		}
		if w.err != nil {
			refused = append(refused, entryRefusal{key: c.key, op: w.op, err: w.err})
			continue
		}
		switch w.op {
		case "create":
			priors[c.key] = w.prior
			undo = append(undo, entryChange[I]{key: c.key, old: c.next, prior: w.prior})
		case "update":
			priors[c.key] = w.prior
			undo = append(undo, entryChange[I]{key: c.key, old: c.next, next: c.old, prior: w.prior})
		case "delete":
			undo = append(undo, entryChange[I]{key: c.key, next: c.old})
		}
	}
	if len(refused) == 0 {
		return priors, warnings, nil
	}
	f := &entryFailure{refused: refused, rollbackOK: true}
	undone := make([]entryWrite, len(undo))
	eachBounded(len(undo), func(i int) { undone[i] = writeEntry(ctx, drv, undo[i]) })
	for i, w := range undone {
		if _, ok := driver.Applied(w.err); w.err != nil && !ok {
			f.rollbackOK = false
			f.rollback = append(f.rollback, undo[i].key+": "+w.err.Error())
		}
	}
	return nil, nil, f
}

// report adds an entryFailure to diags: an error on each refused entry, at the path at gives
// its key (a map resource's entry, a group's interfaces).
func (r *interfaceResource[M, I]) report(f *entryFailure, device string, at func(string) path.Path, diags *diag.Diagnostics) {
	outcome := "\n\nThe entries this apply had already written were restored: the device and this resource's state are as before the apply."
	if !f.rollbackOK {
		outcome = "\n\nRestoring the entries this apply had already written failed, so the device differs from this resource's state " +
			"(the next plan shows where):\n" + strings.Join(f.rollback, "\n")
	}
	for _, e := range f.refused {
		subject := fmt.Sprintf("%s of %q on device %q", r.what, e.key, device)
		diags.AddAttributeError(at(e.key), "Cannot "+e.op+" "+subject, e.err.Error()+outcome)
	}
}

// privateKeyPriors is the private-state key of a map resource's priors, by interface: what
// the per-interface resource keeps under privateKeyPrior, for each entry.
const privateKeyPriors = "priors.v1"

func readPriors(ctx context.Context, priv privateGetter) (map[string]driver.Prior, diag.Diagnostics) {
	raw, diags := getPrivate(ctx, priv, privateKeyPriors)
	out := map[string]driver.Prior{}
	if len(raw) == 0 || diags.HasError() {
		return out, diags
	}
	var enc map[string][]byte
	if err := json.Unmarshal(raw, &enc); err != nil {
		diags.AddError("Private state is unreadable", err.Error())
		return out, diags
	}
	for k, v := range enc {
		out[k] = v
	}
	return out, diags
}

func writePriors(ctx context.Context, priv privateSetter, priors map[string]driver.Prior) diag.Diagnostics {
	enc := make(map[string][]byte, len(priors))
	for k, v := range priors {
		enc[k] = v
	}
	raw, err := json.Marshal(enc)
	if err != nil {
		var d diag.Diagnostics
		d.AddError("Provider bug", err.Error())
		return d
	}
	return setPrivate(ctx, priv, privateKeyPriors, raw)
}

// changes lists the entries whose settings differ between before and after (models by key),
// in key order.
func (r *interfaceMapResource[M, I]) changes(ctx context.Context, device types.String, before, after map[string]attr.Value,
	priors map[string]driver.Prior, diags *diag.Diagnostics) []entryChange[I] {
	keys := map[string]attr.Value{}
	for k, v := range before {
		keys[k] = v
	}
	for k, v := range after {
		keys[k] = v
	}
	var out []entryChange[I]
	for _, key := range sortedKeys(keys) {
		b, inB := before[key]
		a, inA := after[key]
		if inA && inB && a.Equal(b) {
			continue
		}
		c := entryChange[I]{key: key, prior: priors[key]}
		for _, side := range []struct {
			v  attr.Value
			in bool
			to **I
		}{{b, inB, &c.old}, {a, inA, &c.next}} {
			if !side.in {
				continue
			}
			m, _, d := r.entry(ctx, device, key, side.v)
			in, d2 := m.intent(ctx)
			diags.Append(d...)
			diags.Append(entryDiags(key, d2)...)
			*side.to = &in
		}
		out = append(out, c)
	}
	return out
}

// apply makes the changes from the state's entries (before; nil on create) to the plan's
// (after; nil on destroy) and returns the entries as written, computed values filled in, and
// their priors; ok is false when nothing is to be recorded.
func (r *interfaceMapResource[M, I]) apply(ctx context.Context, op string, device types.String, before, after map[string]attr.Value,
	priors map[string]driver.Prior, diags *diag.Diagnostics) (map[string]attr.Value, map[string]driver.Prior, bool) {
	changes := r.changes(ctx, device, before, after, priors, diags)
	if diags.HasError() {
		return nil, nil, false
	}
	drv, err := r.open(r.registry(), device.ValueString())
	if err != nil {
		diags.AddError(fmt.Sprintf("Cannot %s %s on device %q", op, r.what, device.ValueString()), err.Error())
		return nil, nil, false
	}
	written, warnings, f := applyEntries(ctx, drv, changes)
	if f != nil {
		r.report(f, device.ValueString(), entryAt, diags)
		return nil, nil, false
	}
	for _, key := range sortedKeys(warnings) {
		what, _ := driver.Applied(warnings[key])
		diags.AddAttributeWarning(path.Root("interfaces").AtMapKey(key),
			fmt.Sprintf("%s of %q on device %q %s", r.what, key, device.ValueString(), what), warnings[key].Error())
	}
	newPriors := map[string]driver.Prior{}
	for key := range after {
		newPriors[key] = priors[key]
		if p, ok := written[key]; ok {
			newPriors[key] = p
		}
	}
	out := make(map[string]attr.Value, len(after))
	for _, key := range sortedKeys(after) {
		out[key] = after[key]
		obj, _ := after[key].(types.Object)
		if r.computed == nil || !hasUnknown(obj) {
			continue
		}
		vals, err := r.computed(ctx, drv, key)
		if err != nil {
			diags.AddAttributeError(path.Root("interfaces").AtMapKey(key),
				fmt.Sprintf("Cannot read after %s %s of %q on device %q", op, r.what, key, device.ValueString()), err.Error())
			continue
		}
		set := map[string]attr.Value{}
		for name, v := range vals {
			if obj.Attributes()[name].IsUnknown() {
				set[name] = v
			}
		}
		filled, d := r.trim(obj.Attributes(), set)
		diags.Append(d...)
		out[key] = filled
	}
	return out, newPriors, true
}

// hasUnknown reports an object with an unknown attribute.
func hasUnknown(o types.Object) bool {
	for _, v := range o.Attributes() {
		if v.IsUnknown() {
			return true
		}
	}
	return false
}

func (r *interfaceMapResource[M, I]) mapValue(vals map[string]attr.Value, diags *diag.Diagnostics) types.Map {
	m, d := types.MapValue(r.entryType, vals)
	diags.Append(d...)
	return m
}

func (r *interfaceMapResource[M, I]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	ctx, plan, done := start[interfaceMapModel](ctx, &r.deviceResource, "create", r.mapTypeName, planOf(req.Plan), &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	r.write(ctx, "create", plan, nil, nil, resp.Private, &resp.State, &resp.Diagnostics)
}

func (r *interfaceMapResource[M, I]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	ctx, plan, st, done := startUpdate[interfaceMapModel](ctx, &r.deviceResource, r.mapTypeName, req, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	priors, d := readPriors(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.write(ctx, "update", plan, entries(st.Interfaces), priors, resp.Private, &resp.State, &resp.Diagnostics)
}

// write applies a create or update (op) from the entries before (with their priors) to the
// plan's, and records it: the entries as written, their priors in private state, the plan as
// the state. A failed apply records nothing (apply has restored the device).
func (r *interfaceMapResource[M, I]) write(ctx context.Context, op string, plan interfaceMapModel, before map[string]attr.Value,
	priors map[string]driver.Prior, priv privateSetter, state *tfsdk.State, diags *diag.Diagnostics) {
	out, newPriors, ok := r.apply(ctx, op, plan.Device, before, entries(plan.Interfaces), priors, diags)
	if !ok {
		return
	}
	plan.Interfaces = r.mapValue(out, diags)
	diags.Append(writePriors(ctx, priv, newPriors)...)
	diags.Append(tfmodel.SetState(ctx, state, plan)...)
}

func (r *interfaceMapResource[M, I]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	ctx, st, done := startOnState[interfaceMapModel](ctx, &r.deviceResource, "delete", r.mapTypeName, req.State, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	priors, d := readPriors(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.apply(ctx, "delete", st.Device, entries(st.Interfaces), nil, priors, &resp.Diagnostics)
}

func (r *interfaceMapResource[M, I]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	ctx, st, done := startOnState[interfaceMapModel](ctx, &r.deviceResource, "read", r.mapTypeName, req.State, &resp.Diagnostics)
	defer done(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	out, changed := r.read(ctx, st.Device, entries(st.Interfaces), &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !changed {
		return // the state the framework copied into the response stays as it is
	}
	st.Interfaces = r.mapValue(out, &resp.Diagnostics)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, st)...)
}

// read refreshes the entries old from the device: each as the per-interface resource's Read
// renders it, an entry whose interface is gone from the device left out (the per-interface
// resource leaves the state). changed is false when the device holds what old says. Every
// entry reads the device's per-process snapshot (the one the other resources read too), so
// the whole map costs one device read.
func (r *interfaceMapResource[M, I]) read(ctx context.Context, device types.String, old map[string]attr.Value,
	diags *diag.Diagnostics) (out map[string]attr.Value, changed bool) {
	drv, err := r.open(r.registry(), device.ValueString())
	if err != nil {
		diags.AddError(fmt.Sprintf("Cannot read %s on device %q", r.what, device.ValueString()), err.Error())
		return nil, false
	}
	out = make(map[string]attr.Value, len(old))
	for _, key := range sortedKeys(old) {
		m, ok, d := r.entry(ctx, device, key, old[key])
		diags.Append(d...)
		if !ok {
			continue
		}
		var managed *I
		if !m.imported() {
			in, d := m.intent(ctx)
			diags.Append(entryDiags(key, d)...)
			managed = &in
		}
		got, err := drv.Read(ctx, key, managed)
		if err != nil {
			diags.AddAttributeError(path.Root("interfaces").AtMapKey(key),
				fmt.Sprintf("Cannot read %s of %q on device %q", r.what, key, device.ValueString()), err.Error())
			continue
		}
		if got == nil && m.imported() {
			// The per-interface resource's import of it fails likewise (Terraform: "Cannot
			// import non-existent remote object").
			diags.AddAttributeError(path.Root("interfaces").AtMapKey(key), "Cannot import non-existent interface",
				fmt.Sprintf("The import ID names interface %q, which device %q does not have (or has no %s of).", key, device.ValueString(), r.what))
			continue
		}
		if got == nil {
			changed = true
			continue
		}
		if managed != nil && reflect.DeepEqual(*managed, *got) {
			out[key] = old[key]
			continue
		}
		prior := &m
		if m.imported() {
			prior = nil
		}
		v, d := r.entryValue(ctx, r.fromIntent(device.ValueString(), *got, prior))
		diags.Append(d...)
		out[key] = v
		changed = changed || !v.Equal(old[key])
	}
	return out, changed
}

// ImportState takes `<device>/<interface>,<interface>...`: a device has interfaces the
// resource must not manage, so the import names the ones it does.
func (r *interfaceMapResource[M, I]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	device, keys, null, ok := r.importEntries(ctx, req.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	vals := map[string]attr.Value{}
	for _, k := range keys {
		obj, d := types.ObjectValue(r.entryType.AttrTypes, null)
		resp.Diagnostics.Append(d...)
		vals[k] = obj
	}
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, interfaceMapModel{
		ID: types.StringValue(device), Device: types.StringValue(device), Interfaces: r.mapValue(vals, &resp.Diagnostics)})...)
}

// importEntries reads an import ID `<device>/<interface>,<interface>...` of a map or group
// resource: the device, the interfaces, and the entry's attributes all null, which the
// per-interface model reads as an imported one (interfaceModel.imported), so Read fills it from
// the device as the per-interface resource's import does.
func (r *interfaceMapResource[M, I]) importEntries(ctx context.Context, id string, diags *diag.Diagnostics) (device string, keys []string,
	null map[string]attr.Value, ok bool) {
	device, list, ok := r.importID(id, "interface>,<interface>,...", "leaf-1/Ethernet0,Ethernet4", diags)
	if !ok {
		return "", nil, nil, false
	}
	keys, err := importInterfaces(list)
	if err != nil {
		diags.AddError("Invalid import ID", fmt.Sprintf("Import ID %q: %s", id, err))
		return "", nil, nil, false
	}
	null = make(map[string]attr.Value, len(r.entryType.AttrTypes))
	for name, t := range r.entryType.AttrTypes {
		v, err := t.ValueFromTerraform(ctx, tftypes.NewValue(t.TerraformType(ctx), nil))
		if err != nil {
			diags.AddError("Provider bug", err.Error())
			return "", nil, nil, false
		}
		null[name] = v
	}
	return device, keys, null, true
}

// importInterfaces splits an import ID's comma-separated interface list.
func importInterfaces(list string) ([]string, error) {
	var out []string
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		switch {
		case k == "":
			return nil, errors.New("an interface name is empty; list the interfaces as <device>/<interface>,<interface>, for example leaf-1/Ethernet0,Ethernet4")
		case slices.Contains(out, k):
			return nil, fmt.Errorf("interface %q is listed twice", k)
		}
		out = append(out, k)
	}
	return out, nil
}

// portClaims catch one interface's settings managed by a per-interface resource and by a map
// resource at once, which would undo each other (each restores, when removed, what the
// device had before it). Every resource planned in one provider run (one Terraform walk: the
// provider is configured anew for each) claims the interfaces it plans to keep, under the
// per-interface resource type and the claiming resource type; a second resource type
// claiming the same interface is an error in the plan of the one planned second. Two resources of the
// same type claiming one interface are not told apart from one resource planned twice, so
// they go unnoticed here (DESIGN.md).
type portClaims struct {
	mu    sync.Mutex
	owner map[string]string
}

// claim records that owner (a resource type) manages ifname's settings of kind on device and
// returns the other resource type that already does, if any.
func (c *portClaims) claim(kind, device, ifname, owner string) (other string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.owner == nil {
		c.owner = map[string]string{}
	}
	key := kind + "\x00" + device + "\x00" + ifname
	if o, ok := c.owner[key]; ok && o != owner {
		return o
	}
	c.owner[key] = owner
	return ""
}

// claimAs claims the interfaces keys of device for owner; at gives an interface's path.
func (r *interfaceResource[M, I]) claimAs(owner string, device types.String, keys map[string]attr.Value, at func(string) path.Path,
	diags *diag.Diagnostics) {
	if r.pd == nil || !r.pd.known || device.IsUnknown() || device.IsNull() {
		return
	}
	for _, key := range sortedKeys(keys) {
		if other := r.pd.claims.claim(r.typeName, device.ValueString(), key, owner); other != "" {
			diags.AddAttributeError(at(key), "Interface managed by two resources",
				fmt.Sprintf("The %s of %q on device %q are managed both by a %s and by a %s of this configuration. "+
					"Each would restore, when removed, what the device had before it, undoing the other: manage the interface in one of them. "+
					"To move it from one to the other, remove it from the first in one apply and add it to the second in the next "+
					"(or move it in the state with `terraform state rm` and `terraform import`).",
					r.what, key, device.ValueString(), other, owner))
		}
	}
}

func (r *interfaceResource[M, I]) claim(device types.String, keys map[string]attr.Value, diags *diag.Diagnostics) {
	r.claimAs(r.typeName, device, keys, func(string) path.Path { return path.Root("interface") }, diags)
}

func (r *interfaceMapResource[M, I]) claim(device types.String, keys map[string]attr.Value, diags *diag.Diagnostics) {
	r.claimAs(r.mapTypeName, device, keys, func(k string) path.Path { return path.Root("interfaces").AtMapKey(k) }, diags)
}

// sortedKeys are m's keys in order: entries are checked, written and reported in a stable order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
