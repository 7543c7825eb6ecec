package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
	"github.com/rocefabric/terraform-provider-roce/internal/platform/sonic"
	"github.com/rocefabric/terraform-provider-roce/internal/transport/gnmi"
)

// gnmiConn is a switch's gNMI session as the drivers use it (*gnmi.Client): Gets of config
// and state, and one SetRequest a write. Tests put a fake switch behind it.
type gnmiConn interface {
	Get(ctx context.Context, paths ...*gpb.Path) ([]gnmi.Update, error)
	GetAll(ctx context.Context, paths ...*gpb.Path) ([]gnmi.Update, error)
	GetState(ctx context.Context, paths ...*gpb.Path) ([]gnmi.Update, error)
	Set(ctx context.Context, req *gpb.SetRequest) error
}

// sonicDB reads the switch's CONFIG_DB in one Get.
type sonicDB struct {
	c gnmiConn
	reads
}

// sonicConfigDB is the snapshot kind of a SONiC switch's CONFIG_DB.
const sonicConfigDB = "sonic CONFIG_DB"

// snap is CONFIG_DB as this process knows it: read once (the first refresh or write), then
// kept up to date by the process's own accepted writes (write). Writes are built on it too,
// in the device's write turn, which the write queue holds from the snapshot to its update
// (devices.Write), so no other write of this process lands in between.
func (s sonicDB) snap(ctx context.Context) (*sonic.DB, error) {
	return devices.Snapshot(ctx, s.reg, s.device, sonicConfigDB, s.read)
}

// write builds one SetRequest with build on CONFIG_DB as this process knows it and sends it,
// coalesced with the other writes Terraform runs on this switch at the same time into one
// SetRequest where they touch no common key (devices.Write, sonic.Combine): the first write
// goes at once, the writes arriving while it is in flight go together when it is answered,
// each built on what the writes before it leave. When the switch accepts a request, the
// snapshot becomes CONFIG_DB with it applied (sonic.DB.AfterSet), so the next write needs no
// Get; a refused Set, or one whose outcome is unknown (a timeout, a dropped connection), drops
// the snapshot, as does a request whose result the switch's own daemons change (AfterSet's
// ErrNotKnown): the next write reads CONFIG_DB again. A refused combined Set changed nothing
// (sonic-gnmi applies a request as one patch), and its writes are each built again and sent
// alone, so the refusal reaches the resource at fault only. A request with nothing to change
// (the device already holds every value) is not sent: sonic-gnmi would skip it too.
//
// build may run more than once (after a refused combined Set); what it records for the
// caller must come from its last run.
func (s sonicDB) write(ctx context.Context, build func(db *sonic.DB) (*gpb.SetRequest, error)) error {
	return devices.Write(ctx, s.reg, s.device, devices.Writer[*sonic.DB, *gpb.SetRequest]{
		Kind:    sonicConfigDB,
		Fetch:   s.read,
		After:   (*sonic.DB).AfterSet,
		Overlap: sonic.Overlap,
		Combine: sonic.Combine,
		Empty:   sonic.EmptySet,
		Send:    s.c.Set,
		Refused: gnmi.Refused,
	}, build)
}

// queuesWrites: the device's write turn is taken per SetRequest by write, not per resource
// (exclusive.held).
func (sonicDB) queuesWrites() {}

func (s sonicDB) read(ctx context.Context) (*sonic.DB, error) {
	ups, err := s.c.GetAll(ctx, sonic.ReadPaths()...) // sonic-gnmi answers type ALL only
	if err != nil {
		return nil, err
	}
	raw := make([]*gpb.Update, 0, len(ups))
	for _, u := range ups {
		raw = append(raw, &gpb.Update{Path: u.Path, Val: &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: u.JSON}}})
	}
	db, err := sonic.ParseDB(raw)
	if err != nil {
		return nil, fmt.Errorf("device %q: reading CONFIG_DB: %w", s.device, err)
	}
	return db, nil
}

type sonicQoS struct{ sonicDB }

// openSONiCDB opens the device's gNMI session as a CONFIG_DB.
func openSONiCDB(reg *devices.Registry, device string) (sonicDB, error) {
	c, err := reg.GNMI(device)
	if err != nil {
		return sonicDB{}, err
	}
	return sonicDB{c, newReads(reg, device)}, nil
}

var openSONiCQoS = over(openSONiCDB, func(d sonicDB) QoSPolicy { return &sonicQoS{d} })

// sonicPrior is a SONiC policy's private state: each bound port's own PORT_QOS_MAP fields and
// QUEUE entries before the policy took it.
type sonicPrior struct {
	Ports map[string]sonic.PortBinding `json:"ports"`
}

func decodeSONiCPrior(raw Prior) (sonicPrior, error) {
	return decodeByPort(raw, func(p *sonicPrior) *map[string]sonic.PortBinding { return &p.Ports })
}

