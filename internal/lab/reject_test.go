package lab

import (
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

// seed makes sure /qos exists on the switch, so "unchanged" compares content.
func seed(t *testing.T, c gpb.GNMIClient) {
	t.Helper()
	if _, err := c.Set(labtest.Ctx(t), labtest.SetReq(labtest.Update(t, "/qos/queues/queue[name=seed]", `{"name":"seed","config":{"name":"seed"}}`))); err != nil {
		t.Fatal(err)
	}
}

func TestInvalidSetChangesNothing(t *testing.T) {
	c := labtest.Dial(t, entry(t, sharedLab(t), "openconfig-1"))
	seed(t, c)
	valid := func() *gpb.Update {
		return labtest.Update(t, "/qos/queues/queue[name=q-mixed]", `{"name":"q-mixed","config":{"name":"q-mixed"}}`)
	}
	cases := []struct {
		name string
		req  *gpb.SetRequest
	}{
		{"unknown leaf", labtest.SetReq(labtest.Update(t, "/qos/queues/queue[name=q-bad]", `{"name":"q-bad","config":{"name":"q-bad","colour":"red"}}`))},
		{"string in uint8", labtest.SetReq(labtest.Update(t, "/qos/queue-management-profiles/queue-management-profile[name=p-bad]",
			`{"name":"p-bad","config":{"name":"p-bad"},"wred":{"uniform":{"config":{"max-drop-probability-percent":"lots"}}}}`))},
		{"uint8 out of range", labtest.SetReq(labtest.Update(t, "/qos/queue-management-profiles/queue-management-profile[name=p-bad]",
			`{"name":"p-bad","config":{"name":"p-bad"},"wred":{"uniform":{"config":{"max-drop-probability-percent":300}}}}`))},
		{"leafref to missing queue", labtest.SetReq(labtest.Update(t, "/qos/forwarding-groups/forwarding-group[name=fg-bad]",
			`{"name":"fg-bad","config":{"name":"fg-bad","output-queue":"no-such-queue"}}`))},
		{"config container path", labtest.SetReq(labtest.Update(t, "/qos/queues/queue[name=q-cfg]/config", `{"name":"q-cfg"}`))},
		{"valid then invalid", labtest.SetReq(valid(),
			labtest.Update(t, "/qos/queues/queue[name=q-bad]", `{"name":"q-bad","config":{"name":"q-bad","colour":"red"}}`))},
		{"invalid then valid", labtest.SetReq(
			labtest.Update(t, "/qos/queues/queue[name=q-bad]", `{"name":"q-bad","config":{"name":"q-bad","colour":"red"}}`), valid())},
		{"non-OpenConfig origin", &gpb.SetRequest{Prefix: &gpb.Path{Origin: "lemming-internal"},
			Update: []*gpb.Update{labtest.Update(t, "/qos/queues/queue[name=q-bad]", `{"name":"q-bad"}`)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := labtest.MustGet(t, c, "/qos")
			_, err := c.Set(labtest.Ctx(t), tc.req)
			labtest.WantCode(t, err, codes.InvalidArgument)
			if after := labtest.MustGet(t, c, "/qos"); after != before {
				t.Fatalf("rejected Set changed /qos\nbefore: %s\n after: %s", before, after)
			}
			_, err = labtest.Get(labtest.Ctx(t), c, labtest.Path(t, "/qos/queues/queue[name=q-mixed]"))
			labtest.WantCode(t, err, codes.NotFound)
		})
	}
}

// lemming lets its own reconcilers write unvalidated state through request
// metadata; a network client sending the same metadata must still be
// validated.
func TestClientCannotSelectStateMode(t *testing.T) {
	c := labtest.Dial(t, entry(t, sharedLab(t), "openconfig-1"))
	seed(t, c)
	before := labtest.MustGet(t, c, "/qos")
	ctx := metadata.AppendToOutgoingContext(labtest.Ctx(t), "gnmi-mode", "state")
	_, err := c.Set(ctx, labtest.SetReq(labtest.Update(t, "/qos/forwarding-groups/forwarding-group[name=fg-state]",
		`{"name":"fg-state","config":{"name":"fg-state","output-queue":"no-such-queue"}}`)))
	labtest.WantCode(t, err, codes.InvalidArgument)
	if after := labtest.MustGet(t, c, "/qos"); after != before {
		t.Fatalf("state-mode Set changed /qos:\n%s", after)
	}
}

func TestFailNextSet(t *testing.T) {
	l := sharedLab(t)
	c := labtest.Dial(t, entry(t, l, "openconfig-1"))
	seed(t, c)
	req := labtest.SetReq(labtest.Update(t, "/qos/queues/queue[name=q-fault]", `{"name":"q-fault","config":{"name":"q-fault"}}`))
	before := labtest.MustGet(t, c, "/qos")

	l.Switch("openconfig-1").FailNextSet("configuration locked by another session")
	_, err := c.Set(labtest.Ctx(t), req)
	labtest.WantStatus(t, "the failed Set", err, codes.FailedPrecondition, "configuration locked by another session")
	if after := labtest.MustGet(t, c, "/qos"); after != before {
		t.Fatalf("failed Set changed /qos:\n%s", after)
	}

	if _, err := c.Set(labtest.Ctx(t), req); err != nil {
		t.Fatalf("the Set after the failed one: %v", err)
	}
	if got := labtest.MustGet(t, c, "/qos/queues/queue[name=q-fault]/config/name"); got != `"q-fault"` {
		t.Errorf("got %s", got)
	}

	// union_replace is refused before anything is read (gnmiswitch.Endpoint.RefuseSet, as on sonic).
	before = labtest.MustGet(t, c, "/qos")
	_, err = c.Set(labtest.Ctx(t), &gpb.SetRequest{UnionReplace: req.GetUpdate()})
	labtest.WantStatus(t, "union_replace", err, codes.Unimplemented, "union_replace is not supported")
	if after := labtest.MustGet(t, c, "/qos"); after != before {
		t.Fatalf("union_replace changed /qos:\n%s", after)
	}
}

func TestReplaceAndDelete(t *testing.T) {
	c := labtest.Dial(t, entry(t, sharedLab(t), "openconfig-1"))
	ctx := labtest.Ctx(t)
	seed(t, c)
	fg := "/qos/forwarding-groups/forwarding-group[name=fg-replace]"
	if _, err := c.Set(ctx, labtest.SetReq(labtest.Update(t, fg, `{"name":"fg-replace","config":{"name":"fg-replace","output-queue":"seed"}}`))); err != nil {
		t.Fatal(err)
	}
	// Replace with a body that leaves output-queue out removes it.
	_, err := c.Set(ctx, &gpb.SetRequest{Prefix: &gpb.Path{Origin: "openconfig"},
		Replace: []*gpb.Update{labtest.Update(t, fg, `{"name":"fg-replace","config":{"name":"fg-replace"}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	labtest.JSONEqual(t, labtest.MustGet(t, c, fg), `{"openconfig-qos:config":{"name":"fg-replace"},"openconfig-qos:name":"fg-replace"}`)

	if _, err := c.Set(ctx, &gpb.SetRequest{Prefix: &gpb.Path{Origin: "openconfig"}, Delete: []*gpb.Path{labtest.Path(t, fg)}}); err != nil {
		t.Fatal(err)
	}
	_, err = labtest.Get(ctx, c, labtest.Path(t, fg))
	labtest.WantCode(t, err, codes.NotFound)
}

// lemming accepts writes to config-false leaves and drops them; a device
// refuses them, and so must the lab.
func TestStateIsReadOnly(t *testing.T) {
	c := labtest.Dial(t, entry(t, sharedLab(t), "openconfig-1"))
	seed(t, c)
	cases := map[string]*gpb.SetRequest{
		"state leaf": labtest.SetReq(&gpb.Update{Path: labtest.Path(t, "/qos/queues/queue[name=seed]/state/name"),
			Val: &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: "seed"}}}),
		"state in body": labtest.SetReq(labtest.Update(t, "/qos/queues/queue[name=seed]", `{"name":"seed","state":{"name":"seed"}}`)),
		"delete state":  {Delete: []*gpb.Path{labtest.Path(t, "/qos/queues/queue[name=seed]/state")}},
	}
	for name, req := range cases {
		t.Run(name, func(t *testing.T) {
			before := labtest.MustGet(t, c, "/qos")
			_, err := c.Set(labtest.Ctx(t), req)
			labtest.WantCode(t, err, codes.InvalidArgument)
			if after := labtest.MustGet(t, c, "/qos"); after != before {
				t.Fatalf("rejected Set changed /qos:\n%s", after)
			}
		})
	}
}
