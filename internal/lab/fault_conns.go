package lab

// The connections of a switch served over TCP by a Go server (gNMI's grpc.Server, the NVUE
// switch's http.Server), as fault injection sees them: the listener resets new connections
// while FaultRefuse is armed and tracks the others by client address, so a fault can close
// every open one (refuse) or the one a request arrived on (drop).

import (
	"net"
	"sync"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/fault"
)

// connTracker holds the open connections of a switch by client address.
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

// closeAddr closes the open connection from the client address addr, if there is one.
func (t *connTracker) closeAddr(addr string) {
	t.mu.Lock()
	c := t.conns[addr]
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
