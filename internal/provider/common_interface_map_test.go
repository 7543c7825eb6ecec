package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/driver"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// fakePFC is a switch's PFC ports as a driver sees them: what each port has, every write in
// order, and a port whose writes the device refuses.
type fakePFC struct {
	mu     sync.Mutex // a map apply writes its entries concurrently
	ports  map[string]fabric.PFCInterface
	writes []string
	refuse string
	reads  int
}

func (f *fakePFC) Check(context.Context, string) error { return nil }

func (f *fakePFC) Read(_ context.Context, port string, _ *fabric.PFCInterface) (*fabric.PFCInterface, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	p, ok := f.ports[port]
	if !ok {
		return nil, nil
	}
	return &p, nil
}

func (f *fakePFC) write(op string, p fabric.PFCInterface) (driver.Prior, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p.Interface == f.refuse {
		return nil, errors.New("rejected by the device")
	}
	before, err := json.Marshal(f.ports[p.Interface])
	f.writes = append(f.writes, op+" "+p.Interface)
	f.ports[p.Interface] = p
	return before, err
}

func (f *fakePFC) Create(_ context.Context, p fabric.PFCInterface) (driver.Prior, error) {
	return f.write("create", p)
}

func (f *fakePFC) Update(_ context.Context, _, next fabric.PFCInterface, prior driver.Prior) (driver.Prior, error) {
	_, err := f.write("update", next)
	return prior, err // the prior is what the port had before it was first managed
}

func (f *fakePFC) Delete(_ context.Context, old fabric.PFCInterface, prior driver.Prior) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if old.Interface == f.refuse {
		return errors.New("rejected by the device")
	}
	var p fabric.PFCInterface
	if err := json.Unmarshal(prior, &p); err != nil {
		return err
	}
	f.writes = append(f.writes, "delete "+old.Interface)
	f.ports[old.Interface] = p
	return nil
}

// stockPorts are four ports as a switch ships them: PFC off.
func stockPorts() map[string]fabric.PFCInterface {
	out := map[string]fabric.PFCInterface{}
	for _, p := range []string{"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12"} {
		out[p] = fabric.PFCInterface{Interface: p, Mode: fabric.PFCModeOff}
	}
	return out
}

// pfcMap is roce_pfc_interfaces' resource.
type pfcMap = interfaceMapResource[pfcInterfaceModel, fabric.PFCInterface]

// leaf1 is the device of the map tests' entries.
var leaf1 = types.StringValue("leaf-1")

// fakePFCMap is roce_pfc_interfaces writing to ops instead of a device.
func fakePFCMap(ops interfaceOps[fabric.PFCInterface]) *pfcMap {
	r, _ := newPFCInterfacesResource().(*pfcMap)
	r.open = func(*devices.Registry, string) (interfaceOps[fabric.PFCInterface], error) { return ops, nil }
	return r
}

// createdPFCMap is roce_pfc_interfaces on a fake switch with the stock ports after a create
// of the entries modes (pfcEntries): the switch, the resource, the entries and their priors.
func createdPFCMap(t *testing.T, modes map[string]string) (*fakePFC, *pfcMap, map[string]attr.Value, map[string]driver.Prior) {
	t.Helper()
	f := &fakePFC{ports: stockPorts()}
	r := fakePFCMap(f)
	v := pfcEntries(t, r, modes)
	var diags diag.Diagnostics
	_, priors, ok := r.apply(context.Background(), "create", leaf1, nil, v, nil, &diags)
	if !ok || diags.HasError() {
		t.Fatalf("create: %v", diags)
	}
	return f, r, v, priors
}

// pfcEntries are map entries: port -> mode (PFC on with a watchdog when "on").
func pfcEntries(t *testing.T, r *pfcMap, modes map[string]string) map[string]attr.Value {
	t.Helper()
	out := map[string]attr.Value{}
	for port, mode := range modes {
		p := fabric.PFCInterface{Interface: port, Mode: mode}
		if mode == fabric.PFCModeOn {
			p.Watchdog = &fabric.PFCWatchdog{Action: fabric.WatchdogDrop, DetectionTimeMs: 200, RestorationTimeMs: 400}
		}
		v, diags := r.entryValue(context.Background(), pfcFromIntent("leaf-1", p, nil))
		if diags.HasError() {
			t.Fatal(diags)
		}
		out[port] = v
	}
	return out
}

