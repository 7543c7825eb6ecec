package driver

import (
	"context"
	"strings"
	"testing"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

func openConfigTest(sw *fakeConfigDB) *openConfigQoS {
	return &openConfigQoS{c: sw, reads: newReads(testRegistry("openconfig", devices.Device{}), "sw")}
}

// On a switch without /qos (NotFound) a policy's create records each bound interface as
// unbound, update records a newly bound one and drops one let go, and each write is one Set.
func TestOpenConfigPolicyLifecycle(t *testing.T) {
	ctx := context.Background()
	sw := &fakeConfigDB{}
	qos := openConfigTest(sw)
	p := fabric.QoSPolicy{Name: "ROCE", Trust: fabric.TrustDSCP, Interfaces: []string{"Ethernet1", "Ethernet2"},
		Classes: map[string]fabric.Class{"roce": {TrafficClass: 3, DSCP: []int{26}, BandwidthPercent: fabric.Ptr(100)}}}
	if got, err := qos.Read(ctx, "ROCE", nil); err != nil || got != nil {
		t.Fatalf("read of a switch without /qos: %v %v", got, err)
	}
	raw, err := qos.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.sets) != 1 || len(sw.sets[0].GetReplace())+len(sw.sets[0].GetUpdate()) == 0 {
		t.Fatalf("create sent %v", sw.sets)
	}
	prior, err := decodeOCPrior(raw)
	if err != nil || len(prior.Bindings) != 2 {
		t.Fatalf("create recorded %s (%v): want both interfaces", raw, err)
	}
	next := p
	next.Interfaces = []string{"Ethernet2", "Ethernet3"}
	if raw, err = qos.Update(ctx, p, next, raw); err != nil {
		t.Fatal(err)
	}
	prior, err = decodeOCPrior(raw)
	if _, gone := prior.Bindings["Ethernet1"]; err != nil || gone || len(prior.Bindings) != 2 {
		t.Errorf("update recorded %s (%v): want Ethernet2 and Ethernet3", raw, err)
	}
	if err := qos.Delete(ctx, next, raw); err != nil {
		t.Fatal(err)
	}
	if len(sw.sets) != 3 || len(sw.sets[2].GetDelete()) == 0 {
		t.Errorf("delete sent %v", sw.sets[len(sw.sets)-1])
	}
	if err := qos.Delete(ctx, next, Prior("{")); err == nil {
		t.Error("corrupt private state must be an error")
	}
}

func TestOpenConfigUnexpectedAnswer(t *testing.T) {
	sw := &fakeConfigDB{other: map[string][]byte{"openconfig:/qos": []byte(`{`)}}
	if _, err := openConfigTest(sw).Create(context.Background(), fabric.QoSPolicy{Name: "ROCE"}); err == nil ||
		!strings.Contains(err.Error(), `device "sw": reading /qos`) {
		t.Errorf("an unreadable /qos: %v", err)
	}
	if len(sw.sets) != 0 {
		t.Errorf("sent %v", sw.sets)
	}
}
