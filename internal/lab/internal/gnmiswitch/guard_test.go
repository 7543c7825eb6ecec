package gnmiswitch

import (
	"context"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/labtest"
)

// TestGuardUnauthenticated: each platform refuses credentials it does not take with its own
// text (openconfig-switch.md, "Access and faults (shared with sonic)"): a missing password, a
// wrong one, a wrong username.
func TestGuardUnauthenticated(t *testing.T) {
	for platform, want := range map[string]string{"openconfig": "Authentication failed", "sonic": "Unauthenticated"} {
		g := &guard{username: "admin", password: "secret", counters: &rpcCounters{}, faults: &fault.Set{}, conns: &fault.Conns{},
			unauthenticated: gnmiUnauthenticatedText[platform]}
		for _, md := range []metadata.MD{
			metadata.Pairs("username", "admin"),
			metadata.Pairs("username", "admin", "password", "wrong"),
			metadata.Pairs("username", "root", "password", "secret"),
		} {
			err := g.admit(metadata.NewIncomingContext(context.Background(), md), "/gnmi.gNMI/Get")
			labtest.WantStatus(t, platform, err, codes.Unauthenticated, want)
		}
		if err := g.admit(metadata.NewIncomingContext(context.Background(), metadata.Pairs("username", "admin", "password", "secret")), "/gnmi.gNMI/Get"); err != nil {
			t.Errorf("%s: the right credentials: %v", platform, err)
		}
	}
	for platform := range gnmiRejectText {
		if gnmiUnauthenticatedText[platform] == "" {
			t.Errorf("%s has a reject text but no Unauthenticated text", platform)
		}
	}
}

// TestStopClosesStalledCalls: a call stalled when the switch stops reads its connection closing,
// as when a device goes down under it.
func TestStopClosesStalledCalls(t *testing.T) {
	sw := labtest.Start[*Switch](t, Start, labtest.Spec(t, "openconfig", 2, ""))
	c := labtest.Dial(t, sw.Entry())
	if _, err := c.Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{}, grpc.WaitForReady(true)); err != nil {
		t.Fatal(err)
	}
	sw.FaultSet().Arm(fault.Stall)
	done := make(chan error, 1)
	go func() {
		_, err := c.Capabilities(labtest.Ctx(t), &gpb.CapabilityRequest{})
		done <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); sw.FaultSet().Stalled() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the call never stalled")
		}
	}
	sw.Stop()
	err := <-done
	labtest.WantCode(t, err, codes.Unavailable)
	if strings.Contains(err.Error(), "shutting down") {
		t.Errorf("the stalled call read the lab's own status, not its connection closing: %v", err)
	}
}
