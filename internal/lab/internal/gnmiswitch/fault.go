package gnmiswitch

// Fault injection on gNMI switches (`openconfig`, `sonic`): the listener (internal/fault)
// refuses connections and knows each open one by its client address, so the guard (guard.go)
// can drop the connection a Set arrived on. Stall, slow, drop and reject happen in the guard.

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

// gnmiReject is what a gNMI switch answers a Set refused by fault.Reject. sonic: a GCU failure as
// sonic-gnmi returns it (code Unknown, the first stderr line with "Error" in it; sonic-switch.md,
// "Set"). openconfig: assumed (lemming has no lock; a gNMI target's precondition failure;
// openconfig-switch.md, "Access and faults (shared with sonic)").
type gnmiReject struct {
	code codes.Code
	text string
}

var gnmiRejectText = map[string]gnmiReject{
	"openconfig": {codes.FailedPrecondition, "configuration is locked by another session: commit in progress, try again later"},
	"sonic":      {codes.Unknown, "Error: Failed to apply patch on the following scopes:"},
}

// closePeer closes the connection the RPC of ctx arrived on.
func closePeer(t *fault.Conns, ctx context.Context) {
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		t.CloseAddr(p.Addr.String())
	}
}

func (e *Endpoint) FaultSet() *fault.Set { return &e.faults }

func (e *Endpoint) CloseConns() { e.conns.CloseAll() }