func (d *sonicQoS) Read(ctx context.Context, name string, known *fabric.QoSPolicy) (*fabric.QoSPolicy, error) {
	// The device keeps a whole DSCP map, not which DSCPs a class listed.
	return readInKnownForm(ctx, d.snap, func(db *sonic.DB) (*fabric.QoSPolicy, bool) { return db.PolicyWith(name, known) },
		known, sonic.Canonical)
}

// readInKnownForm is the Read of a platform whose device keeps a policy in another form than
// the one written (canonical): the policy lookup finds in the device's read (snap), nil when
// there is none, in known's form where the device agrees with it (inKnownForm).
func readInKnownForm[S any](ctx context.Context, snap func(context.Context) (S, error), lookup func(S) (*fabric.QoSPolicy, bool),
	known *fabric.QoSPolicy, canonical func(fabric.QoSPolicy) fabric.QoSPolicy) (*fabric.QoSPolicy, error) {
	s, err := snap(ctx)
	if err != nil {
		return nil, err
	}
	got, ok := lookup(s)
	if !ok {
		return nil, nil
	}
	return inKnownForm(known, got, canonical), nil
}

// inKnownForm is got as Read returns it: the recorded policy itself when it reads back the
// same in the platform's canonical form, else got in the recorded form where they agree; got
// on import (nothing recorded).
func inKnownForm(known, got *fabric.QoSPolicy, canonical func(fabric.QoSPolicy) fabric.QoSPolicy) *fabric.QoSPolicy {
	if known == nil {
		return got
	}
	if canonical(*known).Equal(*got) {
		return known
	}
	return keepKnownForm(*known, *got)
}

// keepKnownForm returns got with the recorded form wherever the device agrees with it, so a
// plan shows only what really changed: the DSCP lists and default_traffic_class when the
// device's whole DSCP map is the recorded one, and each class that reads back unchanged.
func keepKnownForm(known, got fabric.QoSPolicy) *fabric.QoSPolicy {
	out := got
	out.Classes = make(map[string]fabric.Class, len(got.Classes))
	sameMap := known.DSCPMap() == got.DSCPMap()
	if sameMap {
		out.DefaultTrafficClass = known.DefaultTrafficClass
	}
	for name, c := range got.Classes {
		k, ok := known.Classes[name]
		if ok && sameMap {
			c.DSCP = k.DSCP
			if len(k.PCP) == 0 {
				c.PCP = k.PCP
			}
		}
		if ok && c.Equal(k) {
			c = k
		}
		out.Classes[name] = c
	}
	return &out
}

func (d *sonicQoS) Create(ctx context.Context, p fabric.QoSPolicy) (Prior, error) {
	var prior sonicPrior
	err := d.write(ctx, func(db *sonic.DB) (*gpb.SetRequest, error) {
		if _, ok := db.Policy(p.Name); ok {
			return nil, ErrExists
		}
		prior = sonicPrior{Ports: map[string]sonic.PortBinding{}}
		for _, port := range p.Interfaces {
			prior.Ports[port] = db.PortFields(port)
		}
		return sonic.BuildSet(nil, &p, nil, db)
	})
	if err != nil {
		return nil, err
	}
	return json.Marshal(prior)
}

func (d *sonicQoS) Update(ctx context.Context, old, next fabric.QoSPolicy, raw Prior) (Prior, error) {
	if _, err := decodeSONiCPrior(raw); err != nil {
		return nil, err
	}
	var prior sonicPrior
	// The request is built against CONFIG_DB as this process knows it: sonic-gnmi takes a field
	// Update only where its key exists, and no delete that empties a table.
	err := d.write(ctx, func(db *sonic.DB) (*gpb.SetRequest, error) {
		prior, _ = decodeSONiCPrior(raw) // afresh on every build: it adds to prior.Ports
		for _, port := range next.Interfaces {
			// A port the last apply bound keeps what it had before that: when drift makes it
			// read as unbound (old lacks it), what the device has now is partly the policy's own.
			if _, recorded := prior.Ports[port]; !recorded && !slices.Contains(old.Interfaces, port) {
				prior.Ports[port] = db.PortFields(port)
			}
		}
		return sonic.BuildSet(&old, &next, prior.Ports, db)
	})
	if err != nil {
		return nil, err
	}
	return json.Marshal(sonicPrior{Ports: keptFor(next.Interfaces, prior.Ports)})
}

func (d *sonicQoS) Delete(ctx context.Context, old fabric.QoSPolicy, raw Prior) error {
	prior, err := decodeSONiCPrior(raw)
	if err != nil {
		return err
	}
	return d.write(ctx, func(db *sonic.DB) (*gpb.SetRequest, error) {
		return sonic.BuildSet(&old, nil, prior.Ports, db)
	})
}
