package sonic

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// Overlap is by path: one path containing the other (the same field; a key or table written
// or deleted whole and anything in it). Different keys, and different fields of one key, do
// not overlap.
func TestOverlap(t *testing.T) {
	cases := []struct {
		name string
		a, b func(t *testing.T) *gpb.SetRequest
		want bool
	}{
		{"the same field", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, "3", "PORT_QOS_MAP", "Ethernet0", "pfc_enable"))
		},
			func(*testing.T) *gpb.SetRequest {
				return setReq([]*gpb.Path{del("PORT_QOS_MAP", "Ethernet0", "pfc_enable")})
			}, true},
		{"a key whole and a field in it", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, map[string]string{"type": "DWRR"}, "SCHEDULER", "scheduler.0"))
		}, func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, "15", "SCHEDULER", "scheduler.0", "weight"))
		}, true},
		{"a table deleted whole and a key in it", func(*testing.T) *gpb.SetRequest { return setReq([]*gpb.Path{del("WRED_PROFILE")}) },
			func(t *testing.T) *gpb.SetRequest {
				return setReq(nil, upd(t, map[string]string{"ecn": "ecn_all"}, "WRED_PROFILE", "ROCE"))
			}, true},
		{"different keys of one table", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, map[string]string{"type": "DWRR"}, "SCHEDULER", "scheduler.0"))
		}, func(*testing.T) *gpb.SetRequest { return setReq([]*gpb.Path{del("SCHEDULER", "scheduler.1")}) }, false},
		{"different fields of one key", func(t *testing.T) *gpb.SetRequest {
			return setReq(nil, upd(t, "5m", "CABLE_LENGTH", "AZURE", "Ethernet0"))
		},
			func(t *testing.T) *gpb.SetRequest {
				return setReq(nil, upd(t, "5m", "CABLE_LENGTH", "AZURE", "Ethernet4"))
			}, false},
		{"a path this package would not build", func(*testing.T) *gpb.SetRequest {
			return &gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin}, Delete: []*gpb.Path{{Elem: []*gpb.PathElem{{Name: "APPL_DB"}}}}}
		}, func(t *testing.T) *gpb.SetRequest { return setReq(nil, upd(t, "x", "PORT", "Ethernet8", "alias")) }, true},
	}
	for _, c := range cases {
		a, b := c.a(t), c.b(t)
		if got := Overlap(a, b); got != c.want {
			t.Errorf("%s: Overlap = %v, want %v", c.name, got, c.want)
		}
		if got := Overlap(b, a); got != c.want {
			t.Errorf("%s (the other way round): Overlap = %v, want %v", c.name, got, c.want)
		}
	}
}

// Requests that do not overlap, combined, leave CONFIG_DB as they do one after the other, in
// either order: the combined request's deletes all run before its updates (sonic-gnmi), which
// is why overlapping ones are never combined. The one-after-the-other sequence with a field
// delete that empties a key and a field update of another field of it is the edge: the key
// goes, and the update makes it again, either way.
func TestCombineIsOneAfterAnother(t *testing.T) {
	base := afterSetBase(t, "dynamic")
	reqs := []*gpb.SetRequest{
		setReq([]*gpb.Path{del("PORT_QOS_MAP", "Ethernet0", "pfc_enable")}, upd(t, "AZURE", "PORT_QOS_MAP", "Ethernet4", "dscp_to_tc_map")),
		setReq(nil, upd(t, "ROCE", "PORT_QOS_MAP", "Ethernet0", "tc_to_queue_map")),
		setReq([]*gpb.Path{del("WRED_PROFILE", "AZURE_LOSSLESS", "ecn")}, upd(t, map[string]string{"type": "STRICT"}, "SCHEDULER", "scheduler.1")),
		setReq(nil, upd(t, "ecn_green", "WRED_PROFILE", "AZURE_LOSSLESS", "wred_green_enable")),
	}
	for i, a := range reqs {
		for _, b := range reqs[i+1:] {
			if Overlap(a, b) {
				t.Fatalf("fixture: %v and %v overlap", a, b)
			}
		}
	}
	chained := func(order []*gpb.SetRequest) *DB {
		db := base
		for _, r := range order {
			next, err := db.AfterSet(r)
			if err != nil {
				t.Fatal(err)
			}
			db = next
		}
		return db
	}
	combined := Combine(reqs)
	if n := len(combined.GetDelete()) + len(combined.GetUpdate()); n != 6 {
		t.Fatalf("the combined request has %d operations, want the 6 of its parts", n)
	}
	got, err := base.AfterSet(combined)
	if err != nil {
		t.Fatal(err)
	}
	reversed := []*gpb.SetRequest{reqs[3], reqs[2], reqs[1], reqs[0]}
	for name, order := range map[string][]*gpb.SetRequest{"in order": reqs, "reversed": reversed} {
		if diff := cmp.Diff(chained(order).tables, got.tables); diff != "" {
			t.Errorf("combined differs from one after the other (%s) (-one by one +combined):\n%s", name, diff)
		}
	}
	if diff := cmp.Diff(afterSetBase(t, "dynamic").tables, base.tables); diff != "" {
		t.Errorf("AfterSet changed the snapshot it was given:\n%s", diff)
	}
}

func TestEmptySet(t *testing.T) {
	if !EmptySet(&gpb.SetRequest{Prefix: &gpb.Path{Origin: Origin}}) {
		t.Error("a request with no operation is empty")
	}
	if EmptySet(setReq([]*gpb.Path{del("PORT")})) {
		t.Error("a request with a delete is not empty")
	}
}
