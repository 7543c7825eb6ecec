package lab

import (
	"context"
	"slices"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

// gnmiFaultTarget is a gNMI switch under test: a Set that creates an object named n, and the
// path that reads it back.
type gnmiFaultTarget struct {
	name  string
	write func(n string) *gpb.SetRequest
	path  func(n string) *gpb.Path
	// rejectCode and rejectText are the switch's answer to a Set FaultReject refuses
	// (faults.md; sonic-switch.md, "Set").
	rejectCode codes.Code
	rejectText string
}

func TestOpenConfigFaults(t *testing.T) {
	gnmiFaults(t, sharedLab(t), gnmiFaultTarget{
		name: "openconfig-1", // the shared switch whose tests use their own object names
		write: func(n string) *gpb.SetRequest {
			return labtest.SetReq(labtest.Update(t, "/qos/queues/queue[name="+n+"]", `{"name":"`+n+`","config":{"name":"`+n+`"}}`))
		},
		path: func(n string) *gpb.Path {
			p := labtest.Path(t, "/qos/queues/queue[name="+n+"]")
			p.Origin = "openconfig"
			return p
		},
		rejectCode: codes.FailedPrecondition,
		rejectText: "configuration is locked by another session: commit in progress, try again later",
	})
}

func TestSONiCFaults(t *testing.T) {
	l := startLab(t, Options{Switches: map[string]int{"sonic": 1}, Ports: 2})
	gnmiFaults(t, l, gnmiFaultTarget{
		name: "sonic-1",
		write: func(n string) *gpb.SetRequest {
			return &gpb.SetRequest{Update: []*gpb.Update{labtest.SONiCUpdate("SCHEDULER/"+n, `{"type":"DWRR","weight":"50"}`)}}
		},
		path:       func(n string) *gpb.Path { return labtest.SONiCPath("SCHEDULER/" + n) },
		rejectCode: codes.Unknown,
		rejectText: "Error: Failed to apply patch on the following scopes:",
	})
}

func gnmiFaults(t *testing.T, l *Lab, tg gnmiFaultTarget) {
	d := entry(t, l, tg.name)
	ep, _ := l.devices[tg.name].(interface{ Counters() Counters })
	ctx := labtest.Ctx(t)
	c := labtest.Dial(t, d)
	ready := grpc.WaitForReady(true) // after a fault, wait out the client's reconnection backoff
	unfault := func() {
		t.Helper()
		if err := l.ClearFaults(tg.name); err != nil {
			t.Fatal(err)
		}
	}
	inject := func(k FaultKind) {
		t.Helper()
		if err := l.InjectFault(tg.name, k); err != nil {
			t.Fatal(err)
		}
	}
	// present reads object n back: nil, or NotFound when the switch does not have it.
	present := func(n string) error {
		_, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{tg.path(n)}, Encoding: gpb.Encoding_JSON_IETF}, ready)
		return err
	}
	if _, err := c.Capabilities(ctx, &gpb.CapabilityRequest{}); err != nil {
		t.Fatal(err)
	}
	// The shared openconfig switch must look untouched to the tests after this one.
	t.Cleanup(func() {
		_ = l.ClearFaults(tg.name)
		del := &gpb.SetRequest{}
		for _, n := range []string{"fault-drop", "fault-reject", "fault-stall"} {
			del.Delete = append(del.Delete, tg.path(n))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := c.Set(ctx, del, ready); err != nil {
			t.Errorf("clean-up: %v", err)
		}
	})

	t.Run("refuse", func(t *testing.T) {
		inject(FaultRefuse)
		_, err := c.Capabilities(ctx, &gpb.CapabilityRequest{})
		labtest.WantCode(t, err, codes.Unavailable)
		_, err = labtest.Dial(t, d).Capabilities(ctx, &gpb.CapabilityRequest{})
		labtest.WantCode(t, err, codes.Unavailable)
		unfault()
		if _, err := c.Capabilities(ctx, &gpb.CapabilityRequest{}, ready); err != nil {
			t.Fatalf("after ClearFaults: %v", err)
		}
	})

	t.Run("drop", func(t *testing.T) {
		inject(FaultDrop)
		labtest.WantCode(t, present("fault-drop"), codes.NotFound) // a read does not fire it
		if got := l.Faults(tg.name); !slices.Equal(got, []FaultKind{FaultDrop}) {
			t.Fatalf("faults %v", got)
		}
		sets := ep.Counters().Set
		_, err := c.Set(ctx, tg.write("fault-drop"))
		labtest.WantCode(t, err, codes.Unavailable)
		if got := ep.Counters().Set; got != sets+1 {
			t.Errorf("the dropped Set was not counted: %d -> %d", sets, got)
		}
		if got := l.Faults(tg.name); len(got) != 0 {
			t.Errorf("the drop did not disarm: %v", got)
		}
		labtest.WantCode(t, present("fault-drop"), codes.NotFound)
		if _, err := c.Set(ctx, tg.write("fault-drop"), ready); err != nil {
			t.Fatalf("the Set after the drop: %v", err)
		}
		if err := present("fault-drop"); err != nil {
			t.Errorf("the Set after the drop did not apply: %v", err)
		}
	})

	t.Run("reject", func(t *testing.T) {
		inject(FaultReject)
		_, err := c.Set(ctx, tg.write("fault-reject"))
		labtest.WantStatus(t, "reject", err, tg.rejectCode, tg.rejectText)
		labtest.WantCode(t, present("fault-reject"), codes.NotFound)
		if got := l.Faults(tg.name); len(got) != 0 {
			t.Errorf("the reject did not disarm: %v", got)
		}
		if _, err := c.Set(ctx, tg.write("fault-reject")); err != nil {
			t.Fatalf("the Set after the reject: %v", err)
		}
		if err := present("fault-reject"); err != nil {
			t.Errorf("the Set after the reject did not apply: %v", err)
		}
	})

	t.Run("stall", func(t *testing.T) {
		conns := ep.Counters().Connections
		inject(FaultStall)
		short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		_, err := c.Capabilities(short, &gpb.CapabilityRequest{})
		labtest.WantCode(t, err, codes.DeadlineExceeded)
		wantStalled(t, "Set", func() (string, error) {
			_, err := c.Set(ctx, tg.write("fault-stall"))
			return "", err
		}, unfault)
		if err := present("fault-stall"); err != nil {
			t.Errorf("the released Set did not apply: %v", err)
		}
		if got := ep.Counters().Connections; got != conns {
			t.Errorf("the stall cost connections: %d -> %d", conns, got)
		}
	})

	t.Run("slow", func(t *testing.T) {
		const by = 300 * time.Millisecond
		if err := l.InjectSlow(tg.name, by); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := c.Capabilities(ctx, &gpb.CapabilityRequest{}); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took < by {
			t.Errorf("a slow switch answered in %s, want at least %s", took, by)
		}
		unfault()
		if _, err := c.Capabilities(ctx, &gpb.CapabilityRequest{}); err != nil {
			t.Fatal(err)
		}
	})
}
