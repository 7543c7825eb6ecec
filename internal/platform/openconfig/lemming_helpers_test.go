package openconfig

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	lemminggnmi "github.com/openconfig/lemming/gnmi"
	"github.com/openconfig/lemming/gnmi/oc"
	"github.com/openconfig/ygot/ygot"
	"github.com/openconfig/ygot/ytypes"
	"google.golang.org/grpc"
)

// device is an in-process lemming gNMI target, set up like the lab's openconfig switch.
type device struct {
	t   *testing.T
	srv *lemminggnmi.Server
}

func newDevice(t *testing.T, ports int) *device {
	t.Helper()
	srv, err := lemminggnmi.New(grpc.NewServer(), "dut", nil)
	if err != nil {
		t.Fatal(err)
	}
	d := &device{t: t, srv: srv}
	req := &gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin}}
	for i := 1; i <= ports; i++ {
		name := fmt.Sprintf("Ethernet%d", i)
		p := &gpb.Path{Elem: []*gpb.PathElem{{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": name}}}}
		req.Update = append(req.Update, &gpb.Update{Path: p, Val: mustJSON(t, obj{"name": name,
			"config": obj{"name": name, "type": "iana-if-type:ethernetCsmacd"}})})
	}
	if err := d.set(req); err != nil {
		t.Fatalf("populate interfaces: %v", err)
	}
	return d
}

func mustJSON(t *testing.T, v any) *gpb.TypedValue {
	t.Helper()
	tv, err := jsonIETF(v)
	if err != nil {
		t.Fatal(err)
	}
	return tv
}

// set is a client's Set. It calls the server directly: LocalClient().Set writes lemming's
// operational-state datastore, which skips schema and leafref validation.
func (d *device) set(req *gpb.SetRequest) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := d.srv.Set(ctx, req)
	return err
}

// leaves reads path with a Subscribe ONCE through LocalClient and returns every leaf.
func (d *device) leaves(path *gpb.Path) []*gpb.Notification {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sc, err := d.srv.LocalClient().Subscribe(ctx)
	if err != nil {
		d.t.Fatal(err)
	}
	err = sc.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{
		Prefix:       &gpb.Path{Target: "dut", Origin: path.Origin},
		Mode:         gpb.SubscriptionList_ONCE,
		Subscription: []*gpb.Subscription{{Path: &gpb.Path{Elem: path.Elem}}},
	}}})
	if err != nil {
		d.t.Fatal(err)
	}
	var out []*gpb.Notification
	for {
		// The local stream never reports EOF: the sync response ends a ONCE subscription.
		resp, err := sc.Recv()
		if err != nil {
			d.t.Fatalf("subscribe: %v", err)
		}
		if resp.GetSyncResponse() {
			return out
		}
		out = append(out, resp.GetUpdate())
	}
}

// readQoS returns /qos as a device's Get would: RFC 7951 JSON with module-prefixed members,
// wrapped as {"openconfig-qos:qos": {...}}. The leaves are rebuilt into lemming's generated
// structs and rendered by ygot.
func (d *device) readQoS() []byte {
	d.t.Helper()
	schema, err := oc.Schema()
	if err != nil {
		d.t.Fatal(err)
	}
	for _, n := range d.leaves(ReadPaths()[0]) {
		for _, u := range n.Update {
			p := &gpb.Path{Elem: append(append([]*gpb.PathElem{}, n.GetPrefix().GetElem()...), u.Path.Elem...)}
			if err := ytypes.SetNode(schema.RootSchema(), schema.Root, p, u.Val,
				&ytypes.InitMissingElements{}, &ytypes.PreferShadowPath{}); err != nil {
				d.t.Fatalf("rebuild %s: %v", pathKey(p), err)
			}
		}
	}
	qos := schema.Root.(*oc.Root).GetOrCreateQos()
	m, err := ygot.ConstructIETFJSON(qos, &ygot.RFC7951JSONConfig{AppendModuleName: true, PreferShadowPath: true})
	if err != nil {
		d.t.Fatal(err)
	}
	b, err := json.MarshalIndent(obj{"openconfig-qos:qos": m}, "", "  ")
	if err != nil {
		d.t.Fatal(err)
	}
	return b
}

// tree reads and parses /qos.
func (d *device) tree() *Tree {
	d.t.Helper()
	tr, err := ParseQoS(d.readQoS())
	if err != nil {
		d.t.Fatal(err)
	}
	return tr
}
