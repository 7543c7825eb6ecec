package driver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/cumulus"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/nvue"
)

// nvueConn is a Cumulus switch's NVUE session as the drivers use it (*nvue.Client): GETs of the
// applied configuration, and one revision a write. Tests put a fake switch behind it.
type nvueConn interface {
	Get(ctx context.Context, path string) ([]byte, error)
	GetOperational(ctx context.Context, path string) ([]byte, error)
	GetOperationalIncluding(ctx context.Context, path string, include ...string) ([]byte, error)
	Apply(ctx context.Context, ops []nvue.Op) error
}

// nvueTree reads the switch's applied qos and interface objects (two GETs).
type nvueTree struct {
	c nvueConn
	reads
}

func openNVUE(reg *devices.Registry, device string) (nvueTree, error) {
	c, err := reg.NVUE(device)
	if err != nil {
		return nvueTree{}, err
	}
	return nvueTree{c, newReads(reg, device)}, nil
}

// snap is the applied configuration as this process first read it, for refreshes.
func (n nvueTree) snap(ctx context.Context) (*cumulus.Tree, error) {
	return devices.Snapshot(ctx, n.reg, n.device, "nvue applied", n.read)
}

func (n nvueTree) read(ctx context.Context) (*cumulus.Tree, error) {
	qos, err := n.c.Get(ctx, "/qos")
	if err != nil {
		return nil, err
	}
	iface, err := n.c.Get(ctx, "/interface")
	if err != nil {
		return nil, err
	}
	t, err := cumulus.ParseTree(qos, iface)
	if err != nil {
		return nil, fmt.Errorf("device %q: %w", n.device, err)
	}
	return t, nil
}

// apply stages ops into one revision and applies it, then drops the snapshot.
func (n nvueTree) apply(ctx context.Context, ops []cumulus.Op) error {
	if len(ops) == 0 {
		return nil
	}
	defer n.wrote()
	out := make([]nvue.Op, len(ops))
	for i, op := range ops {
		out[i] = nvue.Op{Method: op.Method, Path: op.Path, Body: op.Body}
	}
	return n.c.Apply(ctx, out)
}

// auditCumulus is roce_fabric_audit's read of a Cumulus switch (DESIGN.md, Data sources).
func auditCumulus(ctx context.Context, reg *devices.Registry, device string, ports []string) (fabric.Fabric, error) {
	t, err := openNVUE(reg, device)
	if err != nil {
		return fabric.Fabric{}, err
	}
	return t.audit(ctx, ports)
}

// audit is the QoS each port applies (cumulus.Tree.Effective), from the snapshot of the applied
// configuration the refreshes share.
func (n nvueTree) audit(ctx context.Context, ports []string) (fabric.Fabric, error) {
	t, err := n.snap(ctx)
	if err != nil {
		return fabric.Fabric{}, err
	}
	policies, pfcs := t.Effective(ports)
	return switchFabric(n.device, policies, pfcs), nil
}

type cumulusQoS struct{ nvueTree }

var openCumulusQoS = over(openNVUE, func(t nvueTree) QoSPolicy { return cumulusQoS{t} })

func (d cumulusQoS) Read(ctx context.Context, name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, error) {
	// The mapping profile holds every DSCP, not which DSCPs a class listed.
	return readInKnownForm(ctx, d.snap, func(t *cumulus.Tree) (*fabric.QoSPolicy, bool) { return t.Policy(name, known) },
		known, cumulus.Canonical)
}

func (d cumulusQoS) Create(ctx context.Context, p fabric.QoSPolicy) (Prior, error) {
	t, err := d.read(ctx)
	if err != nil {
		return nil, err
	}
	if _, ok := t.Policy(p.Name, nil); ok {
		return nil, ErrExists
	}
	ops, prior := t.Create(p)
	if err := d.apply(ctx, ops); err != nil {
		return nil, err
	}
	return json.Marshal(prior)
}

func (d cumulusQoS) Update(ctx context.Context, old, next fabric.QoSPolicy, raw Prior) (Prior, error) {
	prior, err := decodeAs[cumulus.Prior](raw)
	if err != nil {
		return nil, err
	}
	t, err := d.read(ctx)
	if err != nil {
		return nil, err
	}
	if old.Name != next.Name {
		if _, ok := t.Policy(next.Name, nil); ok {
			return nil, fmt.Errorf("renaming policy %q to %q: %w", old.Name, next.Name, ErrExists)
		}
	}
	ops, prior := t.Update(old, next, prior)
	if err := d.apply(ctx, ops); err != nil {
		return nil, err
	}
	return json.Marshal(prior)
}

func (d cumulusQoS) Delete(ctx context.Context, old fabric.QoSPolicy, raw Prior) error {
	prior, err := decodeAs[cumulus.Prior](raw)
	if err != nil {
		return err
	}
	t, err := d.read(ctx)
	if err != nil {
		return err
	}
	return d.apply(ctx, t.Delete(old, prior))
}

// cumulusPFC is roce_pfc_interface on a Cumulus switch: the port's PFC watchdog.
type cumulusPFC struct{ nvueTree }

