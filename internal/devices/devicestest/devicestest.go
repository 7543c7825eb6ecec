// Package devicestest holds what the tests of writes through devices.Write share: a gate a fake
// device's request passes, which the test can close for the next request, so that the writes it
// starts meanwhile queue behind one in flight. Only tests import it (by convention).
package devicestest

import "sync"

// Gate holds a fake device's next request in flight. The zero Gate lets every request pass.
type Gate struct {
	mu      sync.Mutex
	next    chan struct{}
	entered chan struct{}
}

// HoldNext makes the next request to Pass wait until release is called.
func (g *Gate) HoldNext() (release func()) {
	c := make(chan struct{})
	g.mu.Lock()
	g.next = c
	g.mu.Unlock()
	return func() { close(c) }
}

// Entered receives once for each held request, when it is in flight (inside Pass).
func (g *Gate) Entered() <-chan struct{} { return g.enteredChan() }

func (g *Gate) enteredChan() chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.entered == nil {
		g.entered = make(chan struct{}, 1)
	}
	return g.entered
}

// Pass is where a fake device's request begins: a held request reports on Entered and waits
// for its release; any other goes straight on.
func (g *Gate) Pass() {
	g.mu.Lock()
	c := g.next
	g.next = nil
	g.mu.Unlock()
	if c != nil {
		g.enteredChan() <- struct{}{}
		<-c
	}
}