// sameValidators compares schema validators by type and by what they document: each Schema
// call builds its own (some hold functions, which reflect cannot compare).
var sameValidators = cmp.Options{
	cmp.Comparer(func(a, b validator.String) bool { return sameValidator(a, b) }),
	cmp.Comparer(func(a, b validator.Int64) bool { return sameValidator(a, b) }),
	cmp.Comparer(func(a, b validator.Map) bool { return sameValidator(a, b) }),
	cmp.Comparer(func(a, b validator.Set) bool { return sameValidator(a, b) }),
	cmp.Comparer(func(a, b validator.Object) bool { return sameValidator(a, b) }),
	cmp.Comparer(func(a, b validator.Bool) bool { return sameValidator(a, b) }),
	cmp.Comparer(func(a, b validator.List) bool { return sameValidator(a, b) }),
}

func sameValidator(a, b validator.Describer) bool {
	ctx := context.Background()
	return fmt.Sprintf("%T", a) == fmt.Sprintf("%T", b) && a.MarkdownDescription(ctx) == b.MarkdownDescription(ctx)
}

// The map resource's schema is the per-interface resource's, entry by entry: nothing copied
// by hand can drift from it.
func TestInterfaceMapSchemaDerives(t *testing.T) {
	for _, c := range []struct {
		one, many resource.Resource
	}{
		{newPFCInterfaceResource(), newPFCInterfacesResource()},
		{newNICQoSResource(), newNICQoSInterfacesResource()},
		{newDCQCNProfileResource(), newDCQCNInterfacesResource()},
	} {
		one, many := resourceAttrs(c.one), resourceAttrs(c.many)
		ifaces, ok := many["interfaces"].(schema.MapNestedAttribute)
		if !ok {
			t.Fatalf("%T: interfaces is %T", c.many, many["interfaces"])
		}
		entry := ifaces.NestedObject.Attributes
		if len(entry) != len(one)-3 {
			t.Errorf("%T: entry has %d attributes, the per-interface resource %d less id/device/interface", c.many, len(entry), len(one))
		}
		for name, a := range entry {
			if d := cmp.Diff(one[name], a, sameValidators); d != "" {
				t.Errorf("%T: entry attribute %s differs from the per-interface one (-one +entry):\n%s", c.many, name, d)
			}
		}
		var resp resource.SchemaResponse
		c.many.Schema(context.Background(), resource.SchemaRequest{}, &resp)
		if diags := resp.Schema.ValidateImplementation(context.Background()); diags.HasError() {
			t.Errorf("%T: %v", c.many, diags)
		}
	}
}