var openCumulusPFC = over(openNVUE, func(t nvueTree) PFCInterface { return cumulusPFC{t} })

// cumulusPFCPrior records the port's watchdog state before the resource ("" when unset).
type cumulusPFCPrior struct {
	Watchdog string `json:"watchdog"`
}

// Check needs nothing from the device at plan time.
func (d cumulusPFC) Check(context.Context, string) error { return nil }

func (d cumulusPFC) Read(ctx context.Context, port string, _ *fabric.PFCInterface) (*fabric.PFCInterface, error) {
	t, err := d.snap(ctx)
	if err != nil {
		return nil, err
	}
	return t.PFC(port), nil
}

// write makes the port's settings next (nil: the delete) from a fresh read; raw nil records the
// watchdog state the port has now.
func (d cumulusPFC) write(ctx context.Context, next *fabric.PFCInterface, port string, raw Prior) (Prior, error) {
	t, err := d.read(ctx)
	if err != nil {
		return nil, err
	}
	prior := cumulusPFCPrior{Watchdog: t.WatchdogState(port)}
	if raw != nil {
		if err := json.Unmarshal(raw, &prior); err != nil {
			return nil, fmt.Errorf("private state is unreadable: %w", err)
		}
	}
	if next != nil {
		if err := t.CheckPFCAgainst(*next); err != nil {
			return nil, err
		}
	}
	if err := d.apply(ctx, t.WritePFC(port, next, prior.Watchdog)); err != nil {
		return nil, err
	}
	return json.Marshal(prior)
}

func (d cumulusPFC) Create(ctx context.Context, p fabric.PFCInterface) (Prior, error) {
	return d.write(ctx, &p, p.Interface, nil)
}

func (d cumulusPFC) Update(ctx context.Context, _, next fabric.PFCInterface, prior Prior) (Prior, error) {
	return d.write(ctx, &next, next.Interface, prior)
}

func (d cumulusPFC) Delete(ctx context.Context, old fabric.PFCInterface, prior Prior) error {
	if prior == nil {
		prior = Prior(`{}`) // imported: nothing recorded, so the watchdog is unset
	}
	_, err := d.write(ctx, nil, old.Interface, prior)
	return err
}

// cumulusCounters reads the QoS counters of many ports with one operational GET of the
// interfaces, trimmed to their counters (cumulus.CountersInclude).
type cumulusCounters struct{ nvueTree }

var openCumulusCounters = over(openNVUE, func(t nvueTree) Counters { return cumulusCounters{t} })

// Counters: PFC pauses per switch priority; ECN marks and drops (queue and WRED discards)
// summed over the port's traffic classes and per traffic class, NVUE's egress-queue-stats being
// keyed by the traffic class each egress queue serves; Cumulus reports no CNP or sequence
// counters.
func (d cumulusCounters) Counters(ctx context.Context, ports []string) (map[string]InterfaceCounters, error) {
	for _, port := range ports {
		if !cumulus.ValidPort(port) {
			return nil, fmt.Errorf("interface %q is not a Cumulus switch port (swp<N> or swp<N>s<M>)", port)
		}
	}
	body, err := d.c.GetOperationalIncluding(ctx, cumulus.InterfacesPath, cumulus.CountersInclude(ports)...)
	if err != nil {
		return nil, err
	}
	got, err := cumulus.ParseInterfaceCounters(ports, body)
	if err != nil {
		return nil, fmt.Errorf("device %q: %w", d.device, err)
	}
	out := make(map[string]InterfaceCounters, len(got))
	for port, c := range got {
		ic := fromCounts(c.PFCRx, c.PFCTx, sumCounts(c.ECNMarked), sumCounts(c.Discards, c.WREDDiscards), nil, nil, nil)
		ic.QueueECNMarked = floats(c.ECNMarked)
		drops := map[int]float64{}
		for _, m := range []map[int]int64{c.Discards, c.WREDDiscards} {
			for tc, v := range m {
				drops[tc] += float64(v)
			}
		}
		if len(drops) > 0 {
			ic.QueueDropped = drops
		}
		out[port] = ic
	}
	return out, nil
}

// readCumulusLLDP reads every interface's LLDP neighbours and the switch's hostname: two
// operational GETs.
func readCumulusLLDP(ctx context.Context, reg *devices.Registry, device string) (fabric.DeviceNeighbors, error) {
	t, err := openNVUE(reg, device)
	if err != nil {
		return fabric.DeviceNeighbors{}, err
	}
	return t.lldp(ctx)
}

func (n nvueTree) lldp(ctx context.Context) (fabric.DeviceNeighbors, error) {
	ifs, err := n.c.GetOperational(ctx, cumulus.InterfacesPath)
	if err != nil {
		return fabric.DeviceNeighbors{}, err
	}
	sys, err := n.c.GetOperational(ctx, cumulus.SystemPath)
	if err != nil {
		return fabric.DeviceNeighbors{}, err
	}
	out, err := cumulus.ParseLLDP(ifs, sys)
	if err != nil {
		return fabric.DeviceNeighbors{}, fmt.Errorf("device %q: %w", n.device, err)
	}
	return out, nil
}
