package fault

// The connections of a switch served over TCP by a Go server (gNMI's grpc.Server, the NVUE
// switch's http.Server), as fault injection sees them: the listener resets new connections
// while Refuse is armed and tracks the others by client address, so a fault can close
// every open one (refuse) or the one a request arrived on (drop).

import (
	"net"
	"sync"
)

// Conns holds the open connections of a switch by client address. The zero value holds none.
type Conns struct {
	mu    sync.Mutex
	conns map[string]net.Conn
}

// trackedConn leaves the tracker when closed.
type trackedConn struct {
	net.Conn
	t    *Conns
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

func (t *Conns) add(nc net.Conn) net.Conn {
	c := &trackedConn{Conn: nc, t: t}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conns == nil {
		t.conns = map[string]net.Conn{}
	}
	t.conns[nc.RemoteAddr().String()] = c
	return c
}

// CloseAll closes every open connection (Refuse).
func (t *Conns) CloseAll() {
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

// CloseAddr closes the open connection from the client address addr, if there is one.
func (t *Conns) CloseAddr(addr string) {
	t.mu.Lock()
	c := t.conns[addr]
	t.mu.Unlock()
	if c != nil {
		_ = c.Close()
	}
}

// Listener resets new connections while Refuse is armed on Faults and tracks the others in
// Conns.
type Listener struct {
	net.Listener
	Faults *Set
	Conns  *Conns
}

// Accept returns the next connection Refuse lets through.
func (l Listener) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.Faults.Has(Refuse) {
			ResetConn(nc)
			continue
		}
		return l.Conns.add(nc), nil
	}
}
