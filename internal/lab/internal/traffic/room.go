package traffic

import "sync"

// Room is where the lab's hosts meet for perftest: a server listens on a TCP port, a client
// connects to it and hands it what the run measured. Every lab host answers on 127.0.0.1, so a
// port is the lab's whole address: one perftest server per port across the lab.
type Room struct {
	mu     sync.Mutex
	listen map[int]chan any
}

// Listen opens port: the channel receives the one client that connects (a perftest server
// accepts one), and closing stops listening. ok is false when another server holds the port.
func (r *Room) Listen(port int) (accept <-chan any, closeFn func(), ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.listen == nil {
		r.listen = map[int]chan any{}
	}
	if _, busy := r.listen[port]; busy {
		return nil, nil, false
	}
	c := make(chan any, 1)
	r.listen[port] = c
	return c, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.listen[port] == c {
			delete(r.listen, port)
		}
	}, true
}

// Connect hands v to the server listening on port, which stops listening; false when none
// listens.
func (r *Room) Connect(port int, v any) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.listen[port]
	if !ok {
		return false
	}
	delete(r.listen, port)
	c <- v
	return true
}

// PortView is what a host's perftest path model needs of a switch port on the path.
type PortView struct {
	Lossless func(dscp int) (prio int, ok bool) // the DSCP's priority, and whether it is lossless
	Storm    bool
}

// RoCESwitch is a lab switch whose ports the path model can read (switches without it count as
// consistent: assumed).
type RoCESwitch interface {
	RoCEView(port string) (PortView, bool)
}