// A problem the per-interface resource reports on one of its attributes lands on the same
// attribute inside the entry at fault; the device stays the map resource's own.
func TestEntryPath(t *testing.T) {
	for _, c := range []struct{ in, want path.Path }{
		{path.Root("mode"), path.Root("interfaces").AtMapKey("Ethernet4").AtName("mode")},
		{path.Root("buffer").AtName("xoff_bytes"), path.Root("interfaces").AtMapKey("Ethernet4").AtName("buffer").AtName("xoff_bytes")},
		{path.Root("ets").AtMapKey("3").AtName("bandwidth_percent"), path.Root("interfaces").AtMapKey("Ethernet4").AtName("ets").AtMapKey("3").AtName("bandwidth_percent")},
		{path.Root("interface"), path.Root("interfaces").AtMapKey("Ethernet4")},
		{path.Root("device"), path.Root("device")},
	} {
		if got := entryPath("Ethernet4", c.in); !got.Equal(c.want) {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

// Validation runs the per-interface checks on each entry and reports each mistake on the
// entry's attribute.
func TestInterfaceMapValidationOnEntry(t *testing.T) {
	r := fakePFCMap(&fakePFC{ports: stockPorts()})
	ctx := context.Background()
	good := pfcEntries(t, r, map[string]string{"Ethernet0": "on"})["Ethernet0"].(types.Object) //nolint:forcetypeassert // entryValue's
	bad, _ := r.trim(good.Attributes(), map[string]attr.Value{"link_pause": types.BoolValue(true)})
	var diags diag.Diagnostics
	for key, v := range map[string]attr.Value{"Ethernet0": good, "Ethernet4": bad} {
		m, ok, d := r.entry(ctx, leaf1, key, v)
		diags.Append(d...)
		if !ok {
			t.Fatal("entry has no model")
		}
		in, d := m.intent(ctx)
		diags.Append(entryDiags(key, d)...)
		diags.Append(entryProblems(key, in.Validate())...)
	}
	if len(diags) != 1 {
		t.Fatalf("diagnostics %v, want one on Ethernet4's link_pause", diags)
	}
	wp, _ := diags[0].(diag.DiagnosticWithPath)
	if want := path.Root("interfaces").AtMapKey("Ethernet4").AtName("link_pause"); wp == nil || !wp.Path().Equal(want) ||
		!strings.HasPrefix(diags[0].Detail(), `Interface "Ethernet4": `) {
		t.Errorf("diagnostic %v, want it on %s, its detail naming the entry", diags[0], want)
	}
}

// An apply writes only the entries that change: added ones are created, changed ones
// updated, removed ones restored to what the port had before it was managed.
func TestInterfaceMapApplyWritesOnlyChanges(t *testing.T) {
	f, r, v1, priors := createdPFCMap(t, map[string]string{"Ethernet0": "on", "Ethernet4": "on", "Ethernet8": "on"})
	ctx := context.Background()
	slices.Sort(f.writes) // written concurrently
	if want := []string{"create Ethernet0", "create Ethernet4", "create Ethernet8"}; !reflect.DeepEqual(f.writes, want) {
		t.Errorf("create wrote %v, want %v", f.writes, want)
	}
	f.writes = nil
	var diags diag.Diagnostics
	v2 := pfcEntries(t, r, map[string]string{"Ethernet0": "on", "Ethernet4": "auto", "Ethernet12": "on"})
	_, priors, ok := r.apply(ctx, "update", leaf1, v1, v2, priors, &diags)
	if !ok || diags.HasError() {
		t.Fatal(diags)
	}
	slices.Sort(f.writes)
	if want := []string{"create Ethernet12", "delete Ethernet8", "update Ethernet4"}; !reflect.DeepEqual(f.writes, want) {
		t.Errorf("update wrote %v, want %v (Ethernet0 unchanged, not written)", f.writes, want)
	}
	if got := f.ports["Ethernet8"]; !reflect.DeepEqual(got, stockPorts()["Ethernet8"]) {
		t.Errorf("removed entry Ethernet8 left %+v, want the stock port back", got)
	}
	if _, ok := priors["Ethernet8"]; ok || len(priors) != 3 {
		t.Errorf("priors %v: want one per entry of the new map", priors)
	}
	f.writes = nil
	r.apply(ctx, "delete", leaf1, v2, nil, priors, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if !reflect.DeepEqual(f.ports, stockPorts()) {
		t.Errorf("destroy left %+v, want the stock ports", f.ports)
	}
}

// A refused entry undoes the entries already written in the apply: the device is as before,
// and apply says there is nothing to record (the state stays).
func TestInterfaceMapRefusalRollsBack(t *testing.T) {
	f, r, v1, priors := createdPFCMap(t, map[string]string{"Ethernet0": "on", "Ethernet4": "on", "Ethernet8": "on"})
	ctx := context.Background()
	var diags diag.Diagnostics
	applied := map[string]fabric.PFCInterface{}
	for k, v := range f.ports {
		applied[k] = v
	}
	// Ethernet0 removed, Ethernet4 changed, Ethernet12 refused.
	f.refuse = "Ethernet12"
	v2 := pfcEntries(t, r, map[string]string{"Ethernet4": "auto", "Ethernet8": "on", "Ethernet12": "on"})
	_, _, ok := r.apply(ctx, "update", leaf1, v1, v2, priors, &diags)
	if ok || !diags.HasError() {
		t.Fatalf("refused apply: ok %v, diagnostics %v", ok, diags)
	}
	if !reflect.DeepEqual(f.ports, applied) {
		t.Errorf("after the refusal the device has %+v, want %+v as before the apply", f.ports, applied)
	}
	wp, _ := diags[0].(diag.DiagnosticWithPath)
	if want := path.Root("interfaces").AtMapKey("Ethernet12"); wp == nil || !wp.Path().Equal(want) ||
		!strings.Contains(diags[0].Detail(), "rejected by the device") || !strings.Contains(diags[0].Detail(), "restored") {
		t.Errorf("diagnostic %v: want the refusal on %s, saying the entries were restored", diags[0], want)
	}
	// A destroy the device refuses on one entry manages again the entries it had restored:
	// the resource stays, and so does what it manages.
	f.refuse = "Ethernet8"
	diags = nil
	_, _, ok = r.apply(ctx, "delete", leaf1, v1, nil, priors, &diags)
	if ok || !reflect.DeepEqual(f.ports, applied) {
		t.Errorf("refused destroy: ok %v, device %+v, want %+v", ok, f.ports, applied)
	}
	// A refused first create leaves nothing behind either.
	f2 := &fakePFC{ports: stockPorts(), refuse: "Ethernet8"}
	diags = nil
	if _, _, ok := fakePFCMap(f2).apply(ctx, "create", leaf1, nil, v1, nil, &diags); ok || !reflect.DeepEqual(f2.ports, stockPorts()) {
		t.Errorf("refused create: ok %v, device %+v", ok, f2.ports)
	}
}

// Read renders drift on the entry that drifted, leaves an unchanged map alone and drops an
// entry whose interface is gone, as the per-interface resource leaves the state.
func TestInterfaceMapRead(t *testing.T) {
	f, r, v1, _ := createdPFCMap(t, map[string]string{"Ethernet0": "on", "Ethernet4": "on"})
	ctx := context.Background()
	var diags diag.Diagnostics
	if _, changed := r.read(ctx, leaf1, v1, &diags); changed || diags.HasError() {
		t.Fatalf("read of an unchanged device: changed %v, %v", changed, diags)
	}
	p := f.ports["Ethernet4"]
	p.Watchdog = &fabric.PFCWatchdog{Action: fabric.WatchdogDrop, DetectionTimeMs: 800, RestorationTimeMs: 400}
	f.ports["Ethernet4"] = p
	delete(f.ports, "Ethernet0")
	got, changed := r.read(ctx, leaf1, v1, &diags)
	if !changed || diags.HasError() {
		t.Fatalf("read of drift: changed %v, %v", changed, diags)
	}
	if _, ok := got["Ethernet0"]; ok || len(got) != 1 {
		t.Errorf("entries %v: want Ethernet0, gone from the device, left out", got)
	}
	wd := got["Ethernet4"].(types.Object).Attributes()["watchdog"].(types.Object).Attributes()["detection_time_ms"] //nolint:forcetypeassert // entryValue's
	if !wd.Equal(types.Int64Value(800)) {
		t.Errorf("Ethernet4 detection_time_ms %v, want the device's 800", wd)
	}
}

// An import that names an interface the device does not have fails, as the per-interface
// resource's import of it does, instead of leaving the entry out.
func TestInterfaceMapImportMissing(t *testing.T) {
	r := fakePFCMap(&fakePFC{ports: stockPorts()})
	ctx := context.Background()
	null := map[string]attr.Value{}
	for name, typ := range r.entryType.AttrTypes {
		v, _ := typ.ValueFromTerraform(ctx, tftypes.NewValue(typ.TerraformType(ctx), nil))
		null[name] = v
	}
	imported := map[string]attr.Value{}
	for _, p := range []string{"Ethernet0", "Ethernet99"} {
		imported[p], _ = types.ObjectValue(r.entryType.AttrTypes, null)
	}
	var diags diag.Diagnostics
	got, _ := r.read(ctx, leaf1, imported, &diags)
	wp, _ := diags[0].(diag.DiagnosticWithPath)
	if len(diags) != 1 || wp == nil || !wp.Path().Equal(path.Root("interfaces").AtMapKey("Ethernet99")) {
		t.Errorf("diagnostics %v: want one on Ethernet99", diags)
	}
	if mode := got["Ethernet0"].(types.Object).Attributes()["mode"]; !mode.Equal(types.StringValue("off")) { //nolint:forcetypeassert // entryValue's
		t.Errorf("imported Ethernet0 mode %v, want the device's off", mode)
	}
}

func TestImportInterfaces(t *testing.T) {
	for in, want := range map[string]string{
		"Ethernet0,Ethernet4":   "[Ethernet0 Ethernet4]",
		"Ethernet0, Ethernet4":  "[Ethernet0 Ethernet4]",
		"Ethernet0,,Ethernet4":  "error: an interface name is empty",
		"Ethernet0,Ethernet0":   `error: interface "Ethernet0" is listed twice`,
		"Ethernet1/1,Ethernet2": "[Ethernet1/1 Ethernet2]",
	} {
		got, err := importInterfaces(in)
		s := fmt.Sprint(got)
		if err != nil {
			s = "error: " + err.Error()
		}
		if !strings.HasPrefix(s, want) {
			t.Errorf("%q: got %s, want %s", in, s, want)
		}
	}
}

// An interface in a per-interface resource and a map resource of one run is an error on the
// one planned second; a resource planned again (apply re-plans) is not.
func TestPortClaims(t *testing.T) {
	var c portClaims
	if o := c.claim("roce_pfc_interface", "leaf-1", "Ethernet0", "roce_pfc_interfaces"); o != "" {
		t.Fatal(o)
	}
	if o := c.claim("roce_pfc_interface", "leaf-1", "Ethernet0", "roce_pfc_interfaces"); o != "" {
		t.Errorf("the same resource type again: %q", o)
	}
	if o := c.claim("roce_pfc_interface", "leaf-1", "Ethernet0", "roce_pfc_interface"); o != "roce_pfc_interfaces" {
		t.Errorf("claim by the per-interface resource: %q, want the map resource named", o)
	}
	if o := c.claim("roce_pfc_interface", "leaf-2", "Ethernet0", "roce_pfc_interface"); o != "" {
		t.Errorf("another device: %q", o)
	}
	if o := c.claim("roce_nic_qos", "leaf-1", "Ethernet0", "roce_nic_qos"); o != "" {
		t.Errorf("another kind of settings: %q", o)
	}
}

// gatedPFC holds every create until all of an apply's entries are in flight: a map apply
// that wrote its entries one after the other would never release it.
type gatedPFC struct {
	*fakePFC
	arrived chan struct{}
	release chan struct{}
}

func (g gatedPFC) Create(ctx context.Context, p fabric.PFCInterface) (driver.Prior, error) {
	g.arrived <- struct{}{}
	select {
	case <-g.release:
	case <-time.After(10 * time.Second):
		return nil, errors.New("entries written one at a time: the others never arrived")
	}
	return g.fakePFC.Create(ctx, p)
}

// An apply sends its entries to the driver together (a SONiC switch coalesces them into few
// SetRequests); a refused entry gets the error, the entries written beside it are restored.
func TestInterfaceMapWritesEntriesTogether(t *testing.T) {
	f := &fakePFC{ports: stockPorts()}
	g := gatedPFC{fakePFC: f, arrived: make(chan struct{}), release: make(chan struct{})}
	r := fakePFCMap(g)
	ctx := context.Background()
	v := pfcEntries(t, r, map[string]string{"Ethernet0": "on", "Ethernet4": "on", "Ethernet8": "on", "Ethernet12": "on"})
	go func() {
		for range len(v) {
			<-g.arrived
		}
		close(g.release)
	}()
	var diags diag.Diagnostics
	if _, _, ok := r.apply(ctx, "create", leaf1, nil, v, nil, &diags); !ok || diags.HasError() {
		t.Fatalf("create: %v", diags)
	}

	f2 := &fakePFC{ports: stockPorts(), refuse: "Ethernet4"}
	r2 := fakePFCMap(f2)
	diags = nil
	bad := pfcEntries(t, r2, map[string]string{"Ethernet0": "on", "Ethernet4": "on", "Ethernet8": "on"})
	f2.refuse = "Ethernet4"
	if _, _, ok := r2.apply(ctx, "create", leaf1, nil, bad, nil, &diags); ok {
		t.Fatal("a refused entry must fail the apply")
	}
	if !reflect.DeepEqual(f2.ports, stockPorts()) {
		t.Errorf("after the refusal the device has %+v, want the stock ports", f2.ports)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Summary(), `"Ethernet4"`) {
		t.Errorf("diagnostics %v: want one error, on Ethernet4", diags)
	}
}
