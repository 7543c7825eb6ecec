package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/openconfig"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/gnmi"
)

type openConfigQoS struct {
	c gnmiConn
	reads
}

func openOpenConfigQoS(reg *devices.Registry, device string) (QoSPolicy, error) {
	c, err := reg.GNMI(device)
	if err != nil {
		return nil, err
	}
	return &openConfigQoS{c: c, reads: newReads(reg, device)}, nil
}

// ocPrior is what an openconfig policy keeps in private state: each bound interface's
// bindings before the policy took it over.
type ocPrior struct {
	Bindings map[string]openconfig.Binding `json:"bindings"`
}

func (d *openConfigQoS) tree(ctx context.Context) (*openconfig.Tree, error) {
	ups, err := d.c.Get(ctx, openconfig.ReadPaths()...)
	if gnmi.NotFound(err) {
		return openconfig.ParseQoS([]byte("{}"))
	}
	if err != nil {
		return nil, err
	}
	if len(ups) != 1 {
		return nil, fmt.Errorf("device %q answered a Get of /qos with %d values, want 1", d.device, len(ups))
	}
	t, err := openconfig.ParseQoS(ups[0].JSON)
	if err != nil {
		return nil, fmt.Errorf("device %q: reading /qos: %w", d.device, err)
	}
	return t, nil
}

func (d *openConfigQoS) Read(ctx context.Context, name string, _ *fabric.QoSPolicy) (*fabric.QoSPolicy, error) {
	t, err := devices.Snapshot(ctx, d.reg, d.device, "openconfig /qos", d.tree)
	if err != nil {
		return nil, err
	}
	return found(t.Policy(name)), nil
}

func (d *openConfigQoS) Create(ctx context.Context, p fabric.QoSPolicy) (Prior, error) {
	t, err := d.tree(ctx)
	if err != nil {
		return nil, err
	}
	if _, ok := t.Policy(p.Name); ok {
		return nil, ErrExists
	}
	prior := ocPrior{Bindings: map[string]openconfig.Binding{}}
	for _, ifname := range p.Interfaces {
		prior.Bindings[ifname] = t.Bindings(ifname)
	}
	if err := d.set(ctx, nil, &p, nil); err != nil {
		return nil, err
	}
	return json.Marshal(prior)
}

func (d *openConfigQoS) Update(ctx context.Context, old, next fabric.QoSPolicy, raw Prior) (Prior, error) {
	prior, err := decodeOCPrior(raw)
	if err != nil {
		return nil, err
	}
	var added []string
	for _, ifname := range next.Interfaces {
		if !slices.Contains(old.Interfaces, ifname) {
			added = append(added, ifname)
		}
	}
	if len(added) > 0 {
		t, err := d.tree(ctx)
		if err != nil {
			return nil, err
		}
		for _, ifname := range added {
			prior.Bindings[ifname] = t.Bindings(ifname)
		}
	}
	if err := d.set(ctx, &old, &next, prior.Bindings); err != nil {
		return nil, err
	}
	return json.Marshal(ocPrior{Bindings: keptFor(next.Interfaces, prior.Bindings)})
}

func (d *openConfigQoS) Delete(ctx context.Context, old fabric.QoSPolicy, raw Prior) error {
	prior, err := decodeOCPrior(raw)
	if err != nil {
		return err
	}
	return d.set(ctx, &old, nil, prior.Bindings)
}

func (d *openConfigQoS) set(ctx context.Context, old, next *fabric.QoSPolicy, restore map[string]openconfig.Binding) error {
	req, err := openconfig.BuildSet(old, next, restore)
	if err != nil {
		return err
	}
	defer d.wrote()
	return d.c.Set(ctx, req)
}

// decodeOCPrior reads private state; an imported policy has none, and then destroy removes our
// bindings instead of restoring earlier ones.
func decodeOCPrior(raw Prior) (ocPrior, error) {
	return decodeByPort(raw, func(p *ocPrior) *map[string]openconfig.Binding { return &p.Bindings })
}
