package lab

// Fault injection on gNMI switches (`openconfig`, `sonic`): the listener refuses connections and
// knows each open one by its client address, so the guard (guard.go) can drop the connection a
// Set arrived on. Stall, slow, drop and reject happen in the guard.

import (
	"context"
	"net"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

// gnmiReject is what a gNMI switch answers a Set refused by FaultReject. sonic: a GCU failure as
// sonic-gnmi returns it (code Unknown, the first stderr line with "Error" in it; sonic-switch.md,
// "Set"). openconfig: assumed (lemming has no lock; a gNMI target's precondition failure).
type gnmiReject struct {
	code codes.Code
	text string
}

var gnmiRejectText = map[string]gnmiReject{
	"openconfig": {codes.FailedPrecondition, "configuration is locked by another session: commit in progress, try again later"},
	"sonic":      {codes.Unknown, "Error: Failed to apply patch on the following scopes:"},
}

// connTracker holds the open connections of a gNMI switch by client address.
type connTracker struct {
	mu    sync.Mutex
	conns map[string]net.Conn
}

// trackedConn leaves the tracker when closed.
type trackedConn struct {
	net.Conn
	t    *connTracker
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.t.mu.Lock()
		if c.t.conns[c.RemoteAddr().String()] == c {
			delete(c.t.conns, c.RemoteAddr().String())
		}
		c.t.mu.Unlock()
	})
	return c.Conn.Close()
}

func (t *connTracker) add(nc net.Conn) net.Conn {
	c := &trackedConn{Conn: nc, t: t}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conns == nil {
		t.conns = map[string]net.Conn{}
	}
	t.conns[nc.RemoteAddr().String()] = c
	return c
}

func (t *connTracker) closeAll() {
	t.mu.Lock()
	conns := make([]net.Conn, 0, len(t.conns))
	for _, c := range t.conns {
		conns = append(conns, c)
	}
	t.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
}

// closePeer closes the connection the RPC of ctx arrived on.
func (t *connTracker) closePeer(ctx context.Context) {
	p, ok := peer.FromContext(ctx)
	if !ok || p.Addr == nil {
		return
	}
	t.mu.Lock()
	c := t.conns[p.Addr.String()]
	t.mu.Unlock()
	if c != nil {
		_ = c.Close()
	}
}

// faultListener resets new connections while FaultRefuse is armed and tracks the others.
type faultListener struct {
	net.Listener
	faults *fault.Set
	conns  *connTracker
}

func (l faultListener) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.faults.Has(FaultRefuse) {
			fault.ResetConn(nc)
			continue
		}
		return l.conns.add(nc), nil
	}
}

func (e *gnmiEndpoint) faultSet() *fault.Set { return &e.faults }

func (e *gnmiEndpoint) closeConns() { e.conns.closeAll() }
