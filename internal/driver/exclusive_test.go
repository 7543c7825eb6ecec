package driver

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rocefabric/terraform-provider-roce/internal/devices"
	"github.com/rocefabric/terraform-provider-roce/internal/fabric"
)

// fakeSwitch stands for one switch's state as the drivers see it: whether a policy has made a
// traffic class lossless.
type fakeSwitch struct {
	lossless atomic.Bool
	pfcTries atomic.Int32
}

type fakePolicy struct {
	QoSPolicy
	sw *fakeSwitch
}

func (p fakePolicy) Create(context.Context, fabric.QoSPolicy) (Prior, error) {
	p.sw.lossless.Store(true)
	return nil, nil
}

type fakePFC struct {
	PFCInterface
	sw *fakeSwitch
}

func (p fakePFC) Create(context.Context, fabric.PFCInterface) (Prior, error) {
	p.sw.pfcTries.Add(1)
	if !p.sw.lossless.Load() {
		return nil, fabric.NeedsLossless{Reason: "needs a lossless class"}
	}
	return Prior("ok"), nil
}

func fakeRig(grace time.Duration) (*fakeSwitch, exclusiveQoS, exclusivePFC) {
	reg := devices.NewRegistry(map[string]devices.Device{"sw": {Name: "sw", Platform: "nxos", Address: "127.0.0.1:1"}}, nil)
	sw := &fakeSwitch{}
	x := exclusive{reg: reg, device: "sw", grace: grace}
	return sw, exclusiveQoS{fakePolicy{sw: sw}, x}, exclusivePFC{fakePFC{sw: sw}, x}
}

// A PFC interface Terraform starts before the policy (nothing orders them) waits for the
// policy's write and then applies: one apply converges in either order.
func TestPFCWaitsForThePolicyBesideIt(t *testing.T) {
	sw, qos, pfc := fakeRig(2 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		prior, err := pfc.Create(ctx, fabric.PFCInterface{Interface: "Ethernet1/1"})
		if err == nil && string(prior) != "ok" {
			err = errors.New("no prior")
		}
		done <- err
	}()
	// The policy starts once the interface has been refused, as Terraform may start it a moment
	// later.
	for sw.pfcTries.Load() == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("the PFC interface never tried")
		case <-time.After(time.Millisecond):
		}
	}
	if _, err := qos.Create(ctx, fabric.QoSPolicy{Name: "p"}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the PFC interface did not apply after the policy: %v", err)
	}
	if n := sw.pfcTries.Load(); n != 2 {
		t.Errorf("the PFC interface tried %d times, want 2 (refused, then after the policy)", n)
	}
}

// Without a policy, the refusal comes back once no other write comes within the grace; two
// such interfaces do not keep waking each other.
func TestPFCWithoutAPolicyFails(t *testing.T) {
	_, _, pfc := fakeRig(200 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = pfc.Create(ctx, fabric.PFCInterface{Interface: "Ethernet1/1"})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		var needs fabric.NeedsLossless
		if !errors.As(err, &needs) {
			t.Errorf("want the device's refusal, got %v", err)
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("two refused interfaces took %s: they keep waking each other", d)
	}
}
