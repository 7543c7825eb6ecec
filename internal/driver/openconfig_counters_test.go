package driver

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/ygot/ygot"

	"github.com/rocefabric/terraform-provider-roce/internal/transport/gnmi"
)

// fakeOnce is an OpenConfig switch behind gnmiOnce: it holds leaves (path -> JSON value) and
// answers each Subscribe ONCE with the leaves under its paths, a "*" key matching any value,
// as a streaming target does; it counts the RPCs.
type fakeOnce struct {
	leaves []gnmi.Update
	calls  int
}

func (f *fakeOnce) SubscribeOnce(_ context.Context, prefix *gpb.Path, paths ...*gpb.Path) ([]gnmi.Update, error) {
	f.calls++
	var out []gnmi.Update
	for _, l := range f.leaves {
		for _, p := range paths {
			if under(l.Path.GetElem(), append(slices.Clone(prefix.GetElem()), p.GetElem()...)) {
				out = append(out, l)
				break
			}
		}
	}
	return out, nil
}

// under reports whether a leaf's path lies below a subscription's, wildcards matching.
func under(leaf, sub []*gpb.PathElem) bool {
	if len(leaf) < len(sub) {
		return false
	}
	for i, e := range sub {
		if e.GetName() != leaf[i].GetName() {
			return false
		}
		for k, v := range e.GetKey() {
			if v != "*" && leaf[i].GetKey()[k] != v {
				return false
			}
		}
	}
	return true
}

// ocLab is the lab switch's answer to the every-port read (platform/openconfig's testdata):
// Ethernet1-4, queues gold (queue-id 3) and bulk (queue-id 0) on Ethernet2 in a storm.
func ocLab(t *testing.T) *fakeOnce {
	t.Helper()
	f := &fakeOnce{}
	for _, l := range strings.Split(strings.TrimSpace(platformFixture(t, "openconfig/counters-subscribe-lab.txt")), "\n") {
		p, v, _ := strings.Cut(l, "\t")
		path, err := ygot.StringToStructuredPath(p)
		if err != nil {
			t.Fatal(err)
		}
		f.leaves = append(f.leaves, gnmi.Update{Path: path, JSON: []byte(v)})
	}
	return f
}

// Two ports are read with one Subscribe, and so is every port; each queue's counters land
// under its queue-id.
func TestOpenConfigCountersOneRead(t *testing.T) {
	f := ocLab(t)
	d := ocCounters{f, "sw"}
	for _, tc := range []struct {
		ports, want []string
	}{
		{[]string{"Ethernet2", "Ethernet3"}, []string{"Ethernet2", "Ethernet3"}},
		{nil, []string{"Ethernet1", "Ethernet2", "Ethernet3", "Ethernet4"}},
	} {
		f.calls = 0
		got, err := d.Counters(context.Background(), tc.ports)
		if err != nil {
			t.Fatal(err)
		}
		if f.calls != 1 {
			t.Errorf("ports %v: %d reads, want one for the switch", tc.ports, f.calls)
		}
		if ports := slices.Sorted(maps.Keys(got)); !slices.Equal(ports, tc.want) {
			t.Fatalf("ports %v: read %v", tc.ports, ports)
		}
		e2 := got["Ethernet2"]
		if *e2.ECNMarked != 40150 || *e2.Dropped != 2400 || e2.QueueECNMarked[3] != 40150 || e2.QueueDropped[0] != 2000 ||
			e2.QueueWatermarkBytes[3] != 4154000 || e2.PFCRxPause != nil || got["Ethernet3"].QueueDropped != nil {
			t.Errorf("ports %v: Ethernet2 %+v", tc.ports, e2)
		}
	}
}

// A port the switch lacks fails the read and is named.
func TestOpenConfigCountersMissingPort(t *testing.T) {
	d := ocCounters{ocLab(t), "sw"}
	_, err := d.Counters(context.Background(), []string{"Ethernet2", "Ethernet9"})
	if err == nil || !strings.HasPrefix(err.Error(), `device "sw": openconfig: the device has no interface "Ethernet9"`) {
		t.Errorf("got %v", err)
	}
}
