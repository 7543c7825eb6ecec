package gnmi

import (
	"context"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// onceTarget answers a Subscribe ONCE with two notifications and the sync_response, after
// failing the first failures attempts as unavailable; it keeps the requests.
type onceTarget struct {
	fakeTarget
	failures int
	reqs     []*gpb.SubscribeRequest
}

func (o *onceTarget) Subscribe(stream gpb.GNMI_SubscribeServer) error {
	req, err := stream.Recv()
	if err != nil {
		return err
	}
	o.reqs = append(o.reqs, req)
	if len(o.reqs) <= o.failures {
		return status.Error(codes.Unavailable, "restarting")
	}
	leaf := func(name string, v uint64) *gpb.Update {
		return &gpb.Update{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "state"}, {Name: name}}},
			Val: &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: v}}}
	}
	prefix := &gpb.Path{Origin: "openconfig", Target: "dut", Elem: []*gpb.PathElem{{Name: "queue", Key: map[string]string{"name": "3"}}}}
	for _, n := range []*gpb.Notification{
		{Prefix: prefix, Update: []*gpb.Update{leaf("dropped-pkts", 5)}},
		{Prefix: prefix, Update: []*gpb.Update{leaf("ecn-marked-pkts", 7)}, Delete: []*gpb.Path{{Elem: []*gpb.PathElem{{Name: "gone"}}}}},
	} {
		if err := stream.Send(&gpb.SubscribeResponse{Response: &gpb.SubscribeResponse_Update{Update: n}}); err != nil {
			return err
		}
	}
	if err := stream.Send(&gpb.SubscribeResponse{Response: &gpb.SubscribeResponse_SyncResponse{SyncResponse: true}}); err != nil {
		return err
	}
	<-stream.Context().Done() // a target may keep the stream open: the client ends it
	return nil
}

// One Subscribe ONCE, PROTO-encoded, with the configured target on the prefix; the updates
// until the sync_response, their paths joined with the notification's prefix; a transient
// failure is retried from the start.
func TestSubscribeOnce(t *testing.T) {
	o := &onceTarget{failures: 1}
	addr, ca := serve(t, o)
	c := fastClient(addr, ca, 2)
	c.cfg.Target = "dut"
	q := &gpb.Path{Elem: []*gpb.PathElem{{Name: "queues"}, {Name: "queue", Key: map[string]string{"name": "*"}}}}
	got, err := c.SubscribeOnce(context.Background(), &gpb.Path{Origin: "openconfig"}, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.reqs) != 2 {
		t.Fatalf("%d Subscribe calls, want 2 (one failure, one retry)", len(o.reqs))
	}
	sub := o.reqs[1].GetSubscribe()
	if sub.GetMode() != gpb.SubscriptionList_ONCE || sub.GetEncoding() != gpb.Encoding_PROTO ||
		sub.GetPrefix().GetTarget() != "dut" || sub.GetPrefix().GetOrigin() != "openconfig" || len(sub.GetSubscription()) != 1 {
		t.Errorf("request %v", sub)
	}
	var lines []string
	for _, u := range got {
		var names []string
		for _, e := range u.Path.GetElem() {
			names = append(names, e.GetName())
		}
		lines = append(lines, u.Path.GetOrigin()+":"+strings.Join(names, "/")+"="+string(u.JSON))
	}
	if s := strings.Join(lines, " "); s != "openconfig:queue/state/dropped-pkts=5 openconfig:queue/state/ecn-marked-pkts=7" {
		t.Errorf("updates %s", s)
	}
}
